"""Helpers shared by the demo server tests."""

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import jsonschema

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO_COMMAND = [sys.executable, "-m", "inspector.demo"]
DEMO_ENV = {"PYTHONPATH": str(REPO_ROOT)}
"""Run the demo from this checkout whether or not the package is installed."""

EXPECTED_TOOLS = {
    "echo",
    "generate_image",
    "generate_tone",
    "show_resources",
    "get_weather",
    "schedule_meeting",
    "simulate_error",
    "slow_task",
    "emit_logs",
    "delete_note",
    "toggle_extra_tool",
    "ask_model",
    "book_table",
    "open_docs",
    "list_roots",
    "order_coffee",
    "research_topic",
    "route_request",
    "route_request_bad_headers",
    "show_dice",
    "reroll_dice",
}


def run(factory: Any, body: Any, recorder: Any = None) -> Any:
    """Open a session with ``factory`` and run ``await body(session)`` in a fresh event loop."""

    async def main() -> Any:
        async with factory(recorder) as session:
            return await body(session)

    return anyio.run(main)


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside a schema, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``#/$defs/...`` reference."""
    ref = node.get("$ref")
    return schema["$defs"][ref.removeprefix("#/$defs/")] if ref else node


def assert_rich_schema(schema: dict[str, Any]) -> None:
    """The input-schema features an inspector's form builder must handle."""
    jsonschema.Draft202012Validator.check_schema(schema)
    nodes = list(walk(schema))
    assert "$defs" in schema
    refs = [node["$ref"] for node in nodes if "$ref" in node]
    assert refs.count("#/$defs/Person") >= 2, refs
    assert all(ref.removeprefix("#/$defs/") in schema["$defs"] for ref in refs)
    one_of = [node["oneOf"] for node in nodes if "oneOf" in node]
    assert one_of, "no oneOf (discriminated union)"
    branches = [resolve(schema, branch) for branch in one_of[0]]
    assert {branch["properties"]["kind"]["const"] for branch in branches} == {"in_person", "online"}
    assert any({"type": "null"} in node["anyOf"] for node in nodes if "anyOf" in node), "no nullable field"
    enums = [node["enum"] for node in nodes if "enum" in node]
    assert any(all(isinstance(v, str) for v in enum) for enum in enums), "no string enum"
    assert any(all(isinstance(v, int) for v in enum) for enum in enums), "no numeric enum"
    formats = {node["format"] for node in nodes if "format" in node}
    assert {"date", "date-time", "email", "uri", "uuid"} <= formats, formats
    assert sum("default" in node for node in nodes) >= 5
    props = schema["properties"]
    assert resolve(schema, props["organizer"])["type"] == "object"  # nested object
    assert props["attendees"]["type"] == "array"
    assert resolve(schema, props["attendees"]["items"])["type"] == "object"  # array of objects
