"""Property-based tests with our own schema strategies: the engine never raises, and values round-trip."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schema_strategies import JSON_VALUES, broken_schemas, valid_schemas

from inspector.schema import MISSING, FieldSpec, FormModel, Kind, build, check_value, validate
from inspector.schema.values import FormState

FAST = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def walk(spec: FieldSpec, depth: int = 0, budget: list[int] | None = None) -> None:
    """Touch every lazy accessor down to a bounded depth (a recursive schema is infinite)."""
    budget = budget if budget is not None else [400]
    budget[0] -= 1
    if depth > 6 or budget[0] < 0:
        return
    assert isinstance(spec, FieldSpec)
    assert spec.fallback_reason is None or isinstance(spec.fallback_reason, str)
    children = [*spec.properties(), *spec.prefix(), *spec.variants()]
    for extra in (spec.items(), spec.extra_spec(None), spec.extra_spec("x1")):
        if extra is not None:
            children.append(extra)
    for child in children:
        walk(child, depth + 1, budget)


def sample(spec: FieldSpec, depth: int = 0) -> Any:
    """A value of the right shape for a node (not necessarily valid against every constraint)."""
    if depth > 4:
        return MISSING
    kind = spec.kind
    simple = {Kind.STRING: "s", Kind.INTEGER: 3, Kind.NUMBER: 2.5, Kind.BOOLEAN: True, Kind.NULL: None}
    if kind in simple:
        return simple[kind]
    if kind is Kind.ENUM:
        return spec.enum[-1]
    if kind is Kind.CONST:
        return spec.const
    if kind is Kind.ANY:
        return {"any": [1, "two"]}
    if kind is Kind.UNION:
        variants = spec.variants()
        return sample(variants[-1], depth + 1) if variants else MISSING
    if kind is Kind.ARRAY:
        items = [sample(p, depth + 1) for p in spec.prefix()]
        extra = spec.items()
        if extra is not None and (spec.max_items is None or spec.max_items > len(items)):
            items.append(sample(extra, depth + 1))
        return items if all(i is not MISSING for i in items) else MISSING
    out = {}
    for prop in spec.properties():
        value = sample(prop, depth + 1)
        if value is not MISSING:
            out[prop.name] = value
    return out


@FAST
@given(broken_schemas())
def test_never_raises_on_broken_schemas(schema: Any) -> None:
    model = build(schema)
    assert isinstance(model, FormModel)
    walk(model.root)
    state = model.new_state()
    arguments = state.to_arguments()
    state.load_arguments(arguments)
    state.load_arguments({"a": [1, {"b": None}], "kind": "k1"})
    validate(schema, arguments)
    check_value(model.root, arguments)


@FAST
@given(valid_schemas())
def test_valid_schemas_render_and_default_form_round_trips(schema: dict[str, Any]) -> None:
    model = build(schema)
    assert model.fallback_reason is None, (model.fallback_reason, model.findings)
    walk(model.root)
    arguments = model.new_state().to_arguments()
    assert isinstance(arguments, dict)
    again = model.new_state()
    problems = again.load_arguments(arguments)
    assert problems == []
    assert again.to_arguments() == arguments
    validate(schema, arguments)


@FAST
@given(valid_schemas())
def test_filled_form_round_trips_through_json(schema: dict[str, Any]) -> None:
    model = build(schema)
    value = sample(model.root)
    state = FormState(model)
    problems = state.load_arguments(value)
    if not problems:  # ambiguous unions may legitimately re-route a value; then it is reported
        assert state.to_arguments() == value


@FAST
@given(valid_schemas(), JSON_VALUES)
def test_loading_any_json_never_raises(schema: dict[str, Any], value: Any) -> None:
    state = build(schema).new_state()
    problems = state.load_arguments(value)
    assert all(isinstance(p.message, str) for p in problems)
    state.to_arguments()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 60))
def test_deep_nesting_falls_back_below_the_limit(depth: int) -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"x": schema}}
    model = build(schema)
    walk(model.root)
    model.new_state().to_arguments()
