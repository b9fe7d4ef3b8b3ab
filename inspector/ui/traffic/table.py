"""The traffic log's table: uniform rows, sized columns, and a holder that shows only whole rows."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from inspector.ui.traffic.model import COLUMNS
from inspector.ui.widgets.fit_columns import fit_columns
from inspector.ui.widgets.row_table import one_row_at_a_time

# The widest text each column shows, to size it once (the last column, Status, stretches).
_WIDTHS = {
    "#": "00000",
    "Time": "00:00:00.000",
    "Server": "server-everything",
    "Δ ms": "00000.0",  # up to 100 s between two messages
    "": "→",
    "Kind": "app notification",
    "Method": "resources/templates/list",
    "ID": "00000",
    "Size": "000.0 KB",
    "Latency": "0000.0 ms",
}
# Numbers and times keep their width in a narrow window (an elided number is a wrong number): the text
# columns (Server, Kind, Method, Status) give way and elide instead.
_WHOLE = ("#", "Time", "Δ ms", "", "ID", "Size", "Latency")


def log_table(model: QAbstractItemModel, parent: QWidget | None = None) -> QTableView:
    """A table for the traffic model: one selected row, no editing, fixed row height, sized columns."""
    table = QTableView(parent)
    table.setAccessibleName("Traffic log")
    table.setModel(model)
    one_row_at_a_time(table)
    table.setShowGrid(False)
    table.setCornerButtonEnabled(False)
    table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
    # Row by row: with a viewport of whole rows (see `WholeRows`) the top row is never cut.
    table.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerItem)
    vertical = table.verticalHeader()
    vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform row heights
    vertical.setDefaultSectionSize(table.fontMetrics().height() + 6)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setStretchLastSection(True)
    metrics = table.fontMetrics()
    header.setMinimumSectionSize(metrics.horizontalAdvance("→") + 12)
    header.setDefaultSectionSize(metrics.horizontalAdvance("Status") + 24)  # the stretched Status column's minimum
    widths = {}
    for column, name in enumerate(COLUMNS):
        sample = _WIDTHS.get(name)
        if sample is not None:  # a whole column: its text's margins; one that gives way: some air
            pad = 10 if name in _WHOLE else 16
            widths[column] = max(metrics.horizontalAdvance(sample), metrics.horizontalAdvance(name)) + pad
    fit_columns(table, kept=tuple(COLUMNS.index(name) for name in _WHOLE)).want(widths)
    return table


class WholeRows(QWidget):
    """Holds a table and makes it as tall as a whole number of rows; the spare pixels stay blank below.

    A table scrolled to its end lines its last row up with the bottom edge: unless the viewport is a
    whole number of rows tall, the top row is then cut.
    """

    def __init__(self, table: QTableView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        table.setParent(self)
        table.horizontalScrollBar().rangeChanged.connect(self._fit)  # the scroll bar comes or goes

    def sizeHint(self) -> QSize:
        return self.table.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return self.table.minimumSizeHint()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self, *_: object) -> None:
        table = self.table
        row = table.verticalHeader().defaultSectionSize()
        fixed = 2 * table.frameWidth()
        header = table.horizontalHeader()
        if not header.isHidden():
            fixed += max(header.height(), header.sizeHint().height())
        bar = table.horizontalScrollBar()
        if table.horizontalScrollBarPolicy() != Qt.ScrollBarPolicy.ScrollBarAlwaysOff and bar.maximum() > 0:
            fixed += bar.sizeHint().height()
        spare = max(0, self.height() - fixed) % row if row > 0 else 0
        table.setGeometry(0, 0, self.width(), self.height() - spare)
