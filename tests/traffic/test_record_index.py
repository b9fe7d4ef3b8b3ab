"""A record indexed on disk lists, pairs and filters exactly as the same record loaded whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import call_result, notification, request, response
from lens_support import qt_only

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.record_index import RecordIndex
from inspector.traffic.record_store import RecordStore
from inspector.traffic.store import TrafficStore
from inspector.traffic.visible import VisibleRows

OUT, IN = Direction.OUT, Direction.IN


def sample_store() -> TrafficStore:
    store = TrafficStore()
    store.record(Direction.META, "stdio", Kind.LIFECYCLE, b"started pid 1: server")
    request(store, 1, "tools/call", {"name": "Echo"})
    store.record(IN, "stdio", Kind.STDERR, b'log \xff line "quoted" SEQ')
    response(store, 1, call_result(is_error=True))
    store.record_message(IN, "stdio", b"{not json")
    request(store, "a", "tools/list")
    response(store, "a", error={"code": -32601, "message": "No"})
    notification(store, "notifications/message", {"data": "Hi"})
    http = {"method": "POST", "url": "http://h/mcp", "headers": [["len", "1"]]}
    store.record_message(OUT, "http", b'{\n "jsonrpc": "2.0", "id": 2, "method": "ping"\n}', http=http)
    response(store, 99)  # unknown id: a note
    return store


def saved(tmp_path: Path, store: TrafficStore) -> Path:
    path = tmp_path / "record.jsonl"
    jsonl.save(path, store, {"server": "demo"})
    return path


def test_indexed_record_decodes_every_entry_as_load_does(tmp_path: Path) -> None:
    path = saved(tmp_path, sample_store())
    loaded, meta = jsonl.load(path)
    record = RecordStore(path)
    assert record.update() == len(loaded) == 10
    assert record.meta == meta == {"server": "demo"}
    assert list(record) == list(loaded)
    assert [record[i] for i in range(len(record))] == list(loaded)
    assert record[-1] == loaded[-1]
    assert record.by_seq(4) == loaded.by_seq(4) and record.index_of_seq(4) == 3 and record.by_seq(77) is None
    ix = record.index
    assert list(ix.sizes) == [e.size for e in loaded]
    assert [ix.name(code) for code in ix.methods] == [e.method for e in loaded]
    assert list(ix.seqs) == [e.seq for e in loaded]
    record.close()


def test_a_growing_record_is_indexed_incrementally_with_a_partial_last_line(tmp_path: Path) -> None:
    store = sample_store()
    path = tmp_path / "live.jsonl"
    lines = [jsonl.header({})] + [jsonl.encode_entry(e) for e in store]
    path.write_bytes(b"")
    record = RecordStore(path)
    heard: list[int] = []
    record.subscribe(lambda entry: heard.append(entry.seq))
    assert record.update() == 0, "an empty file (the tap just created it) is not an error"
    with open(path, "ab") as out:
        out.write(lines[0] + b"\n" + lines[1] + b"\n" + lines[2] + b"\n" + lines[3][:20])
        out.flush()
        assert record.update() == 2 and heard == [2]
        assert record.index.caught_up(), "a partial line is not something to index yet"
        out.write(lines[3][20:] + b"\n" + lines[4] + b"\n")
        out.flush()
        assert record.update() == 2 and heard == [2, 4]
        # The response (seq 4) names its request: the request learns its pair from the later line.
        assert record.by_seq(2).peer_seq == 4 and record.peer_seq_at(1) == 4
        for line in lines[5:]:
            out.write(line + b"\n")
    assert record.update(max_lines=3) == 3
    assert record.update() == 3
    assert list(record) == list(jsonl.load(path)[0])


FILTERS = [
    TrafficFilter(),
    TrafficFilter(text="tools/call"),
    TrafficFilter(text="ECHO"),
    TrafficFilter(text="seq"),
    TrafficFilter(text='"quoted"'),
    TrafficFilter(text="unknown id"),
    TrafficFilter(text="invalid json"),
    TrafficFilter(text="stderr"),
    TrafficFilter(text="jsonrpc", directions=frozenset({IN})),
    TrafficFilter(kinds=frozenset({Kind.REQUEST, Kind.ERROR})),
    TrafficFilter(errors_only=True),
    TrafficFilter(text="len"),
    TrafficFilter(text="ping"),
    TrafficFilter(text="msg"),
    TrafficFilter(text="echo", kinds=frozenset({Kind.REQUEST})),
    TrafficFilter(text="LOG", directions=frozenset({IN})),
    TrafficFilter(text="\\", errors_only=True),
]


@pytest.mark.parametrize("cost", [2000, -(10**12), 10**12], ids=["auto", "per-line", "scan"])
@pytest.mark.parametrize("flt", FILTERS, ids=[f"filter{n}" for n in range(len(FILTERS))])  # set reprs vary by process
def test_filter_from_the_index_matches_the_filter_on_entries(
    tmp_path: Path, flt: TrafficFilter, cost: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import inspector.traffic.record_store as record_store

    monkeypatch.setattr(record_store, "LINE_COST_BYTES", cost)
    path = saved(tmp_path, sample_store())
    loaded, _ = jsonl.load(path)
    record = RecordStore(path)
    record.update()
    expected = [i for i, entry in enumerate(loaded) if flt.matches(entry)]
    assert record.select(flt, 0, len(record)) == expected
    assert record.select(flt, 3, 8) == [i for i in expected if 3 <= i < 8]
    rows = VisibleRows(record)
    rows.set_filter(flt)
    assert rows.indexes == (expected if not flt.is_empty else [])
    growing = VisibleRows(record, flt)
    assert growing.take_new() == (0, expected)


def test_server_criterion_uses_the_recorded_server(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    store = sample_store()
    entries = list(store)
    for n, entry in enumerate(entries):
        entry.source = "alpha" if n % 2 else "beta"
    jsonl.save(path, entries)
    record = RecordStore(path)
    record.update()
    flt = TrafficFilter(servers=frozenset({"alpha"}))
    assert record.select(flt, 0, len(record)) == [1, 3, 5, 7, 9]


def test_transport_criterion_keeps_an_apps_bridge_messages(tmp_path: Path) -> None:
    path = tmp_path / "app.jsonl"
    entries = list(sample_store())
    for n, entry in enumerate(entries):
        entry.transport = "app" if n in (2, 5) else entry.transport
    jsonl.save(path, entries)
    record = RecordStore(path)
    record.update()
    flt = TrafficFilter(transports=frozenset({"app"}))
    assert not flt.is_empty and [i for i, e in enumerate(entries) if flt.matches(e)] == [2, 5]
    assert record.select(flt, 0, len(record)) == [2, 5]


def test_bad_lines_are_skipped_and_named(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = jsonl.encode_entry(sample_store()[1])
    odd = json.dumps({"seq": 1}).encode()
    path.write_bytes(jsonl.header() + b"\n<b>not json</b>\n" + good + b"\n[1]\n" + odd + b"\n")
    index = RecordIndex(path)
    assert index.update() == 1
    assert [n for n, _ in index.problems] == [2, 4, 5]
    index.close()


def test_not_a_record_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.jsonl"
    path.write_bytes(b'{"format": "something-else"}\n')
    with pytest.raises(jsonl.RecordFormatError, match="not an MCP Lens traffic record"):
        RecordIndex(path).update()


def test_a_line_longer_than_a_read_chunk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.traffic.record_index as record_index
    import inspector.traffic.record_store as record_store

    monkeypatch.setattr(record_index, "CHUNK", 64)
    monkeypatch.setattr(record_store, "SCAN_CHUNK", 64)
    path = saved(tmp_path, sample_store())
    record = RecordStore(path)
    assert record.update() == 10
    assert list(record) == list(jsonl.load(path)[0])
    assert record.select(TrafficFilter(text="echo"), 0, 10) == [1]


@qt_only("the benchmark's viewer child")
def test_the_records_benchmark_runs_small(tmp_path: Path) -> None:
    """A smoke run of tests/bench/bench_records.py (the real one makes a 1 GB record; not in the suite)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "MCP_LENS_BENCH_RECORDS": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, str(root / "tests/bench/bench_records.py"), "--messages", "3000"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "indexed: fully indexed" in out.stdout and "live: viewer behind" in out.stdout
