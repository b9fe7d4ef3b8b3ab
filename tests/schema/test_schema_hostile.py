"""Hostile schemas: huge, deep, cyclic, wrongly typed. The engine answers quickly and never raises."""

from __future__ import annotations

import time
from typing import Any

import pytest

from inspector.schema import Kind, build, validate


def timed(schema: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    model = build(schema)
    state = model.new_state()
    arguments = state.to_arguments()
    state.load_arguments(arguments)
    validate(schema, arguments)
    return model, time.perf_counter() - started


def test_ten_thousand_properties() -> None:
    schema = {
        "type": "object",
        "properties": {f"p{i}": {"type": "string"} for i in range(10_000)},
        "required": [f"p{i}" for i in range(0, 10_000, 2)],
    }
    model, seconds = timed(schema)
    assert model.fallback_reason is None and len(model.root.properties()) == 10_000
    assert seconds < 3  # check_schema is skipped at this size (it would take seconds)


def test_five_hundred_deep_nesting() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(500):
        schema = {"type": "object", "properties": {"x": schema}, "required": ["x"]}
    model, seconds = timed(schema)
    assert seconds < 5
    spec = model.root
    for _ in range(100):  # walk down until the form gives up and shows JSON
        if spec.kind is not Kind.OBJECT:
            break
        spec = spec.properties()[0]
    assert spec.kind is Kind.ANY and spec.fallback_reason


def test_ref_cycles() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}, "self": {"$ref": "#"}},
        "required": ["a", "self"],
        "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
    }
    model, _ = timed(schema)
    assert model.root.property("a").fallback_reason  # type: ignore[union-attr]
    assert model.root.property("self").kind is Kind.OBJECT  # type: ignore[union-attr]


def test_required_recursion_does_not_prefill_forever() -> None:
    schema = {
        "$ref": "#/$defs/N",
        "$defs": {"N": {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"]}},
    }
    model, _ = timed(schema)
    arguments = model.new_state().to_arguments()
    assert arguments == {}  # the recursive child is not invented; validation asks for it
    assert [i.path for i in validate(schema, arguments)] == [("n",)]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": 5},
        {"type": "object", "required": "x", "properties": {"x": {"type": "string"}}},
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/nope"}}},
        {"type": "object", "properties": {"a": {"$ref": "#/properties/a"}}},
        {"type": "object", "properties": {"a": {"type": ["string", 5]}}},
        {"type": "object", "properties": {"a": {"enum": "abc"}}},
        {"type": "object", "properties": {"a": {"items": {"items": {"items": 7}}}}},
        {"type": "object", "properties": {"a": {"oneOf": "x"}}},
        {"type": "object", "properties": {"a": {"allOf": [{"$ref": "#"}]}}},
        {"type": "object", "properties": {"a": {"pattern": "(unclosed", "type": "string"}}},
        {"properties": {"a": {"additionalProperties": {"$ref": "#/nope"}}}, "additionalProperties": 3},
        {"$defs": {"x": {"$ref": "#/$defs/x"}}, "$ref": "#/$defs/x"},
        {"type": ["object", "array", "string"]},
        {"$schema": 5, "type": "object"},
        {"$schema": "https://example.com/unknown", "type": "object"},
        True,
        False,
        {},
    ],
)
def test_wrong_types_everywhere(schema: Any) -> None:
    model, seconds = timed(schema)
    assert seconds < 2
    assert model.root is not None


def test_huge_enum() -> None:
    values: list[Any] = [*range(50_000), *(f"v{i}" for i in range(50_000)), None, {"a": 1}]
    schema = {"type": "object", "properties": {"e": {"enum": values}}, "required": ["e"]}
    model, seconds = timed(schema)
    spec = model.root.property("e")
    assert spec is not None and len(spec.enum) == len(values) and seconds < 5


def test_huge_values_load() -> None:
    schema = {"type": "object", "properties": {"rows": {"type": "array", "items": {"type": "integer"}}}}
    state = build(schema).new_state()
    assert state.load_arguments({"rows": list(range(100_000))}) == []
    deep: Any = 0
    for _ in range(5000):
        deep = [deep]
    problems = state.load_arguments({"rows": [1], "extra": deep})
    assert all(isinstance(p.message, str) for p in problems)


def test_recursive_tuples_and_unions_are_not_prefilled_forever() -> None:
    for node in (
        {"type": "array", "prefixItems": [{"$ref": "#/$defs/N"}, {"type": "integer"}]},
        {"oneOf": [{"$ref": "#/$defs/N"}, {"type": "array", "items": {"$ref": "#/$defs/N"}}]},
        {"oneOf": [{"$ref": "#/$defs/N"}, {"$ref": "#/$defs/N"}, {"type": "null"}]},
    ):
        schema = {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"], "$defs": {"N": node}}
        model, seconds = timed(schema)
        state = model.new_state()
        arguments = state.to_arguments()
        assert state.load_arguments(arguments) == [] and state.to_arguments() == arguments and seconds < 2
        assert state.load_arguments({"n": None}) is not None
