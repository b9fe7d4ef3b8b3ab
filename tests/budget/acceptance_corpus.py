"""A corpus of tool schemas as real servers write them, each with the verdict every host gives it.

``EXPECTED[tool][host]`` is ``(outcome, {rule keys behind that outcome})``; a host left out accepts the tool as is.
The server is configured as ``crm`` (Claude Code names its tools ``mcp__crm__<tool>``).
"""

from __future__ import annotations

from typing import Any

from factories import tool

SERVER = "crm"
HOSTS = ("claude-code", "claude-desktop", "cursor", "vscode", "openai", "openai-strict", "gemini", "anthropic")


def _obj(properties: dict[str, Any], required: list[str] | None = None, closed: bool = False) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    return schema


CITY = {"type": "string", "description": "City name, e.g. Paris"}

CORPUS: dict[str, dict[str, Any]] = {
    # the plain tool most SDKs write: one required string
    "get_weather": tool("get_weather", "Current weather for a city.", _obj({"city": CITY}, ["city"])),
    # strict-ready: closed, every property required, nullable by a list of types
    "add_note": tool(
        "add_note",
        "Adds a note.",
        _obj(
            {"text": {"type": "string"}, "due": {"type": ["string", "null"], "format": "date"}}, ["text", "due"], True
        ),
    ),
    # a union at the root (a tool that takes one of two shapes)
    "lookup": tool(
        "lookup",
        "Looks a customer up by id or by e-mail.",
        {
            "anyOf": [
                _obj({"id": {"type": "integer"}}, ["id"]),
                _obj({"email": {"type": "string", "format": "email"}}, ["email"]),
            ]
        },
    ),
    # zod-to-json-schema: $schema, a $ref chain through $defs, closed objects, all required
    "find_orders": tool(
        "find_orders",
        "Finds orders matching a filter.",
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {"filter": {"$ref": "#/$defs/Filter"}},
            "required": ["filter"],
            "additionalProperties": False,
            "$defs": {
                "Filter": _obj(
                    {"field": {"$ref": "#/$defs/Field"}, "value": {"type": "string"}}, ["field", "value"], True
                ),
                "Field": {"type": "string", "enum": ["status", "customer", "total"]},
            },
        },
    ),
    # an open map: additionalProperties as a schema
    "tag_record": tool(
        "tag_record",
        "Sets tags on a record.",
        _obj(
            {"id": {"type": "string"}, "tags": {"type": "object", "additionalProperties": {"type": "string"}}},
            ["id", "tags"],
            True,
        ),
    ),
    # optional properties with defaults and bounds
    "search": tool(
        "search",
        "Full-text search.",
        _obj(
            {"query": {"type": "string"}, "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}},
            ["query"],
            True,
        ),
    ),
    # allOf inside a property (as Notion's server writes it)
    "update_page": tool(
        "update_page",
        "Updates a page.",
        _obj({"data": {"allOf": [_obj({"title": {"type": "string"}}, ["title"], True)]}}, ["data"], True),
    ),
    # OpenAPI style: only what Gemini's subset has
    "count_items": tool(
        "count_items",
        "Counts items.",
        _obj({"n": {"type": "integer", "format": "int32", "minimum": 0, "nullable": True}}, ["n"]),
    ),
    # 54 characters: fine alone, 64 with Claude Code's mcp__crm__ prefix... and one more makes 65
    "sync_every_customer_record_with_the_billing_system_now": tool(
        "sync_every_customer_record_with_the_billing_system_now", "Syncs.", _obj({})
    ),
    "sync_every_customer_record_with_the_billing_system_now2": tool(
        "sync_every_customer_record_with_the_billing_system_now2", "Syncs.", _obj({})
    ),
    # 70 characters: too long for every host with a length rule
    "x" * 70: tool("x" * 70, "Long.", _obj({})),
    # a dotted name (namespacing as some servers do)
    "files.read": tool("files.read", "Reads a file.", _obj({"path": {"type": "string"}}, ["path"])),
    # a 1,500-character description: over OpenAI's 1,024, under Claude Code's 2,048
    "report": tool("report", "Builds a report. " * 88 + "Done.", _obj({})),
    # a 3,000-character description: cut by Claude Code, refused by OpenAI
    "manual": tool("manual", "Read the manual. " * 176 + "End.", _obj({})),
    # no type at the root (properties only)
    "untyped": tool("untyped", "No root type.", {"properties": {"a": {"type": "string"}}}),
}

