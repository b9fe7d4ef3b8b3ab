"""A Streamable HTTP server with one `echo` tool that logs what reached it: each request's path and
query, and its headers, one JSON line per request in the file LOG.

    python tests/servers/header_log.py PORT LOG

For the tests of what goes on the wire, bodies too (a `<redacted>` or a canary must never arrive; a configured
`Authorization` header must win over the URL's user:password).
"""

from __future__ import annotations

import json
import sys

import uvicorn
from mcp.server.mcpserver import MCPServer


class HeaderLog:
    """ASGI middleware: appends {"target": path?query, "headers": [[name, value], …]} for each request,
    and {"body": text} for each piece of a request's body."""

    def __init__(self, app, log: str) -> None:
        self.app, self.log = app, log

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            target = scope["path"] + ("?" + scope["query_string"].decode("latin-1") if scope["query_string"] else "")
            headers = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]]
            with open(self.log, "a", encoding="utf-8") as out:
                out.write(json.dumps({"target": target, "headers": headers}) + "\n")

        async def logged_receive():
            message = await receive()
            if message.get("type") == "http.request" and message.get("body"):
                with open(self.log, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"body": message["body"].decode("utf-8", "replace")}) + "\n")
            return message

        await self.app(scope, logged_receive, send)


def main() -> None:
    port, log = int(sys.argv[1]), sys.argv[2]
    server = MCPServer("header-log")

    @server.tool()
    def echo(message: str) -> str:
        """Echo the message back."""
        return message

    app = HeaderLog(server.streamable_http_app(), log)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
