"""A handshake-era stdio server whose tool `burst` announces `count` resources/list_changed in a row (as a
server that adds resources one by one does), for the test that the Resources tab re-lists once, not N times.

Stdlib only: ``python list_burst.py``.
"""

from __future__ import annotations

from stdio_rpc import send, serve

TOOL = {
    "name": "burst",
    "description": "Sends `count` notifications/resources/list_changed, then returns.",
    "inputSchema": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}}},
}


def answer(method: str, params: dict) -> dict | None:
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        count = int((params.get("arguments") or {}).get("count", 5))
        for _ in range(count):
            send({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"})
        return {"content": [{"type": "text", "text": f"announced {count} list changes"}]}
    if method == "resources/list":
        return {"resources": [{"uri": "mem://one", "name": "one"}]}
    if method == "resources/templates/list":
        return {"resourceTemplates": []}
    return None


if __name__ == "__main__":
    serve(answer, name="list-burst", capabilities={"tools": {}, "resources": {"listChanged": True}})
