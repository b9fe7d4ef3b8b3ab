"""A tool with a 1 MB description: the header shows a short part, the whole text is one click away in a
plain-text view (a word-wrapped QLabel holding 1 MB took seconds per selection or resize; issue 21)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QPlainTextEdit

from inspector.ui.tools.header import ToolHeader
from inspector.ui.tools.tool_list import ToolRow

LONG = ("The quick brown fox jumps over the lazy dog. " * 23_000)[:1_000_000]


def row(description: str) -> ToolRow:
    return ToolRow.from_tool({"name": "long_description", "description": description, "inputSchema": {}}, [])


def test_the_header_label_never_holds_a_huge_description(qtbot) -> None:
    header = ToolHeader()
    qtbot.addWidget(header)
    header.resize(900, 300)
    header.show()
    header.show_row(row(LONG))
    assert len(header.description.text()) <= 2_100  # a few lines of words, not 1 MB
    assert header.description.text().startswith("The quick brown fox")
    assert header.full.isVisible() and header.full.text() == "Show full description"


def test_the_full_description_opens_in_a_plain_text_view(qtbot) -> None:
    header = ToolHeader()
    qtbot.addWidget(header)
    header.show()
    header.show_row(row(LONG))
    qtbot.mouseClick(header.full, Qt.MouseButton.LeftButton)
    dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]
    assert len(dialogs) == 1
    (view,) = dialogs[0].findChildren(QPlainTextEdit)
    assert view.isReadOnly() and view.toPlainText() == LONG
    dialogs[0].close()


def test_a_short_description_has_no_extra_button(qtbot) -> None:
    header = ToolHeader()
    qtbot.addWidget(header)
    header.show()
    header.show_row(row("Looks something up."))
    assert header.description.text() == "Looks something up."
    assert not header.full.isVisible()
