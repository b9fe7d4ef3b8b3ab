"""The traffic log's table: uniform rows, sized columns, and a holder that shows only whole rows."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QObject, QSize, Qt, QTimer
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
    ColumnWidener(table, fitter, whole)
    return table


class ColumnWidener(QObject):
    """Widens `table`'s whole columns to the text of rows inserted (`_widen`) at once, then at most once per
    `every_ms` (500): the rows inserted meanwhile are measured together. A flood flushes a batch of rows every
    event-loop tick; measuring each batch took about a third of the window's time (tests/bench/bench_isolation.py).
    A reset (a record opened) is measured at once."""

    def __init__(self, table: QTableView, fitter: ColumnFitter, columns: tuple[int, ...]) -> None:
        super().__init__(table)
        self.table, self.fitter, self.columns = table, fitter, columns
        self.every_ms = 500
        self._first: int | None = None  # the rows inserted since the last measure
        self._last = -1
        self._quiet = QTimer(self)  # running: measured less than `every_ms` ago
        self._quiet.setSingleShot(True)
        self._quiet.timeout.connect(self._measure_pending)
        model = table.model()
        model.rowsInserted.connect(self._inserted)
        model.modelReset.connect(self._reset)

    def _inserted(self, _parent: object, first: int, last: int) -> None:
        self._first = first if self._first is None else min(self._first, first)
        self._last = max(self._last, last)
        if not self._quiet.isActive():
            self._measure_pending()

    def _measure_pending(self) -> None:
        first, last = self._first, min(self._last, self.table.model().rowCount() - 1)
        self._first, self._last = None, -1
        if first is not None and first <= last:
            _widen(self.table, self.fitter, self.columns, first, last)
            self._quiet.start(self.every_ms)

    def _reset(self) -> None:
        self._first, self._last = None, -1
        _widen(self.table, self.fitter, self.columns, 0, self.table.model().rowCount() - 1)


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
