"""Two answers side by side in the traffic log's JSON view, the paths where they differ listed above and
the lines they are on marked on each side. Everything shown is server text: plain text only (`JsonView`
writes through `setPlainText`; the paths go through `item_text`)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from inspector.content.visible import visible
from inspector.replay.compare import ABSENT, Change
from inspector.ui.widgets.json_view import JsonView
from inspector.ui.widgets.plain_text import item_text

MARK = QColor(255, 200, 0, 90)  # a changed line, on light and dark palettes alike
MAX_MARKS = 200


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "backslashreplace")


def _leaf_text(path: str, value: Any) -> str | None:
    """What a changed value looks like in pretty JSON: ``"key": value`` for a member, the value alone for
    a list item; None for an absent value or a container (their first line says little)."""
    if value is ABSENT or isinstance(value, (dict, list)):
        return None
    text = json.dumps(value, ensure_ascii=False)
    key = path.rsplit(".", 1)[-1] if not path.endswith("]") else ""
    line = f'"{key}": {text}' if key and not key.startswith("[") else text
    return visible(line)  # as the JSON view writes it: control and bidi characters as escapes


def mark_lines(edit: QPlainTextEdit, needles: list[str]) -> int:
    """Highlight the first line holding each of `needles` (the changed values); returns how many."""
    marks: list[QTextEdit.ExtraSelection] = []
    document = edit.document()
    for needle in needles[:MAX_MARKS]:
        found = document.find(needle)
        if found.isNull():
            continue
        selection = QTextEdit.ExtraSelection()
        selection.format.setBackground(MARK)
        selection.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        cursor = QTextCursor(found)
        cursor.clearSelection()
        selection.cursor = cursor
        marks.append(selection)
    edit.setExtraSelections(marks)
    return len(marks)


class SideBySide(QWidget):
    """`show(left, right, changes)`: the two JSON values, titled, and the changed paths marked."""

    def __init__(self, left_title: str, right_title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.changes_list = QListWidget(self)
        self.changes_list.setAccessibleName("Changed paths")
        self.changes_list.setMaximumHeight(90)
        self.left = JsonView(self)
        self.right = JsonView(self)
        self.left.edit.setAccessibleName(f"{left_title} answer")
        self.right.edit.setAccessibleName(f"{right_title} answer")
        self.values: dict[str, Any] = {}  # each side's whole answer, for its Copy button
        panes = QSplitter(Qt.Orientation.Horizontal, self)
        for title, view in ((left_title, self.left), (right_title, self.right)):
            box = QWidget(panes)
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            top = QHBoxLayout()
            label = QLabel(title, box)
            label.setTextFormat(Qt.TextFormat.PlainText)
            said = f"the {title.lower()} answer" if len(title) > 1 else f"answer {title}"  # Recorded, New; A, B
            copy = QPushButton("Copy", box)
            copy.setAccessibleName(f"Copy {said}")
            copy.setToolTip(f"Copy {said} whole (JSON)")
            copy.clicked.connect(lambda _=False, side=view: self.copy(side))
            view.copy_hint = f"Copy {said} copies it all"
            top.addWidget(label, 1)
            top.addWidget(copy)
            column.addLayout(top)
            column.addWidget(view, 1)
            panes.addWidget(box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.changes_list)
        layout.addWidget(panes, 1)
        self.marked = (0, 0)

    def show(self, left: Any, right: Any, changes: list[Change]) -> None:  # type: ignore[override]
        self.changes_list.clear()
        for change in changes:
            self.changes_list.addItem(item_text(f"{change.path}: {_short(change.recorded)} → {_short(change.new)}"))
        self.values = {"left": left, "right": right}
        self.left.show_json(_dump(left) if left is not None else b"(no answer)")
        self.right.show_json(_dump(right) if right is not None else b"(no answer)")
        left_marks = [t for c in changes if (t := _leaf_text(c.path, c.recorded)) is not None]
        right_marks = [t for c in changes if (t := _leaf_text(c.path, c.new)) is not None]
        self.marked = (mark_lines(self.left.edit, left_marks), mark_lines(self.right.edit, right_marks))

    def copy(self, view: JsonView) -> None:
        """Put the whole answer of `view`'s side on the clipboard (nothing for a side with no answer)."""
        value = self.values.get("left" if view is self.left else "right")
        if value is not None:
            QGuiApplication.clipboard().setText(_dump(value).decode("utf-8", "replace"))

    def clear(self) -> None:
        self.values = {}
        self.changes_list.clear()
        self.left.clear()
        self.right.clear()


def _short(value: Any) -> str:
    text = "(absent)" if value is ABSENT else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"
