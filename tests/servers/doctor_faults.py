"""A stdio MCP server with one planted fault, for the server doctor's tests (stdlib only).

    python tests/servers/doctor_faults.py FAULT

Faults: ``healthy`` (none), ``stdout-noise`` (a log line on stdout), ``invalid-schema`` (an inputSchema
that is not a valid JSON Schema), ``unbuildable-schema`` (valid, but our form cannot express it),
``endless-pages`` (tools/list always has a new nextCursor), ``crash-unknown-tool`` (exits on a call of
an unknown tool), ``hang-unknown-tool`` (never answers a call of an unknown tool), ``no-templates``
(declares resources but answers resources/templates/list with an error), ``hang-resources-list``
(declares resources and prompts, and stops answering anything at resources/list), ``null-prompts``
(declares prompts; prompts/list answers ``{"prompts": null}``).
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

from stdio_rpc import serve

FAULTS = (
    "healthy",
    "stdout-noise",
    "invalid-schema",
    "unbuildable-schema",
    "endless-pages",
    "crash-unknown-tool",
    "hang-unknown-tool",
    "no-templates",
    "hang-resources-list",
    "null-prompts",
)

ECHO = {
    "name": "echo",
    "description": "Echo a message back.",
    "inputSchema": {
        "type": "object",
        "properties": {"message": {"type": "string", "description": "what to echo"}},
        "required": ["message"],
    },
    "annotations": {"readOnlyHint": True},
}


def _tools(fault: str) -> list[dict[str, Any]]:
    tools = [ECHO]
    if fault == "invalid-schema":
        schema = {"type": "object", "properties": {"count": {"type": "integr", "description": "how many"}}}
        tools.append({"name": "broken_schema", "description": "Has an invalid schema.", "inputSchema": schema})
    if fault == "unbuildable-schema":
        schema = {
            "type": "object",
            "properties": {"a": {"type": "string", "description": "a"}, "b": {"type": "string", "description": "b"}},
            "dependentSchemas": {"a": {"required": ["session"]}},  # a property it never declares
        }
        tools.append(
            {"name": "paired_args", "description": "Needs a session whenever a is given.", "inputSchema": schema}
        )
    return tools


def main(fault: str) -> None:
    if fault not in FAULTS:
        sys.exit(f"unknown fault {fault!r}; one of: {', '.join(FAULTS)}")
    if fault == "stdout-noise":
        sys.stdout.write("debug: server starting on stdout\n")
        sys.stdout.flush()
    sys.stderr.write(f"doctor_faults: {fault}\n")
    sys.stderr.flush()
    tools = _tools(fault)

    def answer(method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        if method == "tools/list":
            if fault == "stdout-noise":
                sys.stdout.write("listing tools...\n")  # a print() left in a handler
                sys.stdout.flush()
            if fault == "endless-pages":
                page = int(params.get("cursor") or 0)
                return {"tools": [ECHO] if page == 0 else [], "nextCursor": str(page + 1)}
            return {"tools": tools}
        if method == "tools/call":
            name, arguments = params.get("name"), params.get("arguments") or {}
            if name == "echo" and isinstance(arguments.get("message"), str):
                text = arguments["message"]
                return {"content": [{"type": "text", "text": text}]}
            if name == "echo":
                return {"content": [{"type": "text", "text": "message must be a string"}], "isError": True}
            if fault == "crash-unknown-tool":
                os._exit(3)
            if fault == "hang-unknown-tool":
                threading.Event().wait()  # stops reading stdin too: the client's timeout must end it
            return None  # answered with a JSON-RPC error
        if method == "prompts/list" and fault == "null-prompts":
            return {"prompts": None}
        if method == "resources/list" and fault == "hang-resources-list":
            threading.Event().wait()  # stops reading stdin: every later request goes unanswered
        if method == "resources/list" and fault == "no-templates":
            return {"resources": []}
        return None

    capabilities: dict[str, Any] = {"tools": {}, **({"resources": {}} if fault == "no-templates" else {})}
    if fault == "hang-resources-list":
        capabilities.update(resources={}, prompts={})
    if fault == "null-prompts":
        capabilities["prompts"] = {}
    serve(answer, name=f"doctor-faults-{fault}", capabilities=capabilities)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "healthy")
