"""How a host sends a tool list, as text: the MCP ``tools/list`` JSON, the OpenAI and Anthropic ``tools`` arrays.

Every tool becomes ``prefix + ",".join(fragments) + suffix`` where each fragment is one ``"key":value``
member in compact JSON (``separators=(",", ":")``, non-ASCII kept as is, as JSON.stringify and pydantic
write it). The fragments are labelled with the breakdown part they belong to, so the tool's text and
its per-part counts come from one serialisation.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

SHAPES = ("mcp", "openai", "anthropic")

# MCP key → breakdown part. Keys not listed (``_meta``, ``icons``, ``execution``…) count as "rest".
_MCP_PARTS = {
    "name": "name",
    "title": "title",
    "description": "description",
    "inputSchema": "input_schema",
    "outputSchema": "output_schema",
    "annotations": "annotations",
}


@dataclass(frozen=True)
class ListFrame:
    """Text around the tools of a whole list: ``prefix + ",".join(tools) + suffix``."""

    prefix: str
    suffix: str


LIST_FRAMES = {
    "mcp": ListFrame('{"tools":[', "]}"),
    "openai": ListFrame("[", "]"),
    "anthropic": ListFrame("[", "]"),
}


def _make_encoder() -> Callable[[Any], str]:
    """Compact JSON, non-ASCII kept. One C encoder reused: json.dumps with options builds a new one per call."""
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
    if c_make_encoder is None:  # pragma: no cover - CPython always has the C accelerator
        return json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).encode
    encode_string = json.encoder.encode_basestring
    encoder = c_make_encoder({}, str, encode_string, None, ":", ",", False, False, True)

    def encode(value: Any) -> str:
        if isinstance(value, str):
            return encode_string(value)
        try:
            return "".join(encoder(value, 0))
        except ValueError:  # a circular reference (never from the wire): let json say so plainly
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)

    return encode


dumps = _make_encoder()
dumps.__doc__ = "Compact JSON as hosts send it; values that are not JSON (never from the wire) fall back to str."
_keys: dict[str, str] = {}


def member(key: str, value: Any) -> str:
    """One ``"key":value`` object member."""
    quoted = _keys.get(key)
    if quoted is None:
        quoted = dumps(key) + ":"
        if len(_keys) < 4096:
            _keys[key] = quoted
    return quoted + dumps(value)


def _input_schema(tool: dict[str, Any]) -> Any:
    schema = tool.get("inputSchema")
    return schema if schema is not None else {"type": "object", "properties": {}}


def shape_members(
    tool: dict[str, Any], shape: str, member: Callable[[str, Any], Any] = member
) -> tuple[str, list[tuple[str | None, str, Any]], str]:
    """``(prefix, [(part, key, fragment)…], suffix)`` of one tool in ``shape``; part is None for "rest" keys.
    ``member`` writes each fragment (the counter passes one that leaves a very long member unwritten)."""
    if shape == "mcp":
        members = [(_MCP_PARTS.get(str(key)), str(key), member(str(key), value)) for key, value in tool.items()]
        return "{", members, "}"
    name = tool.get("name")
    description = tool.get("description")
    schema = _input_schema(tool)
    schema_key = "parameters" if shape == "openai" else "input_schema"
    members = [("name", "name", member("name", name))]
    if description is not None:
        members.append(("description", "description", member("description", description)))
    members.append(("input_schema", schema_key, member(schema_key, schema)))
    if shape == "openai":
        return '{"type":"function","function":{', members, "}}"
    if shape == "anthropic":
        return "{", members, "}"
    raise KeyError(f"unknown shape {shape!r}; choose one of {', '.join(SHAPES)}")


def shaped_tool(tool: dict[str, Any], shape: str) -> dict[str, Any]:
    """The tool as a JSON object in ``shape`` (what `shape_members` serialises)."""
    if shape == "mcp":
        return tool
    body: dict[str, Any] = {"name": tool.get("name")}
    if tool.get("description") is not None:
        body["description"] = tool.get("description")
    if shape == "openai":
        body["parameters"] = _input_schema(tool)
        return {"type": "function", "function": body}
    if shape == "anthropic":
        body["input_schema"] = _input_schema(tool)
        return body
    raise KeyError(f"unknown shape {shape!r}; choose one of {', '.join(SHAPES)}")


def property_descriptions(schema: Any) -> list[str]:
    """Every ``description`` string inside a schema below its root (properties, items, $defs, anyOf…)."""
    found: list[str] = []

    def walk(node: Any, root: bool) -> None:
        if isinstance(node, dict):
            text = node.get("description")
            if not root and isinstance(text, str):
                found.append(text)
            for key, value in node.items():
                if key in ("enum", "const", "default", "examples"):
                    continue  # data, not schema
                if key == "properties" and isinstance(value, dict):
                    for sub in value.values():
                        walk(sub, False)
                elif isinstance(value, (dict, list)):
                    walk(value, False)
        elif isinstance(node, list):
            for item in node:
                walk(item, False)

    walk(schema, True)
    return found
