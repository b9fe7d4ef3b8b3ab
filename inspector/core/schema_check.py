"""Is a tool schema a valid JSON Schema? Cheaply, for the common case, and once per distinct schema.

jsonschema's `check_schema` (the schema validated against its draft's meta-schema) costs 1.5–2 ms for a
small tool schema: 10 s for a 5,000-tool server. Two shortcuts keep the answer the same:

- `plainly_valid`: a structural walk that accepts only draft 2020-12 schemas (the default) and draft-07
  ones (what the TypeScript SDK writes) whose keywords it knows, each with a value the meta-schema
  allows, plus keywords of no vocabulary (`x-…`: allowed with any value) (a few µs). Anything else
  (another draft, `$id`, `$anchor`…, a doubtful value) is left to the full check; it never says "valid"
  for a schema the meta-schema rejects. It holds draft-07 schemas to the 2020-12 rules, which are as
  strict or stricter, except `additionalItems`: a schema in draft-07, any value in 2020-12.
- `meta_problems`: the full check, cached by the schema's canonical JSON (a server's tools often share
  schemas, and a list is checked again on every refresh).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
DRAFT_07 = frozenset({"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"})
MAX_DEPTH = 40  # deeper schemas go to the full check
MAX_CACHED_CHARS = 256 * 1024  # larger schemas are checked each time rather than kept in the cache
TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
# Every keyword the draft 2020-12 meta-schemas define (its vocabularies and the top-level schema).
META_KEYWORDS = frozenset(
    {
        *("$anchor", "$comment", "$defs", "$dynamicAnchor", "$dynamicRef", "$id", "$recursiveAnchor"),
        *("$recursiveRef", "$ref", "$schema", "$vocabulary", "additionalProperties", "allOf", "anyOf"),
        *("const", "contains", "contentEncoding", "contentMediaType", "contentSchema", "default"),
        *("definitions", "dependencies", "dependentRequired", "dependentSchemas", "deprecated"),
        *("description", "else", "enum", "examples", "exclusiveMaximum", "exclusiveMinimum", "format"),
        *("if", "items", "maxContains", "maxItems", "maxLength", "maxProperties", "maximum", "minContains"),
        *("minItems", "minLength", "minProperties", "minimum", "multipleOf", "not", "oneOf", "pattern"),
        *("patternProperties", "prefixItems", "properties", "propertyNames", "readOnly", "required"),
        *("then", "title", "type", "unevaluatedItems", "unevaluatedProperties", "uniqueItems", "writeOnly"),
    }
)
_LOCAL_REF = re.compile(r"#(?:/[A-Za-z0-9_.~$-]*)*")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_strings(value: Any) -> bool:
    """A string array with unique items (the meta-schema's `stringArray`)."""
    return isinstance(value, list) and all(isinstance(v, str) for v in value) and len(set(value)) == len(value)


def _is_type(value: Any) -> bool:
    if isinstance(value, str):
        return value in TYPES
    return isinstance(value, list) and bool(value) and _is_strings(value) and all(v in TYPES for v in value)


def _is_regex(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        re.compile(value)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


# keyword → a check of its value (for keywords whose value is not a schema)
_VALUES: dict[str, Callable[[Any], bool]] = {
    "type": _is_type,
    "required": _is_strings,
    "enum": lambda v: isinstance(v, list),
    "const": lambda v: True,
    "default": lambda v: True,
    "examples": lambda v: isinstance(v, list),
    "title": lambda v: isinstance(v, str),
    "description": lambda v: isinstance(v, str),
    "$comment": lambda v: isinstance(v, str),
    "format": lambda v: isinstance(v, str),
    "contentEncoding": lambda v: isinstance(v, str),
    "contentMediaType": lambda v: isinstance(v, str),
    "pattern": _is_regex,
    "minimum": _is_number,
    "maximum": _is_number,
    "exclusiveMinimum": _is_number,
    "exclusiveMaximum": _is_number,
    "multipleOf": lambda v: _is_number(v) and v > 0,
    "minLength": _is_count,
    "maxLength": _is_count,
    "minItems": _is_count,
    "maxItems": _is_count,
    "minProperties": _is_count,
    "maxProperties": _is_count,
    "minContains": _is_count,
    "maxContains": _is_count,
    "uniqueItems": lambda v: isinstance(v, bool),
    "readOnly": lambda v: isinstance(v, bool),
    "writeOnly": lambda v: isinstance(v, bool),
    "deprecated": lambda v: isinstance(v, bool),
    "dependentRequired": lambda v: isinstance(v, dict) and all(_is_strings(x) for x in v.values()),
    "$ref": lambda v: isinstance(v, str) and _LOCAL_REF.fullmatch(v) is not None,
}
_ONE = frozenset(
    {
        "not",
        "if",
        "then",
        "else",
        "items",
        "contains",
        "additionalProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)  # keyword → one schema
_MAP = frozenset({"properties", "$defs", "definitions", "dependentSchemas"})  # keyword → name → schema
_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})  # keyword → non-empty list of schemas


_ONE_07 = _ONE | {"additionalItems"}
_DIALECT_2020_12 = frozenset({DRAFT_2020_12, DRAFT_2020_12 + "#"})  # jsonschema reads both as 2020-12


def plainly_valid(schema: Any) -> bool:
    """True when `schema` is certainly a valid schema of its draft (2020-12 unless its `$schema` names
    draft-07, as jsonschema's `validator_for` picks); False means "ask the full check"."""
    uri = schema.get("$schema", DRAFT_2020_12) if isinstance(schema, dict) else DRAFT_2020_12
    if isinstance(uri, str) and uri in _DIALECT_2020_12:
        return _walk(schema, 0, _DIALECT_2020_12, _ONE)
    if isinstance(uri, str) and uri in DRAFT_07:
        return _walk(schema, 0, DRAFT_07, _ONE_07)
    return False


def _walk(schema: Any, depth: int, dialect: frozenset[str], one: frozenset[str]) -> bool:
    if isinstance(schema, bool):
        return True
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return False
    for key, value in schema.items():
        check = _VALUES.get(key)
        if check is not None:
            if not check(value):
                return False
        elif key in one:
            if not _walk(value, depth + 1, dialect, one):
                return False
        elif key in _MAP:
            if not isinstance(value, dict) or not all(_walk(v, depth + 1, dialect, one) for v in value.values()):
                return False
        elif key in _LIST:
            if not isinstance(value, list) or not value:
                return False
            if not all(_walk(v, depth + 1, dialect, one) for v in value):
                return False
        elif key == "patternProperties":
            if not isinstance(value, dict) or not all(_is_regex(k) for k in value):
                return False
            if not all(_walk(v, depth + 1, dialect, one) for v in value.values()):
                return False
        elif key == "$schema":  # the schema's own draft, nowhere another
            if not isinstance(value, str) or value not in dialect:
                return False
        elif key in META_KEYWORDS:  # defined by the meta-schema, not checked here: $id, $anchor, …
            return False
        # any other key is a keyword of no vocabulary: the meta-schema allows it with any value
    return True


def canonical(schema: Any) -> str | None:
    """The schema as canonical JSON (sorted keys), or None when it does not serialise."""
    try:
        return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        return None


def meta_problems(schema: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """What the draft's meta-schema finds wrong with `schema`: ``(where, message)`` pairs, () when valid.

    `where` is a JSON path suffix (``.properties.x.type``); a check that breaks is one problem at "".
    """
    if plainly_valid(schema):
        return ()
    text = canonical(schema)
    if text is None or len(text) > MAX_CACHED_CHARS:
        return _full_check(schema)
    return _cached_check(text)


@lru_cache(maxsize=4096)
def _cached_check(text: str) -> tuple[tuple[str, str], ...]:
    return _full_check(json.loads(text))


def _full_check(schema: Any) -> tuple[tuple[str, str], ...]:
    from jsonschema.exceptions import SchemaError  # lazy: jsonschema costs ~100 ms to import
    from jsonschema.validators import validator_for

    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in exc.path)
        return ((where, f"invalid JSON Schema: {exc.message}"),)
    except Exception as exc:  # a hostile schema can break the meta-validator itself
        return (("", f"schema could not be checked: {exc}"),)
    return ()
