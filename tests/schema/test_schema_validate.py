"""Validation (jsonschema, draft from $schema, formats on, cached) and live per-field checks."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.schema import Kind, build, check_value, schema_findings, validate
from inspector.schema.validate import _compiled

PERSON = {
    "type": "object",
    "properties": {"name": {"type": "string", "minLength": 1}, "email": {"type": "string", "format": "email"}},
    "required": ["name", "email"],
}


def test_issue_paths_point_at_fields() -> None:
    schema = {"type": "object", "properties": {"people": {"type": "array", "items": PERSON}}}
    issues = validate(schema, {"people": [{"name": "a", "email": "a@b"}, {"name": "", "email": "nope"}]})
    assert {(i.path, i.keyword) for i in issues} == {
        (("people", 1, "name"), "minLength"),
        (("people", 1, "email"), "format"),
    }


def test_required_issue_is_placed_at_the_missing_field() -> None:
    issues = validate({"type": "object", "properties": {"p": PERSON}}, {"p": {}})
    assert sorted(i.path for i in issues) == [("p", "email"), ("p", "name")]
    assert all(i.message == "required" for i in issues)


def test_formats_are_checked() -> None:
    schema = {
        "type": "object",
        "properties": {k: {"type": "string", "format": k} for k in ("date", "date-time", "time", "uri", "uuid")},
    }
    bad = dict.fromkeys(schema["properties"], "x")
    assert {i.path[0] for i in validate(schema, bad)} == set(bad)
    good = {
        "date": "2025-01-02",
        "date-time": "2025-01-02T03:04:05Z",
        "time": "03:04:05+02:00",
        "uri": "https://example.com/a",
        "uuid": "12345678-1234-5678-1234-567812345678",
    }
    assert validate(schema, good) == []


def test_discriminated_union_errors_come_from_the_chosen_branch() -> None:
    schema = {
        "type": "object",
        "properties": {
            "loc": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "room"}, "room": {"type": "string", "minLength": 1}},
                        "required": ["kind", "room"],
                    },
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "url"}, "url": {"type": "string", "format": "uri"}},
                        "required": ["kind", "url"],
                    },
                ]
            }
        },
    }
    issues = validate(schema, {"loc": {"kind": "url", "url": "not a uri"}})
    assert [(i.path, i.keyword) for i in issues] == [(("loc", "url"), "format")]


def test_draft_comes_from_dollar_schema() -> None:
    draft4 = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {"n": {"type": "number", "minimum": 1, "exclusiveMinimum": True}},
    }
    assert schema_findings(draft4) == []
    assert [i.path for i in validate(draft4, {"n": 1})] == [("n",)]
    no_draft = {k: v for k, v in draft4.items() if k != "$schema"}  # 2020-12: a boolean is not allowed there
    assert schema_findings(no_draft) and build(no_draft).fallback_reason
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"t": {"type": "array", "items": [{"type": "string"}]}},
    }
    assert [i.path for i in validate(draft7, {"t": [1]})] == [("t", 0)]


def test_compiled_validators_are_cached() -> None:
    schema = {"type": "object", "properties": {"cache_probe": {"type": "integer"}}}
    validate(schema, {})
    before = _compiled.cache_info().hits
    for _ in range(5):
        validate(dict(schema), {"cache_probe": 1})
    assert _compiled.cache_info().hits >= before + 5


def test_invalid_schema_still_gives_a_usable_answer() -> None:
    issues = validate({"type": 5}, {"a": 1})
    assert len(issues) == 1 and issues[0].keyword == "schema"
    assert validate(None, {})[0].keyword == "schema"


def spec(schema: dict[str, Any]):  # type: ignore[no-untyped-def]
    node = build({"type": "object", "properties": {"f": schema}}).root.property("f")
    assert node is not None
    return node


@pytest.mark.parametrize(
    ("schema", "good", "bad", "message"),
    [
        ({"type": "string", "minLength": 2}, "ab", "a", "at least 2"),
        ({"type": "string", "maxLength": 2}, "ab", "abc", "at most 2"),
        ({"type": "string", "pattern": "^[a-z]+$"}, "abc", "ABC", "pattern"),
        ({"type": "string", "format": "email"}, "a@b.c", "ab", "email"),
        ({"type": "string", "format": "date"}, "2025-02-03", "2025-02-30", "date"),
        ({"type": "string", "format": "uuid"}, "12345678-1234-5678-1234-567812345678", "123", "uuid"),
        ({"type": "integer", "minimum": 5}, 5, 4, "≥ 5"),
        ({"type": "integer", "maximum": 5}, 5, 2**70, "≤ 5"),
        ({"type": "number", "exclusiveMinimum": 0}, 0.1, 0, "> 0"),
        ({"type": "number", "exclusiveMaximum": 1}, 0.9, 1, "< 1"),
        ({"type": "integer", "multipleOf": 5}, 2**80 * 5, 7, "multiple of 5"),
        ({"type": "number", "multipleOf": 0.1}, 0.3, 0.35, "multiple of 0.1"),
        ({"type": "integer"}, 3, 3.5, "whole number"),
        ({"enum": [1, "a"]}, "a", "b", "allowed"),
        ({"const": 3}, 3, 4, "must be 3"),
        ({"type": "array", "minItems": 2}, [1, 2], [1], "at least 2"),
    ],
)
def test_live_checks(schema: dict[str, Any], good: Any, bad: Any, message: str) -> None:
    node = spec(schema)
    assert check_value(node, good) is None
    found = check_value(node, bad)
    assert found is not None and message in found


def test_live_check_of_null_depends_on_nullable() -> None:
    assert check_value(spec({"type": ["string", "null"]}), None) is None
    assert check_value(spec({"type": "string"}), None) == "null is not allowed here"
    assert spec({"type": "string"}).kind is Kind.STRING
