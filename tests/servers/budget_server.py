"""An MCP server on stdio whose tool list breaks the budget lints on purpose (stdlib only).

``python budget_server.py``. Its tools: ``undocumented`` has no description and a property with no
type; ``bad name!`` breaks the provider name rule; ``search`` and ``find`` carry the same description;
``verbose`` has a description far over 300 tokens. The server's name contains markup, to check that it
is shown as plain text.
"""

from __future__ import annotations

from stdio_rpc import serve

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


def answer(method: str, params: dict) -> dict | None:
    return {"tools": TOOLS} if method == "tools/list" else None


def main() -> None:
    serve(answer, name="<b>budget</b> lints", capabilities={"tools": {}})


if __name__ == "__main__":
    main()
