"""An MCP server on stdio whose tool list breaks the budget lints on purpose (stdlib only).

``python budget_server.py``. Its tools: ``undocumented`` has no description and a property with no
type; ``bad name!`` breaks the provider name rule; ``search`` and ``find`` carry the same description;
``verbose`` has a description far over 300 tokens. The server's name contains markup, to check that it
is shown as plain text.
"""

from __future__ import annotations

import json
import sys

SHARED = "Search the catalogue for items whose title or body matches the query and return the best hits."
TOOLS = [
    {
        "name": "undocumented",
        "inputSchema": {"type": "object", "properties": {"target": {}, "count": {"type": "integer"}}},
    },
    {
        "name": "bad name!",
        "description": "A tool whose name has a space and punctuation.",
        "inputSchema": {"type": "object", "properties": {}},
    },
    {
        "name": "search",
        "description": SHARED,
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "Words."}}},
    },
    {
        "name": "find",
        "description": SHARED,
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "Words."}}},
    },
    {
        "name": "verbose",
        "description": " ".join(f"Step {n}: read the record, check its fields and write a summary." for n in range(60)),
        "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "Record id."}}},
    },
]


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    for raw in sys.stdin:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict) or message.get("id") is None:
            continue  # notifications need no answer
        method, rpc_id = message.get("method"), message["id"]
        if method == "initialize":
            result = {
                "protocolVersion": (message.get("params") or {}).get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "<b>budget</b> lints", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "ping":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": rpc_id, "error": {"code": -32601, "message": f"unknown method {method}"}})
            continue
        send({"jsonrpc": "2.0", "id": rpc_id, "result": result})


if __name__ == "__main__":
    main()
