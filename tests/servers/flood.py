"""An MCP server on stdio that floods the client with log notifications, for the traffic-log benchmark.

Stdlib only. ``python flood.py``; calling the tool ``flood`` with ``{"count": N}`` writes N
``notifications/message`` lines as fast as the pipe takes them, then the tool's result.
"""

from __future__ import annotations

import json
import sys

CHUNK = 1000  # lines per write


def send(message: dict) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def flood(count: int) -> None:
    out = sys.stdout.buffer
    head = b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":'
    for start in range(0, count, CHUNK):
        out.write(b"".join(b'%s"line %d"}}\n' % (head, n) for n in range(start, min(start + CHUNK, count))))
    out.flush()


TOOL = {
    "name": "flood",
    "description": "Writes `count` notifications/message lines, then returns.",
    "inputSchema": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}}},
}


def main() -> None:
    for raw in sys.stdin.buffer:
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        method, rpc_id = message.get("method"), message.get("id")
        if rpc_id is None:
            continue  # a notification
        if method == "initialize":
            result = {
                "protocolVersion": message.get("params", {}).get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}, "logging": {}},
                "serverInfo": {"name": "flood", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": [TOOL]}
        elif method == "tools/call":
            params = message.get("params") or {}
            count = int((params.get("arguments") or {}).get("count", 0))
            flood(count)
            result = {"content": [{"type": "text", "text": f"sent {count} notifications"}]}
        elif method == "ping":
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": rpc_id, "error": {"code": -32601, "message": f"unknown method {method}"}})
            continue
        send({"jsonrpc": "2.0", "id": rpc_id, "result": result})


if __name__ == "__main__":
    main()
