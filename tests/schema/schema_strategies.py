"""Hypothesis strategies for JSON Schemas: valid ones (with $defs/$ref incl. recursion, unions,
nullables, maps, tuples, allOf) and broken ones (wrong types, missing targets, unsupported keywords)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

DEF_NAMES = ("A", "B", "Node")
NAMES = st.sampled_from(["a", "b", "c", "name", "kind", "x-y", "with space", "ünï", "0", ""])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=6),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)),
    max_leaves=6,
)


def _with_annotations(schema_st: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    extras = st.fixed_dictionaries(
        {},
        optional={
            "title": st.text(max_size=8),
            "description": st.text(max_size=20),
            "readOnly": st.booleans(),
            "deprecated": st.booleans(),
            "examples": st.lists(SCALARS, max_size=2),
        },
    )
    return st.tuples(schema_st, extras).map(lambda pair: {**pair[1], **pair[0]})


STRINGS = st.fixed_dictionaries(
    {"type": st.just("string")},
    optional={
        "format": st.sampled_from(["date", "date-time", "time", "email", "uri", "uuid", "unknown-format"]),
        "minLength": st.integers(0, 3),
        "maxLength": st.integers(3, 10),
        "pattern": st.sampled_from(["^a", "[0-9]+", "x*"]),
        "default": st.text(max_size=4),
    },
)
NUMBERS = st.fixed_dictionaries(
    {"type": st.sampled_from(["integer", "number"])},
    optional={
        "minimum": st.integers(-10, 0),
        "maximum": st.integers(1, 2**40),
        "exclusiveMinimum": st.integers(-20, -11),
        "multipleOf": st.sampled_from([1, 2, 0.5]),
        "default": st.integers(-3, 3),
    },
)
LEAVES = st.one_of(
    _with_annotations(STRINGS),
    _with_annotations(NUMBERS),
    st.fixed_dictionaries({"type": st.just("boolean")}, optional={"default": st.booleans()}),
    st.just({"type": "null"}),
    st.lists(SCALARS, min_size=1, max_size=5).map(lambda values: {"enum": values}),
    JSON_VALUES.map(lambda value: {"const": value}),
    st.sampled_from([{}, True]),
    st.sampled_from([{"$ref": f"#/$defs/{name}"} for name in DEF_NAMES]),
)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    objects = st.builds(
        lambda props, required, addl: {
            "type": "object",
            "properties": props,
            **({"required": [n for n in props if n in required]} if required else {}),
            **addl,
        },
        st.dictionaries(NAMES, children, max_size=4),
        st.sets(NAMES, max_size=3),
        st.sampled_from([{}, {"additionalProperties": False}, {"additionalProperties": True}]),
    )
    return st.one_of(
        objects,
        st.builds(
            lambda item, lo: {"type": "array", "items": item, **lo},
            children,
            st.sampled_from([{}, {"minItems": 1}, {"maxItems": 3}]),
        ),
        st.builds(
            lambda slots, extra: {"type": "array", "prefixItems": slots, **extra},
            st.lists(children, min_size=1, max_size=3),
            st.sampled_from([{}, {"items": False}]),
        ),
        st.lists(children, min_size=2, max_size=3).map(lambda branches: {"oneOf": branches}),
        st.lists(children, min_size=1, max_size=3).map(lambda branches: {"anyOf": branches}),
        children.map(lambda inner: {"anyOf": [inner, {"type": "null"}]}),
        st.sampled_from(["string", "integer", "boolean"]).map(lambda t: {"type": [t, "null"]}),
        st.sampled_from([["string", "integer"], ["number", "boolean", "null"]]).map(lambda t: {"type": t}),
        children.map(lambda inner: {"type": "object", "additionalProperties": inner}),
        children.map(lambda inner: {"type": "object", "patternProperties": {"^x": inner}}),
        st.lists(objects, min_size=1, max_size=2).map(lambda parts: {"allOf": parts}),
        _tagged_union(children),
    )


def _tagged_union(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    def make(bodies: list[Any], pydantic: bool) -> dict[str, Any]:
        variants = [
            {
                "type": "object",
                "title": f"V{i}",
                "properties": {"kind": {"const": f"k{i}"}, "v": body},
                "required": ["kind"],
            }
            for i, body in enumerate(bodies)
        ]
        schema: dict[str, Any] = {"oneOf": variants}
        if pydantic:
            schema["discriminator"] = {"propertyName": "kind"}
        return schema

    return st.builds(make, st.lists(children, min_size=2, max_size=3), st.booleans())


SUBSCHEMAS = st.recursive(LEAVES, _containers, max_leaves=5)
RECURSIVE_NODE = {
    "type": "object",
    "properties": {
        "value": {"type": "integer"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
    },
    "required": ["value"],
}


@st.composite
def valid_schemas(draw: st.DrawFn) -> dict[str, Any]:
    """A tool inputSchema (an object) whose $refs all point into its $defs, some of them recursive."""
    props = draw(st.dictionaries(NAMES, SUBSCHEMAS, max_size=4))
    required = [n for n in props if draw(st.booleans())]
    defs = {
        "A": draw(SUBSCHEMAS),
        "B": draw(LEAVES.filter(lambda s: s != {"$ref": "#/$defs/B"})),
        "Node": RECURSIVE_NODE,
    }
    props, defs = copy.deepcopy(props), copy.deepcopy(defs)  # sampled_from/just hand out shared objects
    if defs["A"] == {"$ref": "#/$defs/A"}:
        defs["A"] = {"type": "string"}
    schema: dict[str, Any] = {"type": "object", "properties": props, "$defs": defs}
    if required:
        schema["required"] = required
    if draw(st.booleans()):
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


BREAKERS: list[tuple[str, Any]] = [
    ("properties", 5),
    ("required", "x"),
    ("type", 7),
    ("type", "nonsense"),
    ("items", "x"),
    ("enum", []),
    ("$ref", "#/$defs/missing"),
    ("$ref", "https://example.com/remote.json"),
    ("$ref", 12),
    ("not", {"type": "string"}),
    ("if", {"type": "string"}),
    ("dependentSchemas", {"a": {"required": ["b"]}}),
    ("allOf", [{"type": "string"}, {"type": "integer"}]),
    ("oneOf", []),
    ("additionalProperties", "x"),
    ("minimum", "low"),
    ("$schema", "http://example.com/unknown-draft"),
    ("prefixItems", {"a": 1}),
    ("anyOf", [True, False]),
]


@st.composite
def broken_schemas(draw: st.DrawFn) -> Any:
    """Valid schemas with a few keywords replaced by junk, or not a schema at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2)))
    schema = copy.deepcopy(draw(valid_schemas()))
    targets = [schema, *schema["properties"].values(), *schema["$defs"].values()]
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(targets))
        if isinstance(target, dict):
            key, value = draw(st.sampled_from(BREAKERS))
            target[key] = value
    return schema
