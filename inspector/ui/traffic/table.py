"""The traffic log's table: uniform rows, sized columns, and a holder that shows only whole rows."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QTableView, QWidget

from inspector.traffic.labels import KIND_LABELS, STATUS_LABELS
from inspector.ui.traffic.model import COL_METHOD, COLUMNS
from inspector.ui.widgets.fit_columns import ColumnFitter, fit_columns
from inspector.ui.widgets.row_table import one_row_at_a_time

# The widest text each column shows, to size it once (Method takes what the others leave).
_WIDTHS = {
    "#": "00000",
    "Time": "00:00:00.000",
    "Server": "server-everything",
    "Δ ms": "00000.0",  # up to 100 s between two messages
    "": "→",
    "Method": "resources/templates/list",
    "ID": "00000",
    "Size": "000.0 KB",
    "Latency": "0000.0 ms",
}
_LABELS = {"Kind": KIND_LABELS, "Status": STATUS_LABELS}  # sized to their longest label: they never elide
# Numbers and times keep their width in a narrow window (an elided number is a wrong number), and so do
# the labels of Kind and Status: the free text columns (Server, Method) give way and elide instead.
_WHOLE = ("#", "Time", "Δ ms", "", "ID", "Size", "Latency")
_KEPT = (*_WHOLE, "Kind", "Status")
_MEASURED = 200  # rows of an inserted batch measured for `_widen`: a long record's import stays quick


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
        samples = _LABELS.get(name) or ((_WIDTHS[name],) if name in _WIDTHS else ())
        if samples:  # a whole column: its text's margins; one that gives way: some air
            pad = 10 if name in _KEPT else 16
            widths[column] = max(metrics.horizontalAdvance(text) for text in (*samples, name)) + pad
    whole = tuple(COLUMNS.index(name) for name in _WHOLE)
    fitter = fit_columns(table, kept=tuple(COLUMNS.index(name) for name in _KEPT))
    fitter.fill_with(COL_METHOD)
    fitter.want(widths)
    model.rowsInserted.connect(lambda _parent, first, last: _widen(table, fitter, whole, first, last))
    model.modelReset.connect(lambda: _widen(table, fitter, whole, 0, model.rowCount() - 1))
    return table


def _widen(table: QTableView, fitter: ColumnFitter, columns: tuple[int, ...], first: int, last: int) -> None:
    """Widen a whole column to a new row's text that its sample did not foresee (an hour's Δ ms, a
    six-digit #): the text columns give way. Only the last rows of a large batch are measured."""
    model, metrics = table.model(), table.fontMetrics()
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1) + 4
    wider = {}
    for column in columns:
        texts = (model.data(model.index(row, column)) for row in range(max(first, last - _MEASURED + 1), last + 1))
        need = max((metrics.horizontalAdvance(str(text)) for text in texts if text), default=0) + margin
        if need > fitter.wanted.get(column, 0):
            wider[column] = need
    if wider:
        fitter.want(wider)


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
