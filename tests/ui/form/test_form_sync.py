"""The Form and JSON tabs stay in sync both ways, and the JSON editor is never rewritten while typed in."""

from __future__ import annotations

import json

from test_form_support import MEETING, make_form, row, type_text

from inspector.ui.form.tool_form import DEBOUNCE_MS, FORM_TAB, JSON_TAB


def test_form_edits_rewrite_the_json_text(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    changes = []
    form.changed.connect(lambda: changes.append(1))
    type_text(qtbot, form, ("title",), "Hello")
    assert json.loads(form.json_edit.toPlainText())["title"] == "Hello" and changes


def test_json_edits_update_the_form(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    form.tabs.setCurrentIndex(JSON_TAB)
    text = json.dumps(
        {
            "title": "From JSON",
            "organizer": {"name": "Ann"},
            "location": {"kind": "online", "url": "https://x.example"},
            "attendees": [{"name": "B", "email": "b@x.io"}],
        }
    )
    form.json_edit.selectAll()
    qtbot.keyClicks(form.json_edit, text)
    qtbot.waitUntil(lambda: row(form, "title").editor.edit.text() == "From JSON", timeout=DEBOUNCE_MS * 8)  # type: ignore[union-attr]
    assert row(form, "organizer", "name").editor.edit.text() == "Ann"  # type: ignore[union-attr]
    assert row(form, "location").editor.picker.currentText() == "Online"  # type: ignore[union-attr]
    assert row(form, "location", "url").editor.edit.text() == "https://x.example"  # type: ignore[union-attr]
    assert row(form, "attendees", 0, "email").editor.edit.text() == "b@x.io"  # type: ignore[union-attr]
    assert form.json_edit.toPlainText() == text  # the user's text is kept exactly as typed
    assert form.arguments() == json.loads(text)


def test_typing_in_json_is_never_clobbered(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    form.tabs.setCurrentIndex(JSON_TAB)
    form.json_edit.setFocus()
    form.json_edit.selectAll()
    qtbot.keyClicks(form.json_edit, '{"title": "Half')
    qtbot.wait(DEBOUNCE_MS * 2)  # the debounced parse fails: nothing changes
    assert form.json_edit.toPlainText() == '{"title": "Half'
    assert "Not valid JSON" in form.json_status.text()
    title = row(form, "title").editor
    title.edit.textEdited.emit("Changed elsewhere")  # type: ignore[union-attr]  # a form edit while typing
    assert form.json_edit.toPlainText() == '{"title": "Half'  # waits until the user leaves the editor
    qtbot.keyClicks(form.json_edit, ' typed"}')
    qtbot.wait(DEBOUNCE_MS * 2)
    assert form.json_edit.toPlainText() == '{"title": "Half typed"}'
    assert row(form, "title").editor.edit.text() == "Half typed"  # type: ignore[union-attr]
    form.tabs.setCurrentIndex(FORM_TAB)
    type_text(qtbot, form, ("title",), "Form wins")
    form.tabs.setCurrentIndex(JSON_TAB)
    assert json.loads(form.json_edit.toPlainText())["title"] == "Form wins"


def test_unmappable_json_is_kept_and_sent_as_typed(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    form.tabs.setCurrentIndex(JSON_TAB)
    text = '{"title": 5, "day": "2025-01-01"}'
    form.json_edit.selectAll()
    qtbot.keyClicks(form.json_edit, text)
    qtbot.waitUntil(lambda: "Not shown in the form" in form.json_status.text(), timeout=DEBOUNCE_MS * 8)
    assert form.arguments() == {"title": 5, "day": "2025-01-01"}
    assert row(form, "day").editor.send.isChecked()  # type: ignore[union-attr]
    issues = form.validate()
    assert ("title",) in {i.path for i in issues}
    assert "5 is not of type" in row(form, "title").errors()


def test_set_arguments_from_history(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, MEETING)
    args = {
        "title": "Re-run",
        "day": "2025-02-03",
        "starts_at": "2025-02-03T09:00:00Z",
        "organizer": {"name": "A", "email": "a@b.cd"},
        "location": {"kind": "in_person", "room": "1"},
        "agenda": [{"topic": "x", "minutes": 5}],
        "priority": "low",
        "series_id": None,
    }
    assert form.set_arguments(args) == []
    assert form.arguments() == args and json.loads(form.json_edit.toPlainText()) == args
    assert row(form, "agenda", 0, "minutes").editor.edit.text() == "5"  # type: ignore[union-attr]
    assert row(form, "series_id").null_box.isChecked()  # type: ignore[union-attr]
    assert row(form, "priority").editor.combo.currentText() == "low"  # type: ignore[union-attr]
    assert form.validate() == []
