"""Checking a big tool list does not run jsonschema's meta-validation once per tool (issue 21, point 4)."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema.exceptions import SchemaError
from jsonschema.validators import Draft7Validator, Draft202012Validator

from inspector.core.findings import check_tools
from inspector.core.schema_check import plainly_valid


def tool(index: int, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return factories.tool(
        f"tool_{index}",
        description=None,
        input_schema=schema
        or {
            "type": "object",
            "properties": {
                f"q{index}": {"type": "string", "minLength": 1, "pattern": "^[a-z]+$"},
                "n": {"type": ["integer", "null"], "minimum": 0, "maximum": 10 + index},
                "mode": {"enum": ["a", "b"], "default": "a"},
                "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
            },
            "required": [f"q{index}"],
            "$defs": {"Item": {"type": "object", "additionalProperties": False}},
        },
    )


@pytest.fixture
def meta_checks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every call of jsonschema's `check_schema` (the 2 ms meta-validation) made meanwhile, either draft."""
    calls: list[Any] = []
    for validator in (Draft202012Validator, Draft7Validator):
        original = validator.check_schema.__func__  # type: ignore[attr-defined]

        def counted(cls: type, schema: Any, *args: Any, _original: Any = original, **kwargs: Any) -> None:
            calls.append(schema)
            _original(cls, schema, *args, **kwargs)

        monkeypatch.setattr(validator, "check_schema", classmethod(counted))
    return calls


def test_distinct_valid_schemas_skip_the_meta_validation(meta_checks: list[Any]) -> None:
    assert check_tools([tool(i) for i in range(300)]) == []
    assert meta_checks == []


def test_identical_invalid_schemas_are_validated_once(meta_checks: list[Any]) -> None:
    broken = {"type": "object", "properties": {"x": {"type": "strnig"}}}
    findings = check_tools([tool(i, {**broken}) for i in range(200)])
    assert len(findings) == 200
    assert [f.path for f in findings[:2]] == [f"$.tools[{i}].inputSchema.properties.x.type" for i in (0, 1)]
    assert all(f.message.startswith("invalid JSON Schema") for f in findings)
    assert len(meta_checks) == 1


def test_an_unusual_schema_still_gets_the_full_check(meta_checks: list[Any]) -> None:
    findings = check_tools([tool(0, {"type": "object", "x-custom": 1, "minLength": -1})])
    assert [f.path for f in findings] == ["$.tools[0].inputSchema.minLength"]
    assert check_tools([tool(1, {"type": "object", "$id": "urn:x", "properties": {}})]) == []
    assert len(meta_checks) == 2


def test_keywords_of_no_vocabulary_need_no_full_check(meta_checks: list[Any]) -> None:
    schemas = [{"type": "object", "x-mcp-header": f"h{i}", "properties": {"a": {"x-order": i}}} for i in range(50)]
    assert check_tools([tool(i, schema) for i, schema in enumerate(schemas)]) == []
    assert meta_checks == []


DRAFT_07 = "http://json-schema.org/draft-07/schema#"
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def zod_schema(index: int) -> dict[str, Any]:
    """A tool schema as the TypeScript SDK writes it (zod-to-json-schema: draft-07, as server-everything's)."""
    return {
        "$schema": DRAFT_07,
        "type": "object",
        "properties": {
            f"q{index}": {"type": "string", "description": "what to look for", "minLength": 1},
            "n": {"type": "number", "exclusiveMinimum": 0, "default": 3},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 4},
            "where": {"anyOf": [{"type": "string"}, {"$ref": "#/definitions/Place"}]},
        },
        "required": [f"q{index}"],
        "additionalProperties": False,
        "definitions": {"Place": {"type": "object", "properties": {"x": {"type": "number"}}}},
    }


