"""A small stdio server in two versions, for "a changed server makes the right step fail". Stdlib only.

``python echo_versions.py 1`` answers `echo` with the message and `stats` with structured output that
fits its `outputSchema`; version 2 (a regression) echoes the message upper-cased and returns `count`
as a string, which the schema forbids. `ping_tool` is the same in both.
"""

from __future__ import annotations

import sys
from typing import Any

from stdio_rpc import serve

VERSION = sys.argv[1] if len(sys.argv) > 1 else "1"
STATS_SCHEMA = {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}
TOOLS = [
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}},
    {"name": "stats", "inputSchema": {"type": "object"}, "outputSchema": STATS_SCHEMA},
    {"name": "ping_tool", "inputSchema": {"type": "object"}},
]


def answer(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
    if method == "tools/list":
        return {"tools": TOOLS}
    if method != "tools/call":
        return None
    name, arguments = params.get("name"), params.get("arguments") or {}
    if name == "echo":
        message = str(arguments.get("message", ""))
        return {"content": [{"type": "text", "text": message if VERSION == "1" else message.upper()}]}
    if name == "stats":
        structured = {"count": 3 if VERSION == "1" else "3"}
        return {"content": [{"type": "text", "text": str(structured)}], "structuredContent": structured}
    if name == "ping_tool":
        return {"content": [{"type": "text", "text": "pong"}]}
    return {"content": [{"type": "text", "text": f"unknown tool {name}"}], "isError": True}


if __name__ == "__main__":
    serve(answer, name=f"echo-versions-{VERSION}", capabilities={"tools": {}})
