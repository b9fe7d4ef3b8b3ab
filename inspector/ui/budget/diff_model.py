"""A thin Qt model over a `SnapshotDiff`: added, removed and changed tools with their token delta."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from inspector.budget.snapshot import SnapshotDiff, ToolChange
from inspector.ui.budget.common import fmt_delta
from inspector.ui.budget.table_base import RowsTableModel
from inspector.ui.widgets.plain_text import item_text, safe_tooltip

COLUMNS = ("Change", "Tool", "Old tokens", "New tokens", "Δ tokens", "What changed", "Breaking for callers")
STATUS = {"added": "✚ added", "removed": "✖ removed", "changed": "✎ changed"}
BREAKING = "⚠ BREAKING"
BREAKING_BACKGROUND = QColor(248, 81, 73, 60)


class DiffModel(RowsTableModel):
    columns = COLUMNS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[tuple[str, ToolChange]] = []

    def set_diff(self, diff: SnapshotDiff | None) -> None:
        self.beginResetModel()
        self.rows = []
        if diff is not None:
            for status, changes in (("removed", diff.removed), ("added", diff.added), ("changed", diff.changed)):
                self.rows += [(status, change) for change in changes]
            self.rows.sort(key=lambda row: (not row[1].breaking, row[0] != "removed", row[1].name))
        self.endResetModel()

    def row_items(self) -> list[Any]:
        return self.rows

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        status, change = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return item_text(self._text(status, change, column))
        if role == Qt.ItemDataRole.BackgroundRole and change.breaking:
            return BREAKING_BACKGROUND
        if role == Qt.ItemDataRole.TextAlignmentRole and 2 <= column <= 4:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and column >= 5:
            items = change.changes if column == 5 else change.breaking
            return safe_tooltip("\n".join(items)) if items else None
        return None

    def _text(self, status: str, change: ToolChange, column: int) -> str:
        if column == 0:
            return STATUS[status] + (f"  {BREAKING}" if change.breaking else "")
        if column == 1:
            return change.name
        if column == 2:
            return f"{change.old_tokens:,}" if status != "added" else "—"
        if column == 3:
            return f"{change.new_tokens:,}" if status != "removed" else "—"
        if column == 4:
            return fmt_delta(change.new_tokens - change.old_tokens)
        if column == 5:
            return "; ".join(change.changes) or "; ".join(change.breaking)
        return "; ".join(change.breaking)
