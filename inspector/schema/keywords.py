"""Reading JSON Schema keywords defensively: wrong types give `None` / defaults or a `SchemaProblem`."""

from __future__ import annotations

from typing import Any

from inspector.schema.jsontools import is_number, json_text
from inspector.schema.nodes import MISSING, Kind
from inspector.schema.refs import SchemaProblem

MAX_EXAMPLES = 20
UNSUPPORTED = {
    "not": "`not`",
    "if": "if/then/else",
    "then": "if/then/else",
    "else": "if/then/else",
    "dependentSchemas": "dependentSchemas",
    "$dynamicRef": "$dynamicRef",
    "$recursiveRef": "$recursiveRef",
}
STRING_HINTS = ("minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType")
NUMBER_HINTS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
OBJECT_HINTS = ("properties", "additionalProperties", "patternProperties", "required", "propertyNames")
ARRAY_HINTS = ("items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains")
KINDS = {"string": Kind.STRING, "number": Kind.NUMBER, "integer": Kind.INTEGER, "boolean": Kind.BOOLEAN}


def nonneg_int(value: Any) -> int | None:
    """A count keyword (minLength, maxItems…) if it is a non-negative whole number."""
    return int(value) if is_number(value) and value == int(value) and value >= 0 else None


def number(value: Any) -> float | None:
    """A bound keyword (minimum…) if it is a number."""
    return value if is_number(value) else None


def type_list(schema: dict[str, Any]) -> list[str] | None:
    """`type` as a list of names (None when absent)."""
    t = schema.get("type", MISSING)
    if t is MISSING:
        return None
    if isinstance(t, str):
        return [t]
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return list(dict.fromkeys(t))
    raise SchemaProblem(f"`type` is {json_text(t, 40)}, not a type name or a list of names")


def infer_type(s: dict[str, Any]) -> str:
    """The type a schema without `type` most likely describes, from its other keywords."""
    for hints, name in ((OBJECT_HINTS, "object"), (ARRAY_HINTS, "array"), (STRING_HINTS, "string")):
        if any(k in s for k in hints):
            return name
    return "number" if any(k in s for k in NUMBER_HINTS) else "any"


def read_annotations(s: dict[str, Any]) -> dict[str, Any]:
    """title, description, default, readOnly, deprecated, examples (as FieldSpec fields)."""
    examples = s.get("examples")
    return {
        "title": s["title"] if isinstance(s.get("title"), str) else "",
        "description": s["description"] if isinstance(s.get("description"), str) else "",
        "default": s.get("default", MISSING),
        "read_only": s.get("readOnly") is True,
        "deprecated": s.get("deprecated") is True,
        "examples": tuple(examples[:MAX_EXAMPLES]) if isinstance(examples, list) else (),
    }
