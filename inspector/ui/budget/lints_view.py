"""The lints list: severity (symbol + word + colour), tool, message; double-click selects the tool."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QVBoxLayout, QWidget

from inspector.budget.lints import Lint
from inspector.ui.budget.common import SEVERITY_COLOR, SEVERITY_MARK, SEVERITY_ORDER
from inspector.ui.budget.table_base import RowsTableModel
from inspector.ui.widgets.plain_text import item_text, plain_label, safe_tooltip

COLUMNS = ("Severity", "Tool", "Message")


class LintsModel(RowsTableModel):
    columns = COLUMNS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.lints: list[Lint] = []

    def set_lints(self, lints: list[Lint]) -> None:
        self.beginResetModel()
        self.lints = sorted(lints, key=lambda lint: (SEVERITY_ORDER.get(lint.severity, 9), lint.tool or ""))
        self.endResetModel()

    def row_items(self) -> list[Any]:
        return self.lints

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        lint = self.lints[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return SEVERITY_MARK.get(lint.severity, lint.severity)
            if column == 1:
                return item_text(lint.tool) if lint.tool is not None else "(whole list)"
            return item_text(lint.message)
        if role == Qt.ItemDataRole.ForegroundRole and column == 0:
            return SEVERITY_COLOR.get(lint.severity)
        if role == Qt.ItemDataRole.ToolTipRole:
            return safe_tooltip(f"{lint.code} at {lint.path}\n{lint.message}")
        return None


class LintsView(QWidget):
    """Lints of the current report. `toolActivated(name)` on double-click of a lint about a tool."""

    toolActivated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LintsModel(self)
        self.summary = plain_label("Lints", selectable=True)
        self.table = QTableView()
        self.table.setObjectName("budgetLints")
        self.table.setAccessibleName("Lints")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.doubleClicked.connect(self._activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)

    def set_lints(self, lints: list[Lint]) -> None:
        self.model.set_lints(lints)
        counts = {sev: sum(1 for lint in lints if lint.severity == sev) for sev in ("error", "warning", "info")}
        parts = [f"{n} {sev}{'s' if n != 1 else ''}" for sev, n in counts.items() if n]
        self.summary.setText("Lints: " + (", ".join(parts) if parts else "none — nothing to fix"))

    def _activated(self, index: QModelIndex) -> None:
        lint = self.model.lints[index.row()]
        if lint.tool is not None:
            self.toolActivated.emit(lint.tool)
