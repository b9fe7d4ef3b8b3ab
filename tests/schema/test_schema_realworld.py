"""Real servers' schemas: the demo's pydantic `schedule_meeting`, server-everything's zod (draft-07) tools.

Fixtures are copies of their `tools/list` output (`python -m inspector --cli --demo --method tools/list`
and `python -m inspector --cli node …/server-everything/dist/index.js --method tools/list`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.schema import Kind, UnionState, build, validate

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MEETING = json.loads((FIXTURES / "demo_schedule_meeting.json").read_text())
EVERYTHING: dict[str, Any] = json.loads((FIXTURES / "everything_tools.json").read_text())
GOOD = {
    "title": "Planning",
    "day": "2025-06-02",
    "starts_at": "2025-06-02T10:00:00+02:00",
    "organizer": {"name": "Ada", "email": "ada@example.com"},
    "location": {"kind": "in_person", "room": "4.01", "floor": None},
    "attendees": [{"name": "Grace", "email": "grace@example.com", "optional": True}],
    "agenda": [{"topic": "Budget", "minutes": 20}, {"topic": "Hiring"}],
    "duration_minutes": 45,
    "priority": "high",
    "reminder": 60,
    "notes": None,
    "series_id": "12345678-1234-5678-1234-567812345678",
}


def test_schedule_meeting_tree() -> None:
    model = build(MEETING)
    assert model.fallback_reason is None
    kinds = {p.name: (p.kind, p.required, p.nullable) for p in model.root.properties()}
    assert kinds["organizer"] == (Kind.OBJECT, True, False)
    assert kinds["location"] == (Kind.UNION, True, False)
    assert kinds["attendees"][0] is Kind.ARRAY and kinds["priority"][0] is Kind.ENUM
    assert kinds["notes"] == (Kind.STRING, False, True) and kinds["series_id"] == (Kind.STRING, False, True)
    location = model.root.property("location")
    assert location is not None and location.discriminator == "kind"
    assert location.variant_labels == ("InPerson", "Online")
    reminder = model.root.property("reminder")
    assert reminder is not None and reminder.enum == (0, 5, 15, 60) and reminder.default == 15


def test_schedule_meeting_defaults_and_round_trip() -> None:
    model = build(MEETING)
    state = model.new_state()
    assert state.to_arguments() == {"organizer": {}, "location": {"kind": "in_person"}}
    assert state.load_arguments(GOOD) == []
    assert state.to_arguments() == GOOD
    assert validate(MEETING, GOOD) == []
    online = {**GOOD, "location": {"kind": "online", "url": "https://meet.example.com/x"}}
    assert state.load_arguments(online) == []
    location = state.root.child("location")  # type: ignore[attr-defined]
    assert isinstance(location, UnionState) and location.index == 1
    assert state.to_arguments() == online


def test_schedule_meeting_validation_paths() -> None:
    bad = {
        **GOOD,
        "organizer": {"name": "", "email": "nope"},
        "duration_minutes": 7,
        "location": {"kind": "online", "url": "not a url"},
        "attendees": [{"name": "x"}],
    }
    found = {(i.path, i.keyword) for i in validate(MEETING, bad)}
    assert found >= {
        (("organizer", "name"), "minLength"),
        (("organizer", "email"), "pattern"),
        (("duration_minutes",), "multipleOf"),
        (("location", "url"), "format"),
        (("attendees", 0, "email"), "required"),
    }


@pytest.mark.parametrize("name", sorted(EVERYTHING))
def test_everything_tools_render(name: str) -> None:
    schema = EVERYTHING[name]
    assert schema.get("$schema", "").startswith("http://json-schema.org/draft-07")
    model = build(schema)
    assert model.fallback_reason is None and model.root.kind is Kind.OBJECT
    state = model.new_state()
    arguments = state.to_arguments()
    assert state.load_arguments(arguments) == [] and state.to_arguments() == arguments
    required = set(schema.get("required", []))
    assert {i.path[0] for i in validate(schema, arguments)} == required - set(arguments)


def test_everything_defaults_are_not_sent() -> None:
    schema = EVERYTHING["trigger-long-running-operation"]
    assert build(schema).new_state().to_arguments() == {}
    annotated = build(EVERYTHING["get-annotated-message"])
    message_type = annotated.root.property("messageType")
    assert message_type is not None and message_type.kind is Kind.ENUM and message_type.required
