"""Form state ↔ arguments: the defaults policy, editing, loading JSON back, round trips."""

from __future__ import annotations

from typing import Any

from inspector.schema import ArrayState, FormState, ObjectState, UnionState, ValueState, build

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "count": {"type": "integer", "default": 3},
        "mode": {"enum": ["a", "b"], "default": "b"},
        "flag": {"type": "boolean", "default": False},
        "limit": {"type": "integer", "default": 10},
        "note": {"type": ["string", "null"], "default": None},
        "box": {"type": "object", "properties": {"x": {"type": "integer", "default": 1}}, "required": ["x"]},
    },
    "required": ["name", "limit"],
}


def new(schema: dict[str, Any] = SCHEMA) -> FormState:
    return build(schema).new_state()


def value(state: FormState, name: str) -> Any:
    child = state.root.child(name)  # type: ignore[attr-defined]
    assert child is not None
    return child


def test_defaults_are_sent_only_for_required_fields() -> None:
    state = new()
    assert state.to_arguments() == {"limit": 10}


def test_touching_an_optional_field_sends_it_even_at_its_default() -> None:
    state = new()
    value(state, "count").set(3)
    assert state.to_arguments() == {"limit": 10, "count": 3}
    value(state, "count").clear()
    assert state.to_arguments() == {"limit": 10}


def test_optional_object_is_sent_once_a_child_is_edited() -> None:
    state = new()
    box = value(state, "box")
    assert isinstance(box, ObjectState) and not box.is_set()
    box.child("x").set(5)
    assert state.to_arguments() == {"limit": 10, "box": {"x": 5}}


def test_null_toggle_counts_as_set() -> None:
    state = new()
    value(state, "note").set_null(True)
    assert state.to_arguments()["note"] is None
    value(state, "note").set_null(False)
    assert state.to_arguments()["note"] == ""


def test_required_nested_objects_are_prefilled() -> None:
    schema = {
        "type": "object",
        "properties": {
            "o": {
                "type": "object",
                "properties": {"a": {"type": "integer", "default": 2}, "b": {"type": "string"}},
                "required": ["a", "b"],
            }
        },
        "required": ["o"],
    }
    assert new(schema).to_arguments() == {"o": {"a": 2}}


def test_arrays_add_remove_move() -> None:
    schema = {
        "type": "object",
        "properties": {
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"n": {"type": "integer"}, "s": {"type": "string", "default": "d"}},
                    "required": ["n", "s"],
                },
                "maxItems": 3,
            }
        },
    }
    state = new(schema)
    rows = value(state, "items")
    assert isinstance(rows, ArrayState)
    for n in (1, 2, 3):
        row = rows.add()
        assert isinstance(row, ObjectState)
        row.child("n").set(n)
    assert not rows.can_add() and rows.add() is None
    rows.move(2, 0)
    rows.remove(1)
    assert state.to_arguments() == {"items": [{"n": 3, "s": "d"}, {"n": 2, "s": "d"}]}


def test_tuple_slots() -> None:
    schema = {
        "type": "object",
        "properties": {
            "t": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False}
        },
        "required": ["t"],
    }
    state = new(schema)
    slots = value(state, "t")
    assert isinstance(slots, ArrayState) and len(slots.items) == 2 and not slots.can_add()
    slots.items[1].set(7)  # type: ignore[attr-defined]
    assert state.to_arguments() == {"t": ["", 7]}
    problems = state.load_arguments({"t": ["a", 1, "extra"]})
    assert [p.path for p in problems] == [("t", 2)]


def test_union_select_keeps_each_variant() -> None:
    schema = {
        "type": "object",
        "properties": {
            "loc": {
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "room"}, "room": {"type": "string"}},
                        "required": ["kind"],
                    },
                    {
                        "type": "object",
                        "properties": {"kind": {"const": "url"}, "url": {"type": "string"}},
                        "required": ["kind"],
                    },
                ]
            }
        },
        "required": ["loc"],
    }
    state = new(schema)
    loc = value(state, "loc")
    assert isinstance(loc, UnionState) and state.to_arguments() == {"loc": {"kind": "room"}}
    loc.current().child("room").set("R1")  # type: ignore[union-attr]
    loc.select(1)
    loc.current().child("url").set("https://x")  # type: ignore[union-attr]
    assert state.to_arguments() == {"loc": {"kind": "url", "url": "https://x"}}
    loc.select(0)
    assert state.to_arguments() == {"loc": {"kind": "room", "room": "R1"}}
    state.load_arguments({"loc": {"kind": "url", "url": "u"}})
    assert loc.index == 1


