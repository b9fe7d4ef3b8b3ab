"""Small helpers for JSON values: type-aware equality, display text, type names."""

from __future__ import annotations

import json
import math
from typing import Any

from inspector.schema.nodes import MISSING

TEXT_LIMIT = 200


def json_type(value: Any) -> str:
    """The JSON Schema type name of a Python JSON value ('integer' for whole ints)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if math.isfinite(value) and value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but True != 1 and "1" != 1; recursive for arrays and objects."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def json_text(value: Any, limit: int = TEXT_LIMIT) -> str:
    """Compact JSON text of a value (for labels), shortened to `limit` characters."""
    if value is MISSING:
        return ""
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, TypeError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def index_of(values: list[Any] | tuple[Any, ...], value: Any) -> int:
    """Index of `value` in `values` under JSON equality, or -1."""
    for i, candidate in enumerate(values):
        if json_equal(candidate, value):
            return i
    return -1
