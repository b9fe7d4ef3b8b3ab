"""The description lab on a server's hostile descriptions (issue 21, outside tester): escapes shown in the
editor are not an edit, and a 1 MB one-line description never reaches a text box whole."""

from __future__ import annotations

import threading

import pytest
from budget_ui_support import show_budget, wait_report
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPlainTextEdit, QTabBar, QTabWidget

from inspector.content.long_lines import MARK, PIECE_CHARS
from inspector.ui.budget.engine import offline_or_fallback
from inspector.ui.budget.lab import EDIT_MAX_CHARS
from inspector.ui.main_window import MainWindow

ESCAPES = "Rings \x07 the bell, \x1b[31mred\x1b[0m text, \u202eoverride\u202c and a plain end."
LINE = "A" * 1_048_576


def tool(name: str, description: str) -> dict:
    schema = {"type": "object", "properties": {"text": {"type": "string", "description": "Some text."}}}
    return {"name": name, "description": description, "inputSchema": schema}


TOOLS = [tool("plain", "An ordinary tool."), tool("escapes", ESCAPES), tool("big", LINE)]


def open_lab(qtbot, window: MainWindow):
    pane = window.budget
    show_budget(window)
    pane.set_tools(TOOLS, "synthetic")
    wait_report(qtbot, pane, {"big"}, timeout=60_000)
    pane.views.setCurrentWidget(pane.lab)
    return pane.lab


def longest_paragraph(edit: QPlainTextEdit) -> int:
    document = edit.document()
    return max(len(document.findBlockByNumber(n).text()) for n in range(document.blockCount()))


def test_escapes_shown_in_the_editor_are_not_an_edit(qtbot, window: MainWindow) -> None:
    """The lab showed "62 tokens (was 51, +11)" with no edit: it counted the escaped form it shows."""
    lab = open_lab(qtbot, window)
    assert lab.select("escapes")
    assert "\\x07" in lab.editor.toPlainText() and "\\u202e" in lab.editor.toPlainText()  # seen, not obeyed
    qtbot.waitUntil(lambda: "tokens" in lab.description_count.text(), timeout=60_000)
    assert "(unchanged)" in lab.description_count.text(), lab.description_count.text()
    assert "(unchanged)" in lab.tool_count.text() and "(unchanged)" in lab.list_count.text()
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(lab.copy_description, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == ESCAPES  # the server's text, not its shown form

    # a real edit counts; undoing it reads unchanged again
    lab.editor.moveCursor(lab.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(lab.editor, " More words here.")
    qtbot.waitUntil(lambda: "was" in lab.description_count.text(), timeout=10_000)
    for _ in " More words here.":
        qtbot.keyClick(lab.editor, Qt.Key.Key_Backspace)
    qtbot.waitUntil(lambda: "(unchanged)" in lab.description_count.text(), timeout=10_000)
    assert "(unchanged)" in lab.list_count.text() and lab.edited == {}
    qtbot.mouseClick(lab.copy_description, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == ESCAPES


def test_a_one_line_megabyte_is_counted_but_never_handed_to_a_text_box_whole(
    qtbot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Choosing it froze the window over 3 minutes (the edit box and the Tool JSON laying out 1 MB with no
    break point) and its count (2.3 s on the UI thread): the lab says it is too long to edit here, counts it
    on a worker thread, and Copy gives it whole."""
    lab = open_lab(qtbot, window)
    tokenizer = lab.counters.tokenizer(offline_or_fallback(window.budget.tokenizer_name()))
    count, threads = tokenizer.count, []  # where the megabyte was counted (it took 2.3 s: never the UI's)

    def noting_the_thread(text: str) -> int:
        if len(text) > EDIT_MAX_CHARS:
            threads.append(threading.current_thread())
        return count(text)

    monkeypatch.setattr(tokenizer, "count", noting_the_thread)
    assert lab.select("big")
    qtbot.waitUntil(lambda: "tokens" in lab.description_count.text(), timeout=60_000)
    assert threads and threading.main_thread() not in threads, threads
    lower = next(w for w in lab.findChildren(QTabWidget) if w.objectName() == "labLower")
    bar = lower.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(lower.indexOf(lab.preview)).center())
    qtbot.waitUntil(lambda: len(lab.preview.toPlainText()) > len(LINE), timeout=10_000)  # the Tool JSON, shown
    for edit in (lab.editor, lab.preview):
        assert longest_paragraph(edit) <= PIECE_CHARS + len(MARK), (edit.objectName(), longest_paragraph(edit))
    assert lab.editor.isReadOnly()
    assert "too long to edit here" in lab.edit_note.text() and "1,048,576 characters" in lab.edit_note.text()
    assert lab.edit_note.isVisible()
    assert "(unchanged)" in lab.description_count.text()
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(lab.copy_description, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == LINE

    # another description is editable again
    assert lab.select("plain")
    qtbot.waitUntil(lambda: not lab.edit_note.isVisible(), timeout=10_000)
    assert not lab.editor.isReadOnly() and lab.editor.toPlainText() == "An ordinary tool."