_ROOT = {"schema-root"}
_STRICT_CLOSED = ("refused", {"strict-closed"})
_GEMINI_FIELDS = ("refused", {"schema-fields"})

EXPECTED: dict[str, dict[str, tuple[str, set[str]]]] = {
    "get_weather": {"openai-strict": _STRICT_CLOSED},
    "add_note": {"gemini": ("refused", {"schema-fields", "schema-single-type"})},
    "lookup": {
        "claude-code": ("refused", _ROOT),
        "claude-desktop": ("refused", _ROOT),
        "anthropic": ("refused", _ROOT),
        "openai": ("refused", _ROOT),
        "openai-strict": ("refused", _ROOT | {"strict-closed"}),
    },
    "find_orders": {"gemini": _GEMINI_FIELDS},
    "tag_record": {"openai-strict": _STRICT_CLOSED, "gemini": _GEMINI_FIELDS},
    "search": {"openai-strict": ("refused", {"strict-required", "schema-refused"}), "gemini": _GEMINI_FIELDS},
    "update_page": {"openai-strict": ("refused", {"schema-refused"}), "gemini": _GEMINI_FIELDS},
    "count_items": {"openai-strict": _STRICT_CLOSED},
    "sync_every_customer_record_with_the_billing_system_now": {},
    "sync_every_customer_record_with_the_billing_system_now2": {"claude-code": ("refused", {"name-max"})},
    "x" * 70: {
        "claude-code": ("refused", {"name-max"}),
        "claude-desktop": ("refused", {"name-pattern"}),
        "anthropic": ("refused", {"name-max"}),
        "openai": ("refused", {"name-pattern"}),
        "openai-strict": ("refused", {"name-pattern", "strict-closed"}),
        "gemini": ("refused", {"name-pattern"}),
    },
    "files.read": {
        "claude-code": ("refused", {"name-pattern"}),
        "claude-desktop": ("refused", {"name-pattern"}),
        "anthropic": ("refused", {"name-pattern"}),
        "openai": ("refused", {"name-pattern"}),
        "openai-strict": ("refused", {"name-pattern", "strict-closed"}),
        "vscode": ("refused", {"name-pattern"}),
    },
    "report": {
        "openai": ("refused", {"description-limit"}),
        "openai-strict": ("refused", {"description-limit", "strict-closed"}),
    },
    "manual": {
        "claude-code": ("changed", {"description-max"}),
        "openai": ("refused", {"description-limit"}),
        "openai-strict": ("refused", {"description-limit", "strict-closed"}),
    },
    "untyped": {
        "claude-code": ("refused", _ROOT),
        "claude-desktop": ("refused", _ROOT),
        "anthropic": ("refused", _ROOT),
        "openai": ("refused", _ROOT),
        "openai-strict": ("refused", _ROOT | {"strict-closed", "strict-required"}),
    },
}

# strict-closed applies to every object schema, the empty ones too
for _name in (
    "sync_every_customer_record_with_the_billing_system_now",
    "sync_every_customer_record_with_the_billing_system_now2",
):
    EXPECTED[_name]["openai-strict"] = _STRICT_CLOSED


def two_hundred_tools() -> list[dict[str, Any]]:
    """A 200-tool list (as an OpenAPI-generated server lists): every tool accepted alone by every host."""
    return [tool(f"op_{i:03}", f"Operation {i}.", _obj({"id": {"type": "string"}}, ["id"], True)) for i in range(200)]
