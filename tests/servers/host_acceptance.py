"""An MCP server on stdio whose tools hosts judge differently (stdlib only): ``python host_acceptance.py``.

``lookup_order`` is ready for OpenAI's strict mode (closed, every property required); ``search`` has an open
object and an optional property; ``files.read`` has a dot in its name; ``manual`` a 3,000-character
description; ``find`` a union at the root of its input schema.
"""

from __future__ import annotations

from stdio_rpc import serve

TOOLS = [
    {
        "name": "lookup_order",
        "description": "Looks an order up by its id.",
        "inputSchema": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}, "note": {"type": ["string", "null"]}},
            "required": ["order_id", "note"],
            "additionalProperties": False,
        },
    },
    {
        "name": "search",
        "description": "Full-text search.",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 10}},
            "required": ["query"],
        },
    },
    {
        "name": "files.read",
        "description": "Reads a file.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
    {
        "name": "manual",
        "description": "Read the manual. " * 176 + "End.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    },
    {
        "name": "find",
        "description": "Finds a customer by id or by e-mail.",
        "inputSchema": {
            "anyOf": [
                {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
                {"type": "object", "properties": {"email": {"type": "string"}}, "required": ["email"]},
            ]
        },
    },
]


def answer(method: str, params: dict) -> dict | None:
    return {"tools": TOOLS} if method == "tools/list" else None


def main() -> None:
    serve(answer, name="host-acceptance", capabilities={"tools": {}})


if __name__ == "__main__":
    main()
