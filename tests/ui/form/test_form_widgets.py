"""Form widgets one by one: maps, dates, big integers, enums, booleans, tuples, raw JSON, fallbacks, hostile text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit
from test_form_support import HOSTILE, make_form, pick, row, type_text

from inspector.ui.form.containers import ArrayEditor, EntriesEditor, ObjectEditor
from inspector.ui.form.special import DateTimeEditor, RawEditor


def obj(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


def test_map_rows(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"env": {"type": "object", "additionalProperties": {"type": "integer"}}}))
    env = row(form, "env")
    env.set_expanded(True)
    entries = env.editor.entries  # type: ignore[union-attr]
    assert isinstance(entries, EntriesEditor)
    entries.add_button.click()  # type: ignore[union-attr]
    entries.add_button.click()  # type: ignore[union-attr]
    for i, (key, value) in enumerate([("A", "1"), ("B", "99999999999999999999")]):
        qtbot.keyClicks(entries.rows[i].key_edit, key)  # type: ignore[attr-defined]
        qtbot.keyClicks(entries.rows[i].editor.edit, value)  # type: ignore[union-attr]
    assert form.arguments() == {"env": {"A": 1, "B": 99999999999999999999}}
    qtbot.keyClicks(entries.rows[1].key_edit, "\b")  # type: ignore[attr-defined]
    qtbot.keyClicks(entries.rows[1].key_edit, "A")  # type: ignore[attr-defined]
    assert "duplicate key" in entries.rows[1].errors()
    entries.rows[0].findChildren(type(env.arrow))[-1].click()  # the row's remove button
    assert form.arguments() == {"env": {"A": 99999999999999999999}}


def test_date_fields_can_stay_empty(qtbot) -> None:  # type: ignore[no-untyped-def]
    schema = obj({"d": {"type": "string", "format": "date"}, "t": {"type": "string", "format": "time"}})
    form = make_form(qtbot, schema)
    day = row(form, "d").editor
    assert isinstance(day, DateTimeEditor) and not day.edit.isEnabled()
    assert form.arguments() == {}
    day.send.click()
    day.edit.setDate(QDate(2024, 2, 29))
    assert form.arguments() == {"d": "2024-02-29"}
    day.send.click()
    assert form.arguments() == {}
    time_editor = row(form, "t").editor
    time_editor.send.click()  # type: ignore[union-attr]
    value = form.arguments()["t"]
    assert value.startswith("09:00:00") and len(value) == len("09:00:00+00:00")
    assert form.validate() == []


def test_big_integers_and_number_parsing(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"i": {"type": "integer", "maximum": 10**30}, "n": {"type": "number"}}))
    type_text(qtbot, form, ("i",), str(2**80))
    type_text(qtbot, form, ("n",), "1.5e3")
    assert form.arguments() == {"i": 2**80, "n": 1500.0}
    type_text(qtbot, form, ("i",), "12.5")
    assert row(form, "i").errors() == "expected a whole number" and "i" not in form.arguments()
    type_text(qtbot, form, ("i",), str(10**31))
    assert "≤" in row(form, "i").errors()


def test_enum_keeps_real_typed_values(qtbot) -> None:  # type: ignore[no-untyped-def]
    values = [1, "1", True, None, {"a": 1}]
    form = make_form(qtbot, obj({"e": {"enum": values}}))
    combo = row(form, "e").editor.combo  # type: ignore[union-attr]
    assert [combo.itemText(i) for i in range(combo.count())][1:] == ["1", '"1"', "true", "null", '{"a": 1}']
    for i, value in enumerate(values):
        pick(combo, i + 1)
        got = form.arguments()["e"]
        assert got == value and type(got) is type(value)
    pick(combo, 0)
    assert form.arguments() == {}


def test_titled_consts_show_titles_and_send_values(qtbot) -> None:  # type: ignore[no-untyped-def]
    seating = {"type": "string", "oneOf": [{"const": "in", "title": "Indoor <b>"}, {"const": "bar", "title": "Bar"}]}
    form = make_form(qtbot, obj({"seat": seating}))
    combo = row(form, "seat").editor.combo  # type: ignore[union-attr]
    assert [combo.itemText(i) for i in range(combo.count())][1:] == ["Indoor <b>", "Bar"]
    assert not form.findChildren(QCheckBox), "no const toggles: one choice box"
    pick(combo, 2)
    assert form.arguments() == {"seat": "bar"}


def test_optional_boolean_is_tri_state(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"b": {"type": "boolean", "default": True}}))
    check = row(form, "b").editor.check  # type: ignore[union-attr]
    assert check.isTristate() and check.checkState() == Qt.CheckState.PartiallyChecked
    seen = []
    for _ in range(3):
        check.click()
        seen.append(form.arguments().get("b", "unset"))
    assert seen == [True, False, "unset"]


def test_tuple_slots_and_raw_rows(qtbot) -> None:  # type: ignore[no-untyped-def]
    schema = obj(
        {
            "t": {
                "type": "array",
                "prefixItems": [{"type": "string", "title": "label"}, {"type": "integer"}],
                "items": {},
            }
        },
        required=["t"],
    )
    form = make_form(qtbot, schema)
    editor = row(form, "t").editor
    assert isinstance(editor, ArrayEditor) and len(editor.rows) == 2
    assert editor.rows[0].header.text() == "[0] label" and editor.rows[0].move_buttons == []  # type: ignore[attr-defined]
    type_text(qtbot, form, ("t", 0), "x")
    type_text(qtbot, form, ("t", 1), "2")
    editor.add_button.click()
    raw = editor.rows[2].editor
    assert isinstance(raw, RawEditor)
    raw.edit.setPlainText('{"any": [1, null]}')
    assert form.arguments() == {"t": ["x", 2, {"any": [1, None]}]}
    raw.edit.setPlainText("{broken")
    assert "not valid JSON" in editor.rows[2].errors()


def test_whole_form_fallback_note(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"a": {"type": "strnig"}}))
    note = form.fallback_note()
    assert note and "not a valid JSON Schema" in note and "properties/a/type" in note
    assert form.view.note.isVisibleTo(form)
    raw = form.view.root_row.editor  # type: ignore[union-attr]
    assert isinstance(raw, RawEditor)
    raw.edit.setPlainText('{"a": 1}')
    assert form.arguments() == {"a": 1}
    assert [i.keyword for i in form.validate()] == ["schema"]  # still callable, with a warning
    assert make_form(qtbot, None).fallback_note() == (
        "The form cannot show this tool's inputSchema: the tool has no inputSchema. Edit the arguments as JSON."
    )


def test_part_fallback_keeps_the_rest(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"odd": {"not": {"type": "string"}}, "ok": {"type": "string"}}))
    assert form.fallback_note() is None
    odd = row(form, "odd")
    assert isinstance(odd.editor, RawEditor)
    notes = [label.text() for label in odd.findChildren(QLabel) if label.objectName() == "fallbackNote"]
    assert notes and "`not`" in notes[0]
    odd.editor.edit.setPlainText("3")
    type_text(qtbot, form, ("ok",), "y")
    assert form.arguments() == {"odd": 3, "ok": "y"}


def test_server_text_is_plain(qtbot) -> None:  # type: ignore[no-untyped-def]
    schema = obj(
        {
            HOSTILE: {"type": "string", "title": HOSTILE, "description": HOSTILE, "examples": [HOSTILE]},
            "pick": {"enum": [HOSTILE, "b"], "description": HOSTILE},
            "c": {"const": HOSTILE + " &x"},
            "u": {"oneOf": [{"title": HOSTILE, "type": "string"}, {"type": "integer"}]},
        },
        description=HOSTILE,
    )
    form = make_form(qtbot, schema)
    labels = form.findChildren(QLabel)
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)
    assert sum(label.text() == HOSTILE for label in labels) >= 2  # help texts, shown literally
    assert any(label.text().startswith(HOSTILE) for label in labels)  # the field name
    assert row(form, HOSTILE).header.text() == HOSTILE  # painted with drawText: never markup
    line = row(form, HOSTILE).editor.edit  # type: ignore[union-attr]
    assert line.placeholderText() == "e.g. " + HOSTILE
    combos = form.findChildren(QComboBox)
    assert any(c.itemText(i) == HOSTILE for c in combos for i in range(c.count()))
    const = [c for c in form.findChildren(QCheckBox) if "&x" in c.text().replace("&&", "&")]
    assert const and const[0].text() == json.dumps(HOSTILE + " &x").replace("&", "&&")  # JSON text, "&" escaped


def test_read_only_and_deprecated(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(
        qtbot, obj({"r": {"type": "string", "readOnly": True}, "d": {"type": "string", "deprecated": True}})
    )
    assert not row(form, "r").editor.isEnabled()  # type: ignore[union-attr]
    header = row(form, "d").header
    assert header.name_font.strikeOut() and "deprecated" in header.summary


def test_required_marks_and_help(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(
        qtbot, obj({"a": {"type": "string", "description": "Help A"}, "b": {"type": "string"}}, required=["a"])
    )
    assert row(form, "a").header.text() == "a *" and row(form, "b").header.text() == "b"
    helps = [label.text() for label in row(form, "a").findChildren(QLabel) if label.objectName() == "fieldHelp"]
    assert helps == ["Help A"]


def test_recursive_schema_expands_on_demand(qtbot) -> None:  # type: ignore[no-untyped-def]
    schema = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {
            "Node": {"type": "object", "properties": {"name": {"type": "string"}, "child": {"$ref": "#/$defs/Node"}}}
        },
    }
    form = make_form(qtbot, schema)
    child = row(form, "root", "child")
    assert child.editor is None and not child.expanded  # not built until opened
    for depth in range(1, 6):
        child.arrow.click()  # type: ignore[union-attr]
        path = ("root", *["child"] * depth)
        type_text(qtbot, form, (*path, "name"), f"level {depth}")
        child = row(form, *path, "child")
    args = form.arguments()
    node = args["root"]
    for depth in range(1, 6):
        node = node["child"]
        assert node["name"] == f"level {depth}"
    assert isinstance(form.view.editor, ObjectEditor)
    assert len(form.findChildren(QLineEdit)) == 6  # root's name + the five opened levels


def test_extra_keys_are_kept_and_editable(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"a": {"type": "integer"}}))
    assert form.set_arguments({"a": 1, "extra": {"x": [1, 2]}}) == []
    entries = form.view.editor.entries  # type: ignore[attr-defined]
    assert isinstance(entries, EntriesEditor) and [r.key_edit.text() for r in entries.rows] == ["extra"]
    assert form.arguments() == {"a": 1, "extra": {"x": [1, 2]}}
    entries.rows[0].editor.edit.setPlainText('"changed"')  # type: ignore[union-attr]
    assert form.arguments() == {"a": 1, "extra": "changed"}
    closed = make_form(qtbot, obj({"a": {"type": "integer"}}, additionalProperties=False))
    problems = closed.set_arguments({"a": 1, "extra": 2})
    assert [p.path for p in problems] == [("extra",)]
    assert closed.arguments() == {"a": 1, "extra": 2}  # what could not be shown is still sent as given
    assert "Not shown in the form" in closed.json_status.text()


KITCHEN_SINK = {
    "type": "object",
    "properties": {
        "env": {"type": "object", "description": "Environment variables.", "additionalProperties": {"type": "string"}},
        "point": {"type": "array", "prefixItems": [{"type": "number", "title": "x"}, {"type": "number", "title": "y"}]},
        "id": {"type": ["string", "integer"], "description": "A name or a number."},
        "when": {"type": "string", "format": "time"},
        "big": {"type": "integer", "minimum": 0},
        "mode": {"enum": [1, "one", True, None]},
        "filter": {"not": {"type": "null"}, "description": "Anything but null."},
        "payload": {"description": "Free JSON."},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "old": {"type": "boolean", "deprecated": True, "default": False},
    },
    "required": ["point", "tags"],
}


def test_screenshot_of_the_other_widgets(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, KITCHEN_SINK, (700, 1000))
    args = {"env": {"HOME": "/root", "LANG": "C.UTF-8"}, "point": [1.5, -2], "id": 42, "big": 2**64,
            "mode": None, "filter": {"x": 1}, "payload": [1, {"a": None}], "tags": ["a", "b"]}  # fmt: skip
    assert form.set_arguments(args) == []
    assert form.arguments() == args
    form.validate()
    qtbot.wait(100)
    ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert form.grab().save(str(ARTIFACTS / "form_widgets.png"))


def test_number_bounds_say_whether_they_are_exclusive(qtbot) -> None:  # type: ignore[no-untyped-def]
    schema = obj(
        {
            "both": {"type": "integer", "minimum": 5, "maximum": 480},
            "open_low": {"type": "number", "exclusiveMinimum": 0, "maximum": 300},
            "open_high": {"type": "number", "minimum": 0, "exclusiveMaximum": 1},
            "tighter": {"type": "number", "minimum": 2, "exclusiveMinimum": 1},
        }
    )
    form = make_form(qtbot, schema)
    assert row(form, "both").status.startswith("integer · 5–480")
    assert row(form, "open_low").status.startswith("number · > 0, ≤ 300")
    assert row(form, "open_high").status.startswith("number · ≥ 0, < 1")
    assert row(form, "tighter").status.startswith("number · ≥ 2")


def test_an_error_shows_on_the_field_line_without_moving_the_rows_below(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"n": {"type": "number", "description": "Help."}, "s": {"type": "string"}}))
    below = row(form, "s")
    before = below.y()
    type_text(qtbot, form, ("n",), "12abc")
    qtbot.wait(20)
    assert row(form, "n").errors() == "not a number"
    assert row(form, "n").error_label.isVisible() and below.y() == before
    assert row(form, "n").header.accessibleName().startswith("n: number")


def test_fields_that_do_not_parse_are_problems_of_the_call(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"sql": {"type": "string"}, "t": {"type": "number"}}, required=["sql", "t"]))
    type_text(qtbot, form, ("sql",), "select 2")
    type_text(qtbot, form, ("t",), "abc")
    assert form.arguments() == {"sql": "select 2"}
    assert [str(issue) for issue in form.validate()] == ['t: not a number: "abc" is not sent']  # not also "required"
    form.set_arguments({"sql": "select 2", "t": 5})  # the JSON tab or a history edit fixes it
    assert form.validate() == [] and row(form, "t").errors() == ""


def test_a_long_example_is_the_whole_placeholder(qtbot) -> None:  # type: ignore[no-untyped-def]
    example = "postgresql://reporting_user@db.internal.example.com:5432/analytics?sslmode=require"
    form = make_form(qtbot, obj({"c": {"type": "string", "examples": [example]}}))
    assert row(form, "c").editor.placeholderText() == f"e.g. {example}"  # type: ignore[union-attr]


def test_tab_from_a_map_key_goes_to_its_value(qtbot) -> None:  # type: ignore[no-untyped-def]
    form = make_form(qtbot, obj({"m": {"type": "object", "additionalProperties": {"type": "string"}}}))
    m = row(form, "m")
    m.set_expanded(True)
    entries = m.editor.entries  # type: ignore[union-attr]
    entries.add_button.click()  # type: ignore[union-attr]
    qtbot.wait(20)
    entry = entries.rows[0]
    assert entry.key_edit.nextInFocusChain() is entry.editor  # type: ignore[attr-defined]
