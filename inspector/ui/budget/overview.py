"""The Budget tab's main view: the sortable tools table with stacked bars, the chart, the lints."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.budget.breakdown import BudgetReport
from inspector.ui.budget.bars import Legend, StackedBarDelegate, TopToolsChart
from inspector.ui.budget.common import copy_buttons
from inspector.ui.budget.lints_view import LintsView
from inspector.ui.budget.tools_model import BAR_COLUMN, BudgetToolsModel, sorted_proxy
from inspector.ui.widgets.layout_parts import bare_column, named_splitter
from inspector.ui.widgets.row_table import one_row_at_a_time

BAR_WIDTH = 100  # px: the least width of the stacked bars
ROW_HEIGHT = 24  # px: one tool's row
LEAST_ROWS = 4  # the tools the table shows at the least


class BudgetOverview(QWidget):
    """`editRequested(name)` when a tool row is double-clicked (the pane opens it in the lab)."""

    editRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = BudgetToolsModel(self)
        self.proxy = sorted_proxy(self.model, self)
        self.table = QTableView()
        self.table.setObjectName("budgetTools")
        self.table.setAccessibleName("Tool costs")
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
        one_row_at_a_time(self.table)
        self.table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        # Four rows under the header at the least: on a 700 px screen the traffic dock gives way, not the list.
        self.table.setMinimumHeight(self.table.horizontalHeader().sizeHint().height() + LEAST_ROWS * ROW_HEIGHT + 2)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.doubleClicked.connect(self._double_clicked)
        self.table.setItemDelegateForColumn(BAR_COLUMN, StackedBarDelegate(self.model.max_total, self.table))
        # The tool names take the room left by the numbers and the bars, so that every header reads in full
        # without scrolling. The numbers are short: each number column is as wide as its header (the sort
        # arrow only on the sorted one; Qt's ResizeToContents reserves a header's height for it on every
        # column, ~30 px each, which left a tool name "s…g" at 1024 px) or its visible cells.
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setResizeContentsPrecision(0)  # cells measured: the visible rows only (1,000 tools would stall)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(BAR_COLUMN, QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(BAR_COLUMN, max(BAR_WIDTH, header.sectionSizeHint(BAR_COLUMN)))
        for signal in (self.proxy.modelReset, self.proxy.layoutChanged, self.proxy.rowsInserted):
            signal.connect(self._fit_numbers)
        header.sortIndicatorChanged.connect(self._fit_numbers)
        self._fit_numbers()

        self.chart = TopToolsChart()
        self.chart.setObjectName("budgetChart")
        self.lints = LintsView()
        self.lints.toolActivated.connect(self.select_tool)

        csv_button, md_button = copy_buttons(lambda: self.proxy, self)
        bar = QHBoxLayout()  # below the table: the legend (wraps when narrow), then the copy buttons
        bar.addWidget(Legend(), 1)
        bar.addWidget(csv_button, 0, Qt.AlignmentFlag.AlignTop)
        bar.addWidget(md_button, 0, Qt.AlignmentFlag.AlignTop)
        left, left_layout = bare_column()
        left_layout.setSpacing(2)
        left_layout.addWidget(self.table, 1)
        left_layout.addLayout(bar)

        self.top = named_splitter(
            "budgetTop", left, self.chart, sizes=[800, 260], stretch=(3, 1)
        )  # every column fits at 1024 px
        self.split = named_splitter(
            "budgetSplit", self.top, self.lints, sizes=[420, 170], vertical=True, stretch=(3, 1)
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split)

    def _fit_numbers(self, *_: object) -> None:
        """Each number column as wide as its header text (with the sort arrow when sorted by it) or its widest
        visible cell, whichever is wider."""
        header, table = self.table.horizontalHeader(), self.table
        style = header.style()
        margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        arrow = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header) + margin
        for column in range(1, self.proxy.columnCount()):
            if column == BAR_COLUMN:
                continue
            text = str(self.proxy.headerData(column, Qt.Orientation.Horizontal) or "")
            sorted_here = header.isSortIndicatorShown() and header.sortIndicatorSection() == column
            need = header.fontMetrics().horizontalAdvance(text) + 2 * margin + (arrow if sorted_here else 0) + 4
            table.setColumnWidth(column, max(need, table.sizeHintForColumn(column)))

    def show_report(self, report: BudgetReport | None) -> None:
        selected = self.selected_tool()
        self.model.set_report(report)
        self.chart.set_costs(report.tools if report else [], "Biggest tools (tokens)")
        self.lints.set_lints(report.lints if report else [])
        if selected:
            self.select_tool(selected)

    def _double_clicked(self, index: QModelIndex) -> None:
        self.editRequested.emit(self.model.costs[self.proxy.mapToSource(index).row()].name)

    def selected_tool(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        return self.model.costs[self.proxy.mapToSource(rows[0]).row()].name

    def select_tool(self, name: str) -> bool:
        row = self.model.row_of(name)
        if row < 0:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)
        return True
