"""The form model of 2020-12 schemas: every keyword is shown by a widget, named as a rule the validator
checks, or falls back to raw JSON for its part with the reason; never dropped silently."""

from __future__ import annotations

import json

from inspector.schema import Kind, build
from inspector.schema.constraints import checked_note
from tests.schema.schema_server import FOCAL, LOOKUP, TOUR

FOCAL_SCHEMA = json.loads(FOCAL)


def test_the_suites_focal_schema_renders_as_a_form() -> None:
    model = build(FOCAL_SCHEMA)
    assert model.fallback_reason is None
    root = model.root
    assert root.kind is Kind.OBJECT
    assert [p.name for p in root.properties()] == ["name", "address", "contactMethod", "phone", "email"]
    address = root.property("address")
    assert address is not None and address.kind is Kind.OBJECT and address.ref == "#/$defs/address"
    assert [p.name for p in address.properties()] == ["street", "city"]
    assert root.property("contactMethod").enum == ("phone", "email")  # type: ignore[union-attr]
    assert root.constraints == ("if/then/else", "anyOf")  # allOf's anyOf of required lists, merged
    assert root.extra_spec("other") is None  # additionalProperties: false
    assert "if/then/else" in checked_note(root.constraints)


def test_an_anchor_ref_resolves_locally() -> None:
    schema = {**FOCAL_SCHEMA, "properties": {"home": {"$ref": "#addressDef"}}}
    del schema["if"], schema["then"], schema["else"], schema["allOf"]
    home = build(schema).root.property("home")
    assert home is not None and home.kind is Kind.OBJECT
    assert [p.name for p in home.properties()] == ["street", "city"]


def test_a_remote_ref_is_shown_unresolved_with_a_note() -> None:
    schema = json.loads(LOOKUP.replace("CANARY", "https://example.com/profile.json"))
    model = build(schema)
    assert model.fallback_reason is None
    ident, profile = model.root.property("id"), model.root.property("profile")
    assert ident is not None and ident.kind is Kind.STRING and ident.pattern == "^[a-z0-9-]+$"
    assert profile is not None and profile.kind is Kind.ANY
    assert profile.fallback_reason == "remote $ref 'https://example.com/profile.json' is not fetched"


def test_every_keyword_of_the_tour_is_shown_named_or_fallen_back() -> None:
    root = build(json.loads(TOUR)).root
    assert root.constraints == ("dependentRequired", "dependentSchemas")
    assert root.extra_spec("surprise") is None  # unevaluatedProperties: false
    point = root.property("point")
    assert point is not None and [s.kind for s in point.prefix()] == [Kind.NUMBER, Kind.NUMBER]
    assert point.items() is None  # items: false after the prefix
    mode = root.property("mode")
    assert mode is not None and mode.kind is Kind.CONST and mode.const == "fast"
    tags = root.property("tags")
    assert tags is not None and tags.constraints == ("uniqueItems", "contains")
    assert tags.items().kind is Kind.STRING and tags.items().min_length == 1  # type: ignore[union-attr]  # "#tag"
    meta = root.property("meta")
    assert meta is not None and meta.kind is Kind.MAP and meta.constraints == ("propertyNames", "minProperties")
    chain = root.property("chain")
    assert chain is not None and chain.kind is Kind.OBJECT
    assert "$dynamicRef" in (chain.property("next").fallback_reason or "")  # type: ignore[union-attr]
    assert "`not`" in (root.property("size").fallback_reason or "")  # type: ignore[union-attr]


def test_rules_that_add_fields_still_fall_back() -> None:
    adds = {
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "if": {"properties": {"kind": {"const": "x"}}},
        "then": {"properties": {"extra": {"type": "string"}}, "required": ["extra"]},
    }
    model = build(adds)
    assert model.fallback_reason is not None and "if/then/else" in model.fallback_reason
    variants = {"type": "object", "properties": {"a": {"type": "string"}}, "oneOf": [{"required": ["a"]}, {}]}
    root = build(variants).root
    assert root.kind is Kind.OBJECT and root.constraints == ("oneOf",)
    union = {"type": "object", "oneOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {}}}]}
    assert build(union).root.kind is Kind.UNION
