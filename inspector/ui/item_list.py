"""A filterable list of server items (resources, templates, prompts) with a title, count and findings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from inspector.core.findings import Finding

ITEM_ROLE = Qt.ItemDataRole.UserRole + 1
MAX_CELL = 300  # server strings are clipped in cells (the detail pane shows them whole)


def _cell(value: Any) -> str:
    text = " ".join(str(value).split()) if value is not None else ""
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"


class ItemList(QWidget):
    """`set_items(items, row)`: `row(item)` gives the column texts. Emits `chosen(item)` on selection."""

    chosen = Signal(object)

    def __init__(self, title: str, columns: tuple[str, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.items: list[Any] = []
        self.heading = QLabel(title)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.status = QLabel("")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.status.setStyleSheet("QLabel { color: #c0392b; }")
        self.status.hide()
        self.tree = QTreeWidget()
        self.tree.setObjectName(title.lower().replace(" ", "_") + "_list")
        self.tree.setHeaderLabels(list(columns))
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setStretchLastSection(True)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.tree.currentItemChanged.connect(self._current_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.heading)
        layout.addWidget(self.status)
        layout.addWidget(self.tree, 1)
        self._filter = ""

    def set_items(
        self,
        items: list[Any],
        row: Callable[[Any], list[str]],
        findings: list[Finding] | None = None,
        *,
        keep: Callable[[Any], Any] | None = None,
    ) -> None:
        """Replace the list; the item whose `keep(item)` equals the selected one's stays selected."""
        selected = self.current()
        wanted = keep(selected) if keep is not None and selected is not None else None
        self.tree.blockSignals(True)
        self.tree.clear()
        self.items = [item for item in items if isinstance(item, dict)]
        restored = None
        for item in self.items:
            tree_item = QTreeWidgetItem([_cell(text) for text in row(item)])
            tree_item.setData(0, ITEM_ROLE, item)
            self.tree.addTopLevelItem(tree_item)
            if wanted is not None and keep is not None and keep(item) == wanted:
                restored = tree_item
        if restored is not None:
            self.tree.setCurrentItem(restored)
        self.tree.blockSignals(False)
        self.tree.resizeColumnToContents(0)
        self.tree.setColumnWidth(0, min(self.tree.columnWidth(0) + 12, 260))
        self.apply_filter(self._filter)
        problems = findings or []
        self.set_status("\n".join(f"⚠ {f}" for f in problems[:8]) + (" …" if len(problems) > 8 else ""))
        if restored is None and selected is not None:
            self.chosen.emit(None)

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))

    def apply_filter(self, text: str) -> None:
        self._filter = text.strip().lower()
        shown = 0
        for index in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(index)
            columns = range(self.tree.columnCount())
            visible = not self._filter or any(self._filter in item.text(c).lower() for c in columns)
            item.setHidden(not visible)
            shown += visible
        total = len(self.items)
        count = f"{total}" if shown == total else f"{shown} of {total}"
        self.heading.setText(f"{self.title} ({count})")

    def current(self) -> Any:
        item = self.tree.currentItem()
        return item.data(0, ITEM_ROLE) if item is not None else None

    def select(self, field: str, value: str) -> bool:
        for index in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(index)
            data = item.data(0, ITEM_ROLE)
            if isinstance(data, dict) and data.get(field) == value:
                self.tree.setCurrentItem(item)
                return True
        return False

    def mark(self, field: str, value: str, column: int, text: str) -> None:
        """Set one cell of the row whose `field` is `value` (e.g. a subscription dot)."""
        for index in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(index)
            data = item.data(0, ITEM_ROLE)
            if isinstance(data, dict) and data.get(field) == value:
                item.setText(column, text)

    def _current_changed(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        self.chosen.emit(current.data(0, ITEM_ROLE) if current is not None else None)
