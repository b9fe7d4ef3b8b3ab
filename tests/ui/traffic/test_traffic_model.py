"""TrafficModel and TrafficFilter over a pure TrafficStore: columns, pairing, batching, filtering."""

from __future__ import annotations

from factories import call_result, notification, request, response, rpc, tool_call
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from inspector.content import human_size
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.model import (
    COL_DELTA,
    COL_DIR,
    COL_ID,
    COL_KIND,
    COL_LATENCY,
    COL_METHOD,
    COL_SEQ,
    COL_SIZE,
    COL_STATUS,
    COL_TIME,
    FLAG_BRUSH,
    PEER_BRUSH,
    ROUND_BRUSH,
    TrafficModel,
)

OUT, IN = Direction.OUT, Direction.IN
DISPLAY, BACKGROUND, TOOLTIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ToolTipRole


def cell(model: TrafficModel, row: int, column: int, role: int = DISPLAY) -> object:
    return model.data(model.index(row, column), role)


def settle(qtbot, model: TrafficModel) -> None:
    qtbot.waitUntil(lambda: model.total() == len(model.store), timeout=5000)


def test_columns_and_status(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    tool_call(store, 7)
    notification(store, "notifications/message", {"level": "info", "data": "x"})
    response(store, 7, call_result(is_error=True))
    response(store, "abc", error={"code": -32601, "message": "nope"})
    store.record_message(IN, "stdio", b"garbage \xff")
    store.record(Direction.META, "stdio", Kind.LIFECYCLE, b"process exited with code 0")
    settle(qtbot, model)
    assert model.rowCount() == 6 and model.columnCount() == 11  # Server shows once a second server records
    assert [cell(model, 0, c) for c in (COL_SEQ, COL_DIR, COL_KIND, COL_METHOD, COL_ID)] == [
        "1",
        "→",
        "request",
        "tools/call",
        "7",
    ]
    time_text = cell(model, 0, COL_TIME)
    assert len(time_text) == 12 and time_text[2] == ":" and time_text[8] == "."
    assert cell(model, 0, COL_DELTA) == "" and float(cell(model, 1, COL_DELTA)) >= 0
    assert cell(model, 0, COL_SIZE) == human_size(store[0].size, short=True)
    assert cell(model, 1, COL_DIR) == "←" and cell(model, 5, COL_DIR) == "•"
    assert cell(model, 2, COL_LATENCY).endswith(" ms") and cell(model, 0, COL_LATENCY) == ""
    assert cell(model, 2, COL_STATUS) == "isError" and cell(model, 3, COL_STATUS) == "error -32601"
    assert cell(model, 3, COL_ID) == '"abc"', "string ids are shown quoted, distinct from numbers"
    assert cell(model, 4, COL_STATUS) == "unparsable" and cell(model, 4, COL_METHOD) == "garbage \ufffd"
    assert cell(model, 5, COL_METHOD) == "process exited with code 0", "text preview for entries without a method"
    assert cell(model, 0, COL_STATUS, BACKGROUND) is None
    assert cell(model, 2, COL_STATUS, BACKGROUND) == FLAG_BRUSH and cell(model, 4, COL_SEQ, BACKGROUND) == FLAG_BRUSH
    assert "parse error" in cell(model, 4, COL_STATUS, TOOLTIP) and "unknown id" in cell(model, 3, COL_STATUS, TOOLTIP)
    assert model.entry_at(2) is store[2] and model.entry_at(99) is None
    assert model.row_of_seq(store[3].seq) == 3 and model.row_of_seq(12345) is None


def test_pairing_highlight_and_late_response(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    tool_call(store, 1)
    notification(store, "notifications/progress", {})
    settle(qtbot, model)
    changed: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom, *_: changed.append((top.row(), bottom.row())))
    store.record_message(IN, "stdio", rpc(id=1, result=call_result()))
    settle(qtbot, model)
    assert any(top <= 0 <= bottom for top, bottom in changed), "the request's row repaints when its response arrives"
    request, response = store[0], store[2]
    assert request.peer_seq == response.seq
    model.set_selected_seq(request.seq)
    assert cell(model, 2, COL_METHOD, BACKGROUND) == PEER_BRUSH
    assert cell(model, 1, COL_METHOD, BACKGROUND) is None
    assert model.is_peer_row(2) and not model.is_peer_row(0)
    model.set_selected_seq(response.seq)
    assert cell(model, 0, COL_METHOD, BACKGROUND) == PEER_BRUSH and cell(model, 2, COL_METHOD, BACKGROUND) is None


def test_appends_are_batched_once_per_tick(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    inserts: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserts.append((first, last)))
    for n in range(10_000):
        notification(store, "notifications/message", {"level": "info", "data": n})
    assert model.rowCount() == 0, "nothing is inserted synchronously from the store listener"
    settle(qtbot, model)
    assert model.rowCount() == 10_000
    assert 1 <= len(inserts) <= 3, inserts
    assert inserts[0][0] == 0 and inserts[-1][1] == 9_999
    assert cell(model, 9_999, COL_SEQ) == "10000"
    QGuiApplication.processEvents()


def test_filter_rebuilds_index_and_follows_appends(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    tool_call(store, 1, "Weather")
    response(store, 1, call_result("sunny"))
    tool_call(store, 2, "other")
    response(store, 2, error={"code": -32000, "message": "boom"})
    store.record(IN, "stdio", Kind.STDERR, b"WEATHER service log line")
    settle(qtbot, model)
    counts: list[tuple[int, int]] = []
    model.countsChanged.connect(lambda shown, total: counts.append((shown, total)))

    model.set_filter(TrafficFilter(text="weather"))
    assert [model.entry_at(r).seq for r in range(model.rowCount())] == [1, 5], "case-insensitive, raw bytes"
    assert counts[-1] == (2, 5)
    model.set_filter(TrafficFilter(kinds=frozenset([Kind.ERROR])))
    assert [model.entry_at(r).seq for r in range(model.rowCount())] == [4]
    model.set_filter(TrafficFilter(errors_only=True))
    assert [model.entry_at(r).seq for r in range(model.rowCount())] == [4]
    model.set_filter(TrafficFilter(directions=frozenset([OUT])))
    assert [model.entry_at(r).seq for r in range(model.rowCount())] == [1, 3]
    assert model.row_of_seq(2) is None and model.row_of_seq(3) == 1

    model.set_filter(TrafficFilter(text="tools/call"))  # matches requests by bytes, responses by method
    shown = [model.entry_at(r).seq for r in range(model.rowCount())]
    assert shown == [1, 2, 3, 4]
    tool_call(store, 3)
    store.record(IN, "stdio", Kind.STDERR, b"unrelated")
    response(store, 3)
    settle(qtbot, model)
    assert [model.entry_at(r).seq for r in range(model.rowCount())] == [1, 2, 3, 4, 6, 8]
    assert counts[-1] == (6, 8)

    model.set_filter(TrafficFilter())
    assert model.rowCount() == 8 and len(store) == 8, "the store itself never changes"


def test_filter_matches_notes_and_method() -> None:
    store = TrafficStore()
    entry = store.record(IN, "stdio", Kind.HTTP_META, b"HTTP 500", notes=["HTTP 500 body"])
    assert TrafficFilter(text="500 BODY").matches(entry)
    assert TrafficFilter(text="http-meta").matches(entry)
    assert not TrafficFilter(text="nothing like it").matches(entry)
    assert TrafficFilter().is_empty and not TrafficFilter(text=" x ").is_empty
    assert TrafficFilter(text="   ").is_empty


def test_clear_resets_rows(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    for n in range(5):
        tool_call(store, n)
    settle(qtbot, model)
    store.clear()
    assert model.rowCount() == 0 and model.total() == 0
    tool_call(store, 1)
    settle(qtbot, model)
    assert model.rowCount() == 1 and model.entry_at(0) is store[0]


def test_a_note_added_later_repaints_the_row_and_errors_only_shows_it(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    tool_call(store, 1)
    tool_call(store, 2)
    store.record_message(IN, "stdio", rpc(id=2, result=call_result()))
    settle(qtbot, model)
    model.set_filter(TrafficFilter(errors_only=True))
    assert model.rowCount() == 0
    changed: list[int] = []
    model.dataChanged.connect(lambda first, last: changed.append(first.row()))
    seen: list[int] = []
    model.entryChanged.connect(seen.append)
    (request,) = store.abandon_pending("no response: the process exited")
    assert [model.entry_at(r) for r in range(model.rowCount())] == [request], "now flagged: shown"
    assert cell(model, 0, COL_STATUS) == "no reply"  # short: the tooltip says it whole
    assert "no response: the process exited" in str(cell(model, 0, COL_STATUS, int(Qt.ItemDataRole.ToolTipRole.value)))
    assert cell(model, 0, COL_STATUS, BACKGROUND) == FLAG_BRUSH
    model.set_filter(TrafficFilter())
    response = store[2]
    store.note(response, "finding: $.content: empty")
    assert changed == [2] and seen == [request.seq, response.seq]
    assert cell(model, 2, COL_STATUS) == "finding"  # the tooltip holds the note whole


def test_the_rounds_of_one_call_are_named_and_tinted_together(qtbot) -> None:
    store = TrafficStore()
    model = TrafficModel(store)
    first = {"name": "order_coffee", "arguments": {}}
    request(store, 1, "tools/call", first)
    asked = {"resultType": "input_required", "inputRequests": {"k": {"method": "roots/list"}}, "requestState": "s1"}
    response(store, 1, asked)
    retry = {**first, "inputResponses": {"k": {"roots": []}}, "requestState": "s1", "_meta": {"progressToken": 2}}
    request(store, 2, "tools/call", retry)
    response(store, 2, call_result())
    tool_call(store, 3)  # another call, not part of the group
    settle(qtbot, model)
    assert store.mark_round(1, "tools/call", first, group=7, title="round 1 of tools/call order_coffee")
    del retry["_meta"]  # the envelope aside, the params as the driver built them
    assert store.mark_round(3, "tools/call", retry, group=7, title="round 2 of tools/call order_coffee")
    assert cell(model, 2, COL_METHOD) == "tools/call  ·  round 2 of tools/call order_coffee"
    assert cell(model, 4, COL_METHOD) == "tools/call"
    tip = str(cell(model, 2, COL_METHOD, TOOLTIP))
    assert "answers: k" in tip and "requestState: opaque server state (2 bytes)" in tip, tip
    assert "asks for input: k" in str(cell(model, 1, COL_METHOD, TOOLTIP))
    model.set_selected_seq(store[2].seq)
    assert cell(model, 0, COL_METHOD, BACKGROUND) == ROUND_BRUSH
    assert cell(model, 3, COL_METHOD, BACKGROUND) == PEER_BRUSH  # its own response
    assert cell(model, 4, COL_METHOD, BACKGROUND) is None
