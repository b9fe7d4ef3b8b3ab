"""A filterable list of server items (resources, templates, prompts) with a title, count and findings.

A `QTreeView` over a thin table model: cell texts are built once per listing, and the filter
rebuilds an index of visible rows (hiding rows of a `QTreeWidget` one by one made clearing 10,000
hidden items take seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTreeView, QVBoxLayout, QWidget

from inspector.content.visible import visible
from inspector.core.findings import Finding
from inspector.ui.widgets.fit_columns import fit_columns
from inspector.ui.widgets.plain_text import PlainLabel

MAX_CELL = 300  # server strings are clipped in cells (the detail pane shows them whole)


def _cell(value: Any) -> str:
    text = " ".join(str(value).split()) if value is not None else ""
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


class ItemsModel(QAbstractTableModel):
    """Rows of cell texts over the items; `visible` holds the indexes that pass the filter."""

    def __init__(self, columns: tuple[str, ...]) -> None:
        super().__init__()
        self.columns = columns
        self.items: list[dict[str, Any]] = []
        self.cells: list[list[str]] = []
        self.visible: list[int] = []
        self.header_tips: dict[int, str] = {}
        self.decoration: Callable[[dict[str, Any]], Any] | None = None  # the first cell's icon

    def reset(self, items: list[dict[str, Any]], cells: list[list[str]], needle: str) -> None:
        self.beginResetModel()
        self.items, self.cells = items, cells
        self.visible = self._matching(needle)
        self.endResetModel()

    def set_filter(self, needle: str) -> None:
        self.beginResetModel()
        self.visible = self._matching(needle)
        self.endResetModel()

    def _matching(self, needle: str) -> list[int]:
        if not needle:
            return list(range(len(self.cells)))
        return [i for i, row in enumerate(self.cells) if any(needle in text.lower() for text in row)]

    def set_cell(self, index: int, column: int, text: str) -> None:
        self.cells[index][column] = text
        if index in self.visible:
            cell = self.index(self.visible.index(index), column)
            self.dataChanged.emit(cell, cell)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.visible)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and index.isValid():
            return visible(self.cells[self.visible[index.row()]][index.column()])  # escapes and bidi shown
        if role == Qt.ItemDataRole.DecorationRole and index.isValid() and index.column() == 0 and self.decoration:
            return self.decoration(self.items[self.visible[index.row()]])
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return self.columns[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return self.header_tips.get(section)
        return None


class ItemList(QWidget):
    """`set_items(items, row)`: `row(item)` gives the column texts. Emits `chosen(item)` on selection."""

    chosen = Signal(object)

    def __init__(self, title: str, columns: tuple[str, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.heading = QLabel(title)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.status = PlainLabel("")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("QLabel { color: #c0392b; }")
        self.status.hide()
        self.model = ItemsModel(columns)
        self.tree = QTreeView()
        self.tree.setObjectName(title.lower().replace(" ", "_") + "_list")
        self.tree.setModel(self.model)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        fit_columns(self.tree)  # a narrow list: the name column gives way so the last one stays in sight
        self.tree.selectionModel().currentRowChanged.connect(self._current_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.heading)
        layout.addWidget(self.status)
        layout.addWidget(self.tree, 1)
        self._filter = ""
        self._selected: int | None = None  # index into items of the chosen row
        self._restoring = False

    @property
    def items(self) -> list[dict[str, Any]]:
        return self.model.items

    def set_decoration(self, icon: Callable[[dict[str, Any]], Any], side: int = 16) -> None:
        """Draw `icon(item)` (a QIcon or None) beside each item's first cell."""
        self.model.decoration = icon
        self.tree.setIconSize(QSize(side, side))

    def redecorate(self) -> None:
        """The icons changed (one arrived): redraw the first column."""
        if self.model.visible:
            last = self.model.index(len(self.model.visible) - 1, 0)
            self.model.dataChanged.emit(self.model.index(0, 0), last, [Qt.ItemDataRole.DecorationRole])

    def set_items(
        self,
        items: list[Any],
        row: Callable[[Any], list[str]],
        findings: list[Finding] | None = None,
        *,
        keep: Callable[[Any], Any] | None = None,
    ) -> None:
        """Replace the list; the item whose `keep(item)` equals the chosen one's stays chosen."""
        selected = self.current()
        wanted = keep(selected) if keep is not None and selected is not None else None
        kept = [item for item in items if isinstance(item, dict)]
        self._selected = None
        if wanted is not None and keep is not None:
            self._selected = next((i for i, item in enumerate(kept) if keep(item) == wanted), None)
        self._restoring = True
        self.model.reset(kept, [[_cell(text) for text in row(item)] for item in kept], self._filter)
        self._restore_selection()
        self._restoring = False
        self.tree.resizeColumnToContents(0)
        self.tree.setColumnWidth(0, min(self.tree.columnWidth(0) + 12, 260))
        self._update_heading()
        problems = findings or []
        self.set_status("\n".join(f"⚠ {f}" for f in problems[:8]) + (" …" if len(problems) > 8 else ""))
        if self._selected is None and selected is not None:
            self.chosen.emit(None)

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def apply_filter(self, text: str) -> None:
        self._filter = text.strip().lower()
        self._restoring = True
        self.model.set_filter(self._filter)
        self._restore_selection()
        self._restoring = False
        self._update_heading()

    def _restore_selection(self) -> None:
        if self._selected is not None and self._selected in self.model.visible:
            self.tree.setCurrentIndex(self.model.index(self.model.visible.index(self._selected), 0))

    def _update_heading(self) -> None:
        shown, total = len(self.model.visible), len(self.model.items)
        count = f"{total}" if shown == total else f"{shown} of {total}"
        self.heading.setText(f"{self.title} ({count})")

    def current(self) -> Any:
        return self.model.items[self._selected] if self._selected is not None else None

    def current_text(self, column: int) -> str:
        return self.model.cells[self._selected][column] if self._selected is not None else ""

    def clear_choice(self) -> None:
        """Forget the chosen row without emitting `chosen` (another list took over)."""
        self._selected = None
        self._restoring = True
        self.tree.setCurrentIndex(QModelIndex())
        self.tree.clearSelection()
        self._restoring = False

    def select(self, field: str, value: str) -> bool:
        for index, item in enumerate(self.model.items):
            if item.get(field) == value:
                if index not in self.model.visible:
                    return False
                self.tree.setCurrentIndex(self.model.index(self.model.visible.index(index), 0))
                return True
        return False

    def mark(self, field: str, value: str, column: int, text: str) -> None:
        """Set one cell of the rows whose `field` is `value` (e.g. a subscription dot)."""
        for index, item in enumerate(self.model.items):
            if item.get(field) == value:
                self.model.set_cell(index, column, text)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._restoring:
            return
        if not current.isValid():
            return  # the filter hid the chosen row: it stays chosen
        self._selected = self.model.visible[current.row()]
        self.chosen.emit(self.model.items[self._selected])