def test_draft_07_schemas_skip_the_meta_validation(meta_checks: list[Any]) -> None:
    """The TypeScript SDK's schemas declare draft-07: each distinct one cost a 2 ms meta-validation."""
    assert check_tools([tool(i, zod_schema(i)) for i in range(300)]) == []
    assert check_tools([tool(0, {**zod_schema(0), "$schema": DRAFT_07.rstrip("#")})]) == []
    assert meta_checks == []


def test_either_spelling_of_the_2020_12_uri_skips_the_meta_validation(meta_checks: list[Any]) -> None:
    for uri in ("https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#"):
        assert check_tools([tool(0, {"$schema": uri, "type": "object", "properties": {"a": {"type": "string"}}})]) == []
    assert meta_checks == []


def test_a_draft_07_schema_is_checked_as_draft_07(meta_checks: list[Any]) -> None:
    # additionalItems is no 2020-12 keyword (any value passes) but a schema in draft-07
    findings = check_tools([tool(0, {"$schema": DRAFT_07, "type": "object", "additionalItems": 5})])
    assert [f.path for f in findings] == ["$.tools[0].inputSchema.additionalItems"]
    assert check_tools([tool(1, {"type": "object", "additionalItems": 5})]) == []
    assert len(meta_checks) == 1


def test_a_bad_regex_is_not_plainly_valid() -> None:
    assert not plainly_valid({"type": "string", "pattern": "("})
    assert not plainly_valid({"patternProperties": {"(": {}}})


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(-2, 2, allow_nan=False), st.text(max_size=3)
)
_keys = st.sampled_from(
    [
        "type",
        "required",
        "enum",
        "minimum",
        "minLength",
        "multipleOf",
        "uniqueItems",
        "pattern",
        "$ref",
        "$schema",
        "items",
        "not",
        "properties",
        "anyOf",
        "prefixItems",
        "additionalItems",
        "definitions",
        "dependencies",
        "readOnly",
        "writeOnly",
        "patternProperties",
        "dependentRequired",
        "description",
        "format",
        "x-other",
    ]
)
_values = st.one_of(
    _scalars,
    st.sampled_from(
        ["string", "object", "strnig", "#/$defs/A", "http://x", "(", "^a$", "integer", DRAFT_07, DRAFT_07[:-1]]
    ),
    st.lists(st.one_of(_scalars, st.sampled_from(["string", "null", "a"])), max_size=3),
)
_schemas = st.recursive(
    st.dictionaries(_keys, _values, max_size=4) | st.booleans(),
    lambda inner: st.dictionaries(
        _keys,
        st.one_of(inner, st.dictionaries(st.text(max_size=2), inner, max_size=2), st.lists(inner, max_size=2)),
        max_size=4,
    ),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(_schemas)
def test_plainly_valid_never_accepts_what_the_meta_schema_rejects(schema: Any) -> None:
    if plainly_valid(schema):
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as exc:
            pytest.fail(f"plainly_valid accepted {schema!r}: {exc.message}")


@settings(max_examples=400, deadline=None)
@given(_schemas, st.sampled_from([DRAFT_07, DRAFT_07.rstrip("#"), DRAFT_2020_12 + "#"]))
def test_plainly_valid_never_accepts_what_the_named_meta_schema_rejects(schema: Any, uri: str) -> None:
    if isinstance(schema, dict):
        schema = {**schema, "$schema": uri}
    if plainly_valid(schema):
        try:
            (Draft7Validator if "draft-07" in uri else Draft202012Validator).check_schema(schema)
        except SchemaError as exc:
            pytest.fail(f"plainly_valid accepted {schema!r}: {exc.message}")


def test_an_oversized_embedded_icon_is_a_warning_not_a_decode() -> None:
    src = "data:image/png;base64," + "A" * 3_000_000
    findings = check_tools([{**tool(0), "icons": [{"src": "data:image/png;base64,AAAA"}, {"src": src}]}])
    assert [(f.path, f.severity) for f in findings] == [("$.tools[0].icons[1].src", "warning")]
    assert "3.0 MB" in findings[0].message and "not shown" in findings[0].message
