"""A handshake-era stdio server that never answers a method it does not know (server/discover included).

Such servers exist: the `auto` era's probe waits for them. Answers initialize, tools/list and one tool.
"""

from __future__ import annotations

import json
import sys

TOOL = {"name": "hello", "description": "Says hello.", "inputSchema": {"type": "object", "properties": {}}}


def answer(message: dict) -> dict | None:
    method = message.get("method")
    if method == "initialize":
        version = (message.get("params") or {}).get("protocolVersion", "2025-11-25")
        info = {"name": "silent-legacy", "version": "1.0"}
        return {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        return {"content": [{"type": "text", "text": "hello"}]}
    if method == "ping":
        return {}
    return None  # silence


def main() -> None:
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if "id" not in message or "method" not in message:
            continue
        result = answer(message)
        if result is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
