"""Argument completion (issue 11, point 5): the value picked from the server's suggestions is the one
shown in the field, expanded into the URI and sent on the wire."""

from __future__ import annotations

from journey_support import Lens
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QLineEdit


def suggestion_popup(lens: Lens, value: str) -> QAbstractItemView:
    """The completion popup (a visible pop-up list) once it offers `value`."""

    def popup() -> QAbstractItemView | None:
        for view in lens.widgets(QAbstractItemView):
            if view.window().windowType() == Qt.WindowType.Popup:
                model = view.model()
                if any(model.index(row, 0).data() == value for row in range(model.rowCount())):
                    return view
        return None

    lens.qtbot.waitUntil(lambda: popup() is not None, timeout=10_000)
    found = popup()
    assert found is not None
    return found


def click_suggestion(popup: QAbstractItemView, value: str) -> None:
    model = popup.model()
    row = next(r for r in range(model.rowCount()) if model.index(r, 0).data() == value)
    point = popup.visualRect(model.index(row, 0)).center()
    QTest.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def open_item(lens: Lens, tab: str, view: str, name: str) -> None:
    lens.tab(tab)
    lens.wait_text(name)
    lens.click_item(view, name)


def test_a_completion_picked_with_the_keyboard_is_sent_with_the_prompt(lens) -> None:
    lens.start()
    open_item(lens, "Prompts", "Prompt list", "summarize_note")
    field = lens.type("note_id", "w")
    popup = suggestion_popup(lens, "welcome")
    QTest.keyClick(popup, Qt.Key.Key_Down)
    QTest.keyClick(popup, Qt.Key.Key_Return)
    lens.qtbot.waitUntil(lambda: not popup.isVisible())
    assert isinstance(field, QLineEdit) and field.text() == "welcome"
    lens.click("Get prompt  (Ctrl+Enter)")
    lens.qtbot.waitUntil(lambda: bool(lens.sent("prompts/get")))
    assert lens.sent("prompts/get")[-1]["params"]["arguments"] == {"note_id": "welcome"}
    lens.wait_text("Summarise this note as bullets.")


def test_a_completion_picked_with_a_click_is_in_the_template_uri_and_read(lens) -> None:
    lens.start()
    open_item(lens, "Resources", "Template list", "Note")
    lens.type("note_id", "i")
    click_suggestion(suggestion_popup(lens, "ideas"), "ideas")
    lens.wait_text("URI: demo://notes/ideas")
    lens.click("Read  (Ctrl+Enter)")
    lens.qtbot.waitUntil(lambda: bool(lens.sent("resources/read")))
    assert [m["params"]["uri"] for m in lens.sent("resources/read")] == ["demo://notes/ideas"]
    assert not lens.shows("-32602")
