"""What a call costs the Tools tab to show: calls in flight and the History, against the demo server.

Each call used to build a row of widgets for the calls panel and show and hide that panel (the whole tab
laid out twice), and the History measured every row's text again for each call added: together most of
the window's CPU per call (tests/bench/bench_isolation.py). A call gets its row only once it has run a
while, and the History measures only the row added.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QStyledItemDelegate
from ui_support import connect

from inspector.core.history import OK, CallRecord
from inspector.ui.main_window import MainWindow
from inspector.ui.tools.call_panels import HistoryView


class _Shows(QObject):
    """Counts the Show events of the widget it watches."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show:
            self.count += 1
        return False


def test_a_call_that_ends_before_its_row_is_due_never_shows_the_calls_panel(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    bench.calls.SHOW_AFTER_MS = 60_000  # every call here ends sooner, however loaded the machine
    shows = _Shows()
    bench.calls.installEventFilter(shows)
    assert bench.tools.select("echo")
    for number in range(3):
        bench.form.set_arguments({"message": f"call {number}"})
        record = bench.call_current()
        assert record is not None
        qtbot.waitUntil(lambda r=record: r.done, timeout=30_000)
        assert record.outcome == OK, record.error
    assert shows.count == 0, "the calls panel was shown (and laid the tab out) for calls that had ended"
    assert not bench.calls.rows and not bench.calls.pending
    assert bench.history.records[0] is record, "History lists the call all the same"


def test_a_slow_call_gets_its_row_once_due_and_loses_it_when_done(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    bench = window.workbench
    assert bench.tools.select("slow_task")
    bench.form.set_arguments({"steps": 10, "delay": 0.5})
    record = bench.call_current()
    qtbot.waitUntil(lambda: record.id in bench.calls.rows and bench.calls.isVisible(), timeout=30_000)
    assert bench.calls.rows[record.id].cancel.isVisible()
    bench.calls.rows[record.id].cancel.click()
    qtbot.waitUntil(lambda: record.done, timeout=30_000)
    assert record.id not in bench.calls.rows and not bench.calls.isVisible()


class _CountingDelegate(QStyledItemDelegate):
    def __init__(self) -> None:
        super().__init__()
        self.measured = 0

    def sizeHint(self, option, index):
        self.measured += 1
        return super().sizeHint(option, index)


def _record(number: int, tool: str = "echo") -> CallRecord:
    record = CallRecord(tool=tool, arguments={"message": f"call {number}"}, handle=None)
    record.finish({"content": []})
    return record


def test_a_call_added_to_a_long_history_measures_only_its_own_row(qtbot) -> None:
    history = HistoryView()
    qtbot.addWidget(history)
    delegate = _CountingDelegate()
    history.table.setItemDelegate(delegate)
    history.resize(900, 400)
    history.show()
    for number in range(200):
        history.update_call(_record(number))
    qtbot.wait(50)  # laid out and painted
    delegate.measured = 0
    long_name = "a_tool_with_a_rather_long_name_indeed"
    history.update_call(_record(200, long_name))
    qtbot.wait(50)
    columns = history.table.columnCount()
    assert delegate.measured <= columns, f"{delegate.measured} cells measured for one call added"
    tool = history.COLUMNS.index("Tool")
    needed = history.table.fontMetrics().horizontalAdvance(long_name)
    assert history.table.columnWidth(tool) >= needed, "the Tool column does not show the new name whole"
