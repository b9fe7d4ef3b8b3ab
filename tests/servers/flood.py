"""An MCP server on stdio that floods the client with log notifications, for the traffic-log benchmark.

Stdlib only. ``python flood.py``; calling the tool ``flood`` with ``{"count": N}`` writes N
``notifications/message`` lines as fast as the pipe takes them, then the tool's result.
"""

from __future__ import annotations

import sys

from stdio_rpc import serve

CHUNK = 1000  # lines per write


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


def answer(method: str, params: dict) -> dict | None:
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        count = int((params.get("arguments") or {}).get("count", 0))
        flood(count)
        return {"content": [{"type": "text", "text": f"sent {count} notifications"}]}
    return None


def main() -> None:
    serve(answer, name="flood", capabilities={"tools": {}, "logging": {}})


if __name__ == "__main__":
    main()