def test_union_without_discriminator_picks_by_validation() -> None:
    schema = {
        "type": "object",
        "properties": {"v": {"anyOf": [{"type": "integer", "minimum": 10}, {"type": "integer"}, {"type": "string"}]}},
    }
    state = new(schema)
    state.load_arguments({"v": 3})
    loc = value(state, "v")
    assert loc.index == 1
    state.load_arguments({"v": 30})
    assert loc.index == 0
    state.load_arguments({"v": "s"})
    assert loc.index == 2 and state.to_arguments() == {"v": "s"}


def test_maps_rows() -> None:
    schema = {"type": "object", "properties": {"env": {"type": "object", "additionalProperties": {"type": "string"}}}}
    state = new(schema)
    env = value(state, "env")
    assert isinstance(env, ObjectState)
    entry = env.add_entry("HOME")
    assert entry is not None
    entry.state.set("/root")  # type: ignore[attr-defined]
    env.add_entry("PATH")
    assert state.to_arguments() == {"env": {"HOME": "/root", "PATH": ""}}
    env.rename_entry(1, "HOME")
    assert env.duplicate_keys() == {"HOME"}
    env.remove_entry(0)
    assert state.to_arguments() == {"env": {"HOME": ""}}


def test_load_keeps_allowed_extra_keys_and_reports_the_rest() -> None:
    open_schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    state = new(open_schema)
    assert state.load_arguments({"a": 1, "extra": [1, 2]}) == []
    assert state.to_arguments() == {"a": 1, "extra": [1, 2]}
    closed = new({**open_schema, "additionalProperties": False})
    problems = closed.load_arguments({"a": 1, "extra": 2})
    assert [(p.path, p.keyword) for p in problems] == [(("extra",), "extra")]
    assert closed.to_arguments() == {"a": 1}


def test_load_reports_type_mismatches() -> None:
    state = new()
    problems = state.load_arguments({"name": 5, "limit": "ten", "mode": "c", "box": []})
    assert sorted(p.path for p in problems) == [("box",), ("limit",), ("mode",), ("name",)]
    assert state.to_arguments() == {}


def test_load_is_exact_and_round_trips() -> None:
    state = new()
    arguments = {"name": "n", "count": 2**80, "flag": True, "note": None, "box": {}, "limit": 1.0}
    assert state.load_arguments(arguments) == []
    assert state.to_arguments() == arguments
    assert state.load_arguments({}) == []
    assert state.to_arguments() == {}  # absent required keys are not re-filled from defaults


def test_enum_keeps_typed_values() -> None:
    schema = {"type": "object", "properties": {"e": {"enum": [1, "1", True, None, {"a": [1]}]}}}
    state = new(schema)
    for v in (1, "1", True, None, {"a": [1]}):
        assert state.load_arguments({"e": v}) == []
        out = state.to_arguments()["e"]
        assert out == v and type(out) is type(v)
    assert state.load_arguments({"e": 1.0}) == []  # JSON equality: 1.0 is the enum's 1
    assert state.load_arguments({"e": False})


def test_any_and_const() -> None:
    schema = {"type": "object", "properties": {"raw": {}, "c": {"const": {"v": 1}}}, "required": ["c"]}
    state = new(schema)
    assert state.to_arguments() == {"c": {"v": 1}}
    raw = value(state, "raw")
    assert isinstance(raw, ValueState)
    raw.set([1, {"x": None}])
    assert state.to_arguments()["raw"] == [1, {"x": None}]


def test_find_follows_paths_through_unions() -> None:
    schema = {
        "type": "object",
        "properties": {
            "u": {"anyOf": [{"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}}}}]}
        },
    }
    state = new(schema)
    state.load_arguments({"u": {"l": ["a", "b"]}})
    found = state.find(("u", "l", 1))
    assert isinstance(found, ValueState) and found.value() == "b" and found.path() == ("u", "l", 1)
    assert state.find(("u", "zz", 0)) is None
