"""Findings read as sentences: a missing or wrong `type` is said in JSON terms, never as Python's None."""

from __future__ import annotations

from inspector.core.findings import check_schema


def test_a_schema_without_type_says_so() -> None:
    (finding,) = check_schema({"properties": {"q": {"type": "string"}}}, "$.tools[1].inputSchema", require_object=True)
    assert str(finding) == '$.tools[1].inputSchema: the schema has no "type" (expected "type": "object")'


def test_a_wrong_type_is_quoted_as_json() -> None:
    messages = [str(f) for f in check_schema({"type": "array"}, "$.s", require_object=True)]
    assert messages == ['$.s.type: "type" is "array" (expected "object")']
    assert check_schema({"type": None}, "$.s", require_object=True)[0].message == '"type" is null'
