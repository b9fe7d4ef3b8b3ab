"""The demo's `schedule_meeting` form: nested objects, array rows, a discriminated union, nulls, dates."""

from __future__ import annotations

from PySide6.QtCore import QDate, QDateTime, Qt, QTime
from test_form_support import MEETING, make_form, pick, row, type_text

from inspector.schema import validate
from inspector.ui.form.containers import ArrayEditor, UnionEditor
from inspector.ui.form.special import DateTimeEditor

ARTIFACTS = __import__("pathlib").Path(__file__).resolve().parents[2] / "artifacts"


def fill_meeting(qtbot, form) -> None:  # type: ignore[no-untyped-def]
    type_text(qtbot, form, ("title",), "Quarterly planning")
    day = row(form, "day").editor
    assert isinstance(day, DateTimeEditor)
    qtbot.mouseClick(day.send, Qt.MouseButton.LeftButton)
    day.edit.setDate(QDate(2025, 6, 2))
    start = row(form, "starts_at").editor
    assert isinstance(start, DateTimeEditor)
    start.edit.setDateTime(QDateTime(QDate(2025, 6, 2), QTime(10, 30)))
    type_text(qtbot, form, ("organizer", "name"), "Ada Lovelace")
    type_text(qtbot, form, ("organizer", "email"), "ada@example.com")
    location = row(form, "location").editor
    assert isinstance(location, UnionEditor)
    pick(location.picker, 1)
    type_text(qtbot, form, ("location", "url"), "https://meet.example.com/q3")


def test_fill_nested_form_and_validate(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    fill_meeting(qtbot, form)
    args = form.arguments()
    assert args["title"] == "Quarterly planning" and args["day"] == "2025-06-02"
    assert args["starts_at"].startswith("2025-06-02T10:30:00")
    assert args["organizer"] == {"name": "Ada Lovelace", "email": "ada@example.com"}
    assert args["location"] == {"kind": "online", "url": "https://meet.example.com/q3"}
    assert set(args) == {"title", "day", "starts_at", "organizer", "location"}  # no defaults sent
    assert form.validate() == [] and validate(MEETING, args) == []


def test_array_of_objects_rows(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    attendees = row(form, "attendees")
    attendees.set_expanded(True)
    editor = attendees.editor
    assert isinstance(editor, ArrayEditor)
    for _ in range(3):
        qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        type_text(qtbot, form, ("attendees", i, "name"), name)
        type_text(qtbot, form, ("attendees", i, "email"), f"{name.lower()}@example.com")
    names = lambda: [p["name"] for p in form.arguments()["attendees"]]  # noqa: E731
    assert names() == ["Ann", "Bob", "Cy"]
    editor.rows[0].move_buttons[1].click()  # Ann down
    assert names() == ["Bob", "Ann", "Cy"]
    editor.rows[2].move_buttons[0].click()  # Cy up
    assert names() == ["Bob", "Cy", "Ann"]
    editor.rows[1].move_buttons[2].click()  # remove Cy
    assert names() == ["Bob", "Ann"]
    assert [r.header.text() for r in editor.rows] == ["#1 Person", "#2 Person"]
    assert not editor.rows[0].move_buttons[0].isEnabled() and not editor.rows[1].move_buttons[1].isEnabled()
    optional = row(form, "attendees", 1, "optional").editor
    optional.check.click()  # type: ignore[union-attr]
    assert form.arguments()["attendees"][1] == {"name": "Ann", "email": "ann@example.com", "optional": True}


def test_union_switch_keeps_each_variant(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    location = row(form, "location").editor
    assert isinstance(location, UnionEditor)
    type_text(qtbot, form, ("location", "room"), "4.01")
    assert form.arguments()["location"] == {"kind": "in_person", "room": "4.01"}
    pick(location.picker, 1)
    assert form.arguments()["location"] == {"kind": "online"}
    assert "A video call." in location.about.text()
    pick(location.picker, 0)
    assert form.arguments()["location"] == {"kind": "in_person", "room": "4.01"}
    floor = row(form, "location", "floor")
    assert floor.null_box is not None
    floor.null_box.click()
    assert form.arguments()["location"]["floor"] is None


def test_null_toggle_and_defaults(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    notes = row(form, "notes")
    assert "not set (default: null)" in notes.status
    notes.null_box.click()  # type: ignore[union-attr]
    assert form.arguments()["notes"] is None and not notes.editor.isEnabled()  # type: ignore[union-attr]
    notes.null_box.click()  # type: ignore[union-attr]
    type_text(qtbot, form, ("notes",), "bring snacks")
    assert form.arguments()["notes"] == "bring snacks"
    notes.clear_button.click()  # type: ignore[union-attr]
    assert "notes" not in form.arguments()
    duration = row(form, "duration_minutes")
    assert duration.editor.edit.placeholderText() == "default: 30"  # type: ignore[union-attr]
    type_text(qtbot, form, ("duration_minutes",), "7")
    assert form.arguments()["duration_minutes"] == 7 and "multiple of 5" in duration.errors()
    priority = row(form, "priority").editor
    pick(priority.combo, 3)  # type: ignore[union-attr]
    reminder = row(form, "reminder").editor
    pick(reminder.combo, 4)  # type: ignore[union-attr]
    assert (form.arguments()["priority"], form.arguments()["reminder"]) == ("high", 60)


def test_validation_errors_show_at_their_fields(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    type_text(qtbot, form, ("organizer", "email"), "not-an-email")
    issues = form.validate()
    assert {i.path for i in issues} >= {("title",), ("organizer", "name"), ("organizer", "email"), ("location", "room")}
    assert row(form, "organizer", "name").errors() == "required"
    assert "does not match" in row(form, "organizer", "email").errors()
    assert row(form, "day").errors() == "required"
    type_text(qtbot, form, ("organizer", "name"), "A")
    assert row(form, "organizer", "name").errors() == ""  # live checks replace it on the next edit


def test_screenshot_of_the_nested_form(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING, (700, 900))
    fill_meeting(qtbot, form)
    attendees = row(form, "attendees")
    attendees.set_expanded(True)
    attendees.editor.add_button.click()  # type: ignore[union-attr]
    type_text(qtbot, form, ("attendees", 0, "name"), "Grace Hopper")
    type_text(qtbot, form, ("attendees", 0, "email"), "grace@example")
    form.validate()
    qtbot.wait(100)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert form.grab().save(str(ARTIFACTS / "form_nested.png"))
    form.view.expand_all()
    qtbot.wait(100)
    whole = form.view
    whole.resize(684, whole.sizeHint().height())
    assert whole.grab().save(str(ARTIFACTS / "form_nested_full.png"))
    form.tabs.setCurrentIndex(1)
    qtbot.wait(50)
    assert form.grab().save(str(ARTIFACTS / "form_nested_json.png"))
