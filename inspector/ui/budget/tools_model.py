"""A thin Qt table model over a `BudgetReport`: one row per tool, sortable through a proxy."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from inspector.budget.breakdown import BudgetReport, ToolCost
from inspector.ui.budget.common import fmt_int
from inspector.ui.budget.table_base import RowsTableModel
from inspector.ui.widgets.plain_text import item_text, safe_tooltip

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
COST_ROLE = Qt.ItemDataRole.UserRole + 2  # the ToolCost, for the bar delegate

COLUMNS = ("Tool", "Tokens", "% of list", "Description", "Schema", "Rest", "Breakdown")
BAR_COLUMN = COLUMNS.index("Breakdown")
PART_LABELS = {
    "name": "name",
    "title": "title",
    "description": "description",
    "input_schema": "input schema",
    "property_descriptions": "  of which property descriptions",
    "output_schema": "output schema",
    "annotations": "annotations",
}


class BudgetToolsModel(RowsTableModel):
    columns = COLUMNS

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.report: BudgetReport | None = None
        self.costs: list[ToolCost] = []
        self._sum = 0

    def set_report(self, report: BudgetReport | None) -> None:
        self.beginResetModel()
        self.report = report
        self.costs = list(report.tools) if report is not None else []
        self._sum = sum(cost.total for cost in self.costs)
        self.endResetModel()

    def max_total(self) -> int:
        return max((cost.total for cost in self.costs), default=0)

    def row_items(self) -> list[Any]:
        return self.costs

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return {
                "Tokens": "Tokens of this tool alone, serialised in the chosen shape",
                "% of list": "This tool's share of the sum of all tools",
                "Schema": "Input schema + output schema",
                "Rest": "Name, title, annotations and JSON punctuation",
            }.get(COLUMNS[section])
        return super().headerData(section, orientation, role)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        cost = self.costs[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(cost, column)
        if role == SORT_ROLE:
            return cost.name.lower() if column == 0 else self._number(cost, column)
        if role == COST_ROLE:
            return cost
        if role == Qt.ItemDataRole.TextAlignmentRole and 0 < column < BAR_COLUMN:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(cost)
        return None

    def _number(self, cost: ToolCost, column: int) -> int:
        if column == 1 or column == 2 or column == BAR_COLUMN:
            return cost.total
        return (cost.description_tokens, cost.schema_tokens, cost.rest_tokens)[column - 3]

    def _text(self, cost: ToolCost, column: int) -> str:
        if column == 0:
            return item_text(cost.name)
        if column == 2:
            return f"{cost.total / self._sum * 100:.1f} %" if self._sum else "—"
        if column == BAR_COLUMN:
            return ""
        return fmt_int(self._number(cost, column))

    def _tooltip(self, cost: ToolCost) -> str:
        figure = self.report.figure if self.report is not None else ""
        lines = ["Token breakdown", f"{cost.name}: {cost.total:,} tokens{f' ({figure})' if figure else ''}"]
        lines += [f"{PART_LABELS.get(key, key)}: {value:,}" for key, value in cost.parts.items()]
        lines.append("Parts count each field on its own; JSON punctuation between them is in no part.")
        lines.append("Double-click to edit its descriptions in the Description lab.")
        return safe_tooltip("\n".join(lines))

    def row_of(self, name: str) -> int:
        return next((row for row, cost in enumerate(self.costs) if cost.name == name), -1)


def sorted_proxy(model: QAbstractTableModel, parent: Any = None) -> QSortFilterProxyModel:
    proxy = QSortFilterProxyModel(parent)
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    proxy.setSortCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    return proxy
