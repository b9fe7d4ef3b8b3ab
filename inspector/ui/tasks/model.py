"""A thin Qt table over the task runner's tasks (`inspector.core.tasks`), newest last."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from inspector.core.tasks import TrackedTask
from inspector.ui.widgets.plain_text import item_text

COLUMNS = ("Task", "Tool", "Status", "Status message", "TTL", "Poll", "Created")
NO_INDEX = QModelIndex()


def status_text(task: TrackedTask) -> str:
    """The status as shown: the server's word, "input needed" when the task waits for the user."""
    if task.answering:
        return "answering…"
    if task.input_needed:
        return "input needed"
    if task.status == "completed" and task.result is None and task.error is None:
        return "completed (fetching result)"
    return task.status


def _millis(value: int | None) -> str:
    if value is None:
        return "—"
    return f"{value / 1000:g} s" if value < 120_000 else f"{value / 60_000:g} min"


def cell(task: TrackedTask, column: int) -> str:
    values = (
        task.task_id,
        task.tool or "?",
        status_text(task),
        task.status_message or "",
        _millis(task.ttl_ms),
        _millis(task.poll_interval_ms),
        (task.created_at or "").replace("T", " ").rstrip("Z")[:19],
    )
    return values[column]


class TaskTableModel(QAbstractTableModel):
    """Rows are `TrackedTask`s in the order first seen; `touch` refreshes one row or appends it."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[TrackedTask] = []

    def touch(self, task: TrackedTask) -> None:
        if task in self.rows:
            row = self.rows.index(task)
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))
            return
        self.beginInsertRows(NO_INDEX, len(self.rows), len(self.rows))
        self.rows.append(task)
        self.endInsertRows()

    def reset(self) -> None:
        self.beginResetModel()
        self.rows = []
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = NO_INDEX) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = NO_INDEX) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return item_text(cell(self.rows[index.row()], index.column()))  # status messages are server text
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None
