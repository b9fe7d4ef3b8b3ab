"""An MCP server on stdio whose tools exercise the Tools tab's form and result panes (stdlib only).

``python tools_server.py``. Tools: ``run_query`` (a required ``sql``, a ``timeout_s`` with an exclusive
lower bound, a ``connection`` whose example is longer than a short placeholder, a string map
``options``); ``untyped_schema`` (an inputSchema without ``"type"``, a conformance finding); and
``fetch_report`` (an embedded text/plain *blob* resource and a link to a resource served here);
``current_time`` (one box under a three-line help, as mcp-server-time's).
"""

from __future__ import annotations

import base64
from typing import Any

from stdio_rpc import serve

CONNECTION_EXAMPLE = "postgresql://reporting_user@db.internal.example.com:5432/analytics?sslmode=require"
REPORT = "Quarterly report: every dashboard is green."
SUMMARY = "Summary resource: read through a link."

TOOLS = [
    {
        "name": "run_query",
        "description": "Run a read-only SQL query.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "sql": {"type": "string", "description": "The query."},
                "timeout_s": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "maximum": 300,
                    "description": "Seconds before giving up.",
                },
                "connection": {"type": "string", "examples": [CONNECTION_EXAMPLE]},
                "options": {"type": "object", "additionalProperties": {"type": "string"}},
            },
            "required": ["sql"],
        },
    },
    {
        "name": "untyped_schema",
        "description": "Its inputSchema has properties but no type.",
        "inputSchema": {"properties": {"q": {"type": "string"}}},
    },
    {
        "name": "fetch_report",
        "description": "Return the report as a text/plain blob and a link to its summary.",
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
    },
    {  # shaped like mcp-server-time's: a three-line help above its one box (a sliver at 1024×700 once)
        "name": "current_time",
        "description": "Get current time in a specific timezone",
        "inputSchema": {
            "type": "object",
            "properties": {
                "timezone": {
                    "type": "string",
                    "description": "IANA timezone name (e.g., 'America/New_York', 'Europe/London'). "
                    "Use 'Etc/UTC' as local timezone if no timezone provided by the user.",
                }
            },
            "required": ["timezone"],
        },
        "annotations": {"readOnlyHint": True, "idempotentHint": True},
    },
]


def text_block(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}]}


def answer(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "tools/call":
        name, arguments = params.get("name"), params.get("arguments") or {}
        if name == "fetch_report":
            blob = base64.b64encode(REPORT.encode()).decode()
            report = {"uri": "test://report.txt", "mimeType": "text/plain", "blob": blob}
            link = {"type": "resource_link", "uri": "test://summary.txt", "name": "summary", "mimeType": "text/plain"}
            return {"content": [{"type": "resource", "resource": report}, link]}
        return text_block(f"{name} called with {sorted(arguments)}")
    if method == "resources/list":
        return {"resources": []}
    if method == "resources/templates/list":
        return {"resourceTemplates": []}
    if method == "resources/read":
        return {"contents": [{"uri": params.get("uri"), "mimeType": "text/plain", "text": SUMMARY}]}
    return None


if __name__ == "__main__":
    serve(answer, name="tools-test", capabilities={"tools": {}, "resources": {}})
