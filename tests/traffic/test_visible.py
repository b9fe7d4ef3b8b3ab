"""VisibleRows: the filtered index of store entries a traffic log shows, without Qt."""

from __future__ import annotations

from factories import call_result, response, tool_call

from inspector.traffic.entry import Direction, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.store import TrafficStore
from inspector.traffic.visible import VisibleRows

OUT, IN = Direction.OUT, Direction.IN


def shown(rows: VisibleRows) -> list[int]:
    return [rows.entry_at(r).seq for r in range(len(rows))]  # type: ignore[union-attr]


def test_new_entries_are_seen_only_when_taken() -> None:
    store = TrafficStore()
    rows = VisibleRows(store)
    tool_call(store, 1)
    tool_call(store, 2)
    assert len(rows) == 0 and rows.committed == 0 and rows.row_of_seq(1) is None, "nothing until taken"
    start, new = rows.take_new()
    assert (start, new, rows.committed) == (0, [0, 1], 2)
    assert len(rows) == 0, "taken, not yet shown: the adapter extends after its begin-insert"
    rows.extend(new)
    assert shown(rows) == [1, 2] and rows.row_of_seq(2) == 1 and rows.row_of_seq(99) is None
    assert rows.take_new() == (2, []), "nothing new"
    assert rows.entry_at(2) is None and rows.entry_at(-1) is None


def test_a_filter_rebuilds_the_index_and_applies_to_new_entries() -> None:
    store = TrafficStore()
    rows = VisibleRows(store)
    tool_call(store, 1, "Weather")
    response(store, 1, call_result())
    tool_call(store, 2, "other")
    store.record(IN, "stdio", Kind.STDERR, b"WEATHER service log line")
    rows.extend(rows.take_new()[1])

    assert rows.set_filter(TrafficFilter(text="weather"))
    assert shown(rows) == [1, 4] and rows.committed == 4
    assert not rows.set_filter(TrafficFilter(text="weather")), "the same filter: nothing to rebuild"
    assert rows.set_filter(TrafficFilter(directions=frozenset([OUT])))
    assert shown(rows) == [1, 3] and rows.row_of_seq(2) is None and rows.row_of_seq(3) == 1

    tool_call(store, 3)
    store.record(IN, "stdio", Kind.STDERR, b"unrelated")
    start, new = rows.take_new()
    assert start == 4 and new == [4], "only the matching new entry"
    rows.extend(new)
    assert shown(rows) == [1, 3, 5]
    assert rows.set_filter(TrafficFilter())
    assert shown(rows) == [1, 2, 3, 4, 5, 6] and len(store) == 6, "the store never changes"


def test_an_entry_flagged_later_finds_its_place_under_errors_only() -> None:
    store = TrafficStore()
    rows = VisibleRows(store, TrafficFilter(errors_only=True))
    tool_call(store, 1)
    tool_call(store, 2)
    response(store, 2, error={"code": -1, "message": "boom"})
    rows.extend(rows.take_new()[1])
    assert shown(rows) == [3]
    first = store[0]
    assert rows.place_for(0) is None, "not flagged: it stays hidden"
    store.note(first, "no response")
    assert first.flagged
    row = rows.place_for(0)
    assert row == 0
    rows.insert(row, 0)
    assert shown(rows) == [1, 3] and rows.place_for(0) is None, "shown already"
    tool_call(store, 4)
    assert rows.place_for(3) is None, "not committed yet"


def test_peers_are_the_earlier_requests_a_batch_answers() -> None:
    store = TrafficStore()
    rows = VisibleRows(store)
    tool_call(store, 1)
    tool_call(store, 2)
    rows.extend(rows.take_new()[1])
    response(store, 2)
    response(store, 1)
    start, _new = rows.take_new()
    assert rows.peers_of(start, rows.committed) == [1, 0]
    assert rows.peers_of(0, 2) == [], "requests answered in the same batch are not earlier rows"


def test_clear_forgets_rows_and_lookups() -> None:
    store = TrafficStore()
    rows = VisibleRows(store)
    tool_call(store, 1)
    rows.extend(rows.take_new()[1])
    store.clear()
    rows.clear()
    assert len(rows) == 0 and rows.committed == 0 and rows.row_of_seq(1) is None
    tool_call(store, 1)
    assert rows.take_new() == (0, [0])
