"""A read-only table model over a list that only grows (a run's verdicts, a comparison's pairs): rows
are appended in one `beginInsertRows` per look, each cell's text made when it is first shown (a record
of 100,000 messages lists 50,000 requests without laying out 250,000 items at once)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from inspector.ui.widgets.plain_text import item_text, plain_tooltip

Index = QModelIndex | QPersistentModelIndex


class RowsModel(QAbstractTableModel):
    """`rows` shown through `cells(row) -> texts` under `headers`; `tooltip_column`'s whole text in its tooltip."""

    def __init__(
        self, headers: tuple[str, ...], cells: Callable[[Any], tuple[str, ...]], tooltip_column: int = 1
    ) -> None:
        super().__init__()
        self.headers, self.cells, self.tooltip_column = headers, cells, tooltip_column
        self.rows: Sequence[Any] = ()
        self.shown = 0
        self._cache: dict[int, tuple[str, ...]] = {}

    def reset(self, rows: Sequence[Any]) -> None:
        """Show `rows` (a list that may still grow: `take` adds what was appended since)."""
        self.beginResetModel()
        self.rows, self.shown, self._cache = rows, len(rows), {}
        self.endResetModel()

    def take(self) -> int:
        """Show the rows appended to the list since the last look; returns how many."""
        count = len(self.rows) - self.shown
        if count > 0:
            self.beginInsertRows(QModelIndex(), self.shown, self.shown + count - 1)
            self.shown += count
            self.endInsertRows()
        return max(count, 0)

    @property
    def formatted(self) -> int:
        """How many rows' texts were made (those shown so far)."""
        return len(self._cache)

    def texts(self, row: int) -> tuple[str, ...]:
        if (found := self._cache.get(row)) is None:
            found = self._cache[row] = self.cells(self.rows[row])
        return found

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else self.shown

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self.headers)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= self.shown:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return item_text(self.texts(index.row())[index.column()])
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == self.tooltip_column:
            return plain_tooltip(self.headers[index.column()], self.texts(index.row())[index.column()])
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        return None
