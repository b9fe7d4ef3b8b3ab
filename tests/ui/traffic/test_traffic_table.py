"""The traffic log's table: its whole columns widen to new rows' text, measured a few times a second.

The flood bench (tests/bench/bench_isolation.py) spent about a third of the window's time measuring the
last 200 rows of every batch the model flushed (a batch per event-loop tick): rows inserted in quick
succession are now measured together, at most once per `ColumnWidener.every_ms`.
"""

from __future__ import annotations

from factories import notification

from inspector.traffic.store import SeqCounter, TrafficStore
from inspector.ui.traffic.model import COL_SEQ, TrafficModel
from inspector.ui.traffic.table import ColumnWidener, log_table

BATCH, BATCHES = 20, 30


def _flush(qtbot, store: TrafficStore, model: TrafficModel) -> None:
    for _ in range(BATCH):
        notification(store, "notifications/message", {"level": "info", "data": "x"})
    qtbot.waitUntil(lambda: model.total() == len(store), timeout=30_000)


def test_rows_flushed_in_quick_succession_are_measured_together(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    table = log_table(model)
    qtbot.addWidget(table)
    asked: list[int] = []
    data = model.data
    model.data = lambda index, *role: asked.append(index.row()) or data(index, *role)  # what Python asks
    widener = table.findChild(ColumnWidener)
    widener.every_ms = 600_000  # no second measure within the test, however slow the machine
    for _ in range(BATCHES):
        _flush(qtbot, store, model)
    assert model.rowCount() == BATCH * BATCHES
    measured_rows = len(set(asked))
    assert measured_rows <= BATCH, f"{measured_rows} rows measured for {BATCHES} flushes: each flush measured"


def test_a_wider_number_widens_its_column_soon_after(qtbot) -> None:
    seqs = SeqCounter()
    store = TrafficStore(seqs=seqs)
    model = TrafficModel(store)
    table = log_table(model)
    qtbot.addWidget(table)
    for _ in range(BATCHES):
        _flush(qtbot, store, model)
    seqs.next = 12_345_678  # a long session's sequence numbers
    _flush(qtbot, store, model)
    text = str(model.data(model.index(model.rowCount() - 1, COL_SEQ)))
    assert len(text) == 8, text
    needed = table.fontMetrics().horizontalAdvance(text)
    qtbot.waitUntil(lambda: table.columnWidth(COL_SEQ) >= needed, timeout=30_000)
