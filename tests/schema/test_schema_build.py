"""Schema → field-spec tree, construct by construct."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.schema import MISSING, FieldSpec, Kind, build


def root(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


def field(schema: dict[str, Any], name: str = "f", **extra: Any) -> FieldSpec:
    model = build(root({name: schema}, **extra))
    assert model.fallback_reason is None, model.findings
    spec = model.root.property(name)
    assert spec is not None
    return spec


def test_strings_with_formats_and_limits() -> None:
    for fmt in ("date", "date-time", "time", "email", "uri", "uuid"):
        spec = field({"type": "string", "format": fmt})
        assert (spec.kind, spec.format) == (Kind.STRING, fmt)
    spec = field({"type": "string", "pattern": "^a", "minLength": 1, "maxLength": 5})
    assert (spec.pattern, spec.min_length, spec.max_length) == ("^a", 1, 5)


def test_numbers_keep_their_bounds() -> None:
    spec = field({"type": "integer", "minimum": 5, "maximum": 480, "multipleOf": 5, "exclusiveMaximum": 481})
    assert (spec.kind, spec.minimum, spec.maximum, spec.multiple_of, spec.exclusive_maximum) == (
        Kind.INTEGER,
        5,
        480,
        5,
        481,
    )
    assert field({"type": "number"}).kind is Kind.NUMBER


def test_draft4_boolean_exclusive_bounds() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        **root({"n": {"type": "number", "minimum": 1, "exclusiveMinimum": True}}),
    }
    spec = build(schema).root.property("n")
    assert spec is not None and (spec.minimum, spec.exclusive_minimum) == (None, 1)


def test_enum_of_any_json_types() -> None:
    values = [1, "1", True, None, {"a": 1}, [1, 2], 2.5]
    spec = field({"enum": values})
    assert spec.kind is Kind.ENUM and list(spec.enum) == values


def test_const_boolean_null() -> None:
    assert field({"const": "x"}).const == "x"
    assert field({"type": "boolean"}).kind is Kind.BOOLEAN
    assert field({"type": "null"}).kind is Kind.NULL


def test_annotations() -> None:
    spec = field(
        {
            "type": "string",
            "title": "T",
            "description": "D",
            "default": "x",
            "readOnly": True,
            "deprecated": True,
            "examples": ["e1", "e2"],
        },
        required=["f"],
    )
    assert (spec.title, spec.description, spec.default, spec.read_only, spec.deprecated) == ("T", "D", "x", True, True)
    assert spec.examples == ("e1", "e2") and spec.required and spec.label == "f"


def test_nested_objects_mark_required() -> None:
    spec = field(
        {
            "type": "object",
            "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}},
            "required": ["a"],
        }
    )
    a = spec.property("a")
    assert a is not None and a.required and a.kind is Kind.OBJECT
    b = a.property("b")
    assert b is not None and b.required and b.depth == 3


def test_arrays_items_and_tuples() -> None:
    spec = field({"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3})
    assert spec.kind is Kind.ARRAY and spec.items().kind is Kind.INTEGER and (spec.min_items, spec.max_items) == (1, 3)
    spec = field({"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": False})
    assert [p.kind for p in spec.prefix()] == [Kind.STRING, Kind.NUMBER] and spec.items() is None
    spec = field({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "boolean"}})
    assert spec.items().kind is Kind.BOOLEAN
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        **root({"t": {"type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}}}),
    }
    spec = build(draft7).root.property("t")
    assert spec is not None and [p.kind for p in spec.prefix()] == [Kind.STRING] and spec.items().kind is Kind.INTEGER


def test_array_without_items_has_raw_rows() -> None:
    assert field({"type": "array"}).items().kind is Kind.ANY


def test_discriminated_union_by_const() -> None:
    spec = field(
        {
            "oneOf": [
                {
                    "type": "object",
                    "title": "Cat",
                    "properties": {"pet": {"const": "cat"}, "lives": {"type": "integer"}},
                },
                {"type": "object", "properties": {"pet": {"const": "dog"}, "good": {"type": "boolean"}}},
            ]
        }
    )
    assert spec.kind is Kind.UNION and spec.discriminator == "pet"
    assert spec.variant_consts == ("cat", "dog") and spec.variant_labels == ("Cat", "dog")
    assert [v.property("lives") is not None for v in spec.variants()] == [True, False]


def test_pydantic_discriminator_keyword_and_mapping() -> None:
    schema = root(
        {
            "pet": {
                "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
                "discriminator": {"propertyName": "kind", "mapping": {"c": "#/$defs/Cat", "d": "#/$defs/Dog"}},
            }
        },
        **{
            "$defs": {
                "Cat": {"type": "object", "properties": {"kind": {"const": "c"}}},
                "Dog": {"type": "object", "properties": {"kind": {"type": "string"}}},
            }
        },
    )
    spec = build(schema).root.property("pet")
    assert spec is not None and spec.discriminator == "kind" and spec.variant_consts == ("c", "d")
    assert spec.variant_labels == ("c", "d")


def test_union_labels_fall_back_to_types() -> None:
    spec = field({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "integer"}}, {"type": "object"}]})
    assert spec.variant_labels == ("string", "array of integer", "object") and spec.discriminator is None
    spec = field({"type": ["string", "integer"]})
    assert spec.kind is Kind.UNION and spec.variant_labels == ("string", "integer")


@pytest.mark.parametrize(
    "schema",
    [
        {"anyOf": [{"type": "string"}, {"type": "null"}]},
        {"oneOf": [{"type": "null"}, {"type": "string"}]},
        {"type": ["string", "null"]},
    ],
)
def test_nullable_is_the_inner_node_with_a_null_toggle(schema: dict[str, Any]) -> None:
    spec = field({**schema, "description": "outer"})
    assert (spec.kind, spec.nullable, spec.description) == (Kind.STRING, True, "outer")


def test_nullable_ref_keeps_outer_annotations() -> None:
    spec = field(
        {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}], "title": "Outer", "default": None},
        **{"$defs": {"P": {"type": "object", "title": "P", "properties": {"x": {"type": "integer"}}}}},
    )
    assert (spec.kind, spec.nullable, spec.title, spec.default) == (Kind.OBJECT, True, "Outer", None)


def test_all_of_merges_and_conflicts_fall_back() -> None:
    spec = field(
        {
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "integer"}}, "required": ["b"]},
            ]
        }
    )
    assert [p.name for p in spec.properties()] == ["a", "b"] and set(spec.required_names) == {"a", "b"}
    spec = field({"allOf": [{"type": "string"}, {"type": "integer"}]})
    assert spec.kind is Kind.ANY and "no common type" in (spec.fallback_reason or "")


def test_maps() -> None:
    spec = field({"type": "object", "additionalProperties": {"type": "integer"}})
    assert spec.kind is Kind.MAP and spec.extra_spec("any").kind is Kind.INTEGER
    spec = field({"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False})
    assert spec.kind is Kind.MAP and spec.extra_spec("x-a").kind is Kind.STRING and spec.extra_spec("y") is None
    spec = field(
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "number"}}
    )
    assert spec.kind is Kind.OBJECT and spec.has_extra_schema() and spec.extra_spec("z").kind is Kind.NUMBER
    assert field({"type": "object"}).kind is Kind.MAP
    assert field({"type": "object", "properties": {}}).kind is Kind.OBJECT


def test_refs_defs_definitions_and_pointers() -> None:
    schema = root(
        {
            "a": {"$ref": "#/$defs/A"},
            "b": {"$ref": "#/definitions/B"},
            "c": {"$ref": "#/properties/a"},
            "d": {"$ref": "#/$defs/A~1x"},
            "e": {"$ref": "#anchor"},
        },
        **{
            "$defs": {
                "A": {"type": "integer"},
                "A/x": {"type": "boolean"},
                "E": {"$anchor": "anchor", "type": "string"},
            },
            "definitions": {"B": {"type": "number"}},
        },
    )
    model = build(schema)
    kinds = [p.kind for p in model.root.properties()]
    assert kinds == [Kind.INTEGER, Kind.NUMBER, Kind.INTEGER, Kind.BOOLEAN, Kind.STRING]


def test_recursive_ref_is_lazy() -> None:
    schema = root(
        {"tree": {"$ref": "#/$defs/Node"}},
        **{
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                        "parent": {"$ref": "#/$defs/Node"},
                    },
                }
            }
        },
    )
    spec = build(schema).root.property("tree")
    for _ in range(25):  # as deep as the user opens it (50 levels)
        assert spec is not None and spec.kind is Kind.OBJECT
        spec = spec.property("children").items()
    assert spec is not None and spec.recursive


def test_any_values() -> None:
    for schema in ({}, True, {"description": "anything"}):
        spec = build(root({"f": schema})).root.property("f")
        assert spec is not None and spec.kind is Kind.ANY and spec.fallback_reason is None


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ({"not": {"type": "string"}}, "`not`"),
        ({"if": {"type": "string"}, "then": {"minLength": 2}}, "if/then/else"),
        ({"dependentSchemas": {"a": {"required": ["b"]}}}, "dependentSchemas"),
        ({"$ref": "https://example.com/x.json"}, "remote $ref"),
        ({"$ref": "#/$defs/Missing"}, "not found"),
        ({"oneOf": [{"type": "string"}], "anyOf": [{"type": "integer"}]}, "both oneOf and anyOf"),
    ],
)
def test_unrenderable_parts_fall_back_alone(schema: dict[str, Any], reason: str) -> None:
    model = build(root({"bad": schema, "good": {"type": "string"}}))
    assert model.fallback_reason is None
    bad, good = model.root.property("bad"), model.root.property("good")
    assert bad is not None and bad.kind is Kind.ANY and reason in (bad.fallback_reason or "")
    assert good is not None and good.kind is Kind.STRING


def test_ref_cycle_without_structure_falls_back() -> None:
    schema = root(
        {"loop": {"$ref": "#/$defs/A"}}, **{"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}
    )
    spec = build(schema).root.property("loop")
    assert spec is not None and "circular" in (spec.fallback_reason or "")


def test_invalid_schema_falls_back_whole_with_findings() -> None:
    model = build({"type": "object", "properties": {"a": {"type": "strnig"}}})
    assert model.fallback_reason and model.root.kind is Kind.ANY
    assert any("properties/a/type" in f for f in model.findings)


@pytest.mark.parametrize("schema", [None, 5, "x", [1], 1.5])
def test_non_schemas_fall_back(schema: Any) -> None:
    model = build(schema)
    assert model.fallback_reason and model.root.kind is Kind.ANY
    assert model.new_state().to_arguments() == {}


def test_root_of_wrong_kind_falls_back() -> None:
    assert "string" in (build({"type": "string"}).fallback_reason or "")


def test_default_missing_marker() -> None:
    assert field({"type": "string"}).default is MISSING and not MISSING


def test_titled_consts_become_an_enum_with_labels() -> None:
    seating = {"type": "string", "oneOf": [{"const": "in", "title": "Indoor"}, {"const": "bar", "title": "At the bar"}]}
    spec = field(seating)
    assert (spec.kind, spec.enum, spec.enum_labels) == (Kind.ENUM, ("in", "bar"), ("Indoor", "At the bar"))
    untitled = field({"anyOf": [{"const": 1}, {"const": 2, "title": "two"}]})
    assert (untitled.enum, untitled.enum_labels) == ((1, 2), ("1", "two"))
    legacy = field({"type": "string", "enum": ["a", "b"], "enumNames": ["Alpha", "Beta"]})
    assert legacy.enum_labels == ("Alpha", "Beta")
    assert field({"enum": ["a", "b"], "enumNames": ["only one"]}).enum_labels == (), "names must match the values"


def test_a_union_with_more_than_consts_stays_a_union() -> None:
    mixed = field({"oneOf": [{"const": "auto"}, {"type": "integer", "minimum": 1}]})
    assert mixed.kind is Kind.UNION
    with_properties = field({"oneOf": [{"const": "a", "properties": {}}, {"const": "b"}]})
    assert with_properties.kind is Kind.UNION
