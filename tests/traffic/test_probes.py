"""MCP Lens's own probes, fallbacks and teardown are a kind of their own: marked as sent, their answers
and HTTP exchanges with them, out of "Errors only" unless broken; the same in a record opened from disk."""

from __future__ import annotations

from pathlib import Path

from factories import request, response, rpc

from inspector.traffic import jsonl
from inspector.traffic.entry import ERA_PROBE, TEARDOWN, Direction, Entry, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.record_store import RecordStore
from inspector.traffic.store import TrafficStore

OUT, IN = Direction.OUT, Direction.IN
DISCOVER = rpc(id=1, method="server/discover", params={})
REFUSED = rpc(id=1, error={"code": -32601, "message": "Method not found"})


def probed_store() -> TrafficStore:
    store = TrafficStore()
    with store.probing("server/discover", ERA_PROBE):
        store.record_message(OUT, "stdio", DISCOVER)
    store.record_message(IN, "stdio", REFUSED)  # the answer comes after: paired, so a probe too
    request(store, 2, "tools/list")
    response(store, 2, error={"code": -32603, "message": "boom"})
    # over HTTP: the status line and the body of the exchange that carried a probe are the probe's
    http = {"method": "POST", "url": "http://h/mcp", "headers": []}
    with store.probing("server/discover", ERA_PROBE):
        sent = store.record_message(OUT, "http", DISCOVER.replace(b":1", b":3"), http=http)
    store.record(
        IN, "http", Kind.HTTP_META, b"HTTP 400 Bad Request", http={"request_seq": sent.seq}, notes=["HTTP 400"]
    )
    store.record(IN, "http", Kind.HTTP_META, b'{"error":1}', http={"request_seq": sent.seq}, notes=["HTTP 400 body"])
    # a listen stream we end ourselves: its cancellation notes are no flag
    listen = request(store, 4, "subscriptions/listen")
    store.note(listen, "cancelled")
    store.mark_probe(listen, TEARDOWN)
    return store


def methods(entries: list[Entry]) -> list[tuple[str | None, str]]:
    return [(e.method, e.kind.value) for e in entries]


def test_probes_are_marked_and_out_of_errors_only() -> None:
    store = probed_store()
    assert [e.probe for e in store] == [ERA_PROBE, ERA_PROBE, None, None, ERA_PROBE, ERA_PROBE, ERA_PROBE, TEARDOWN]
    errors = [e for e in store if TrafficFilter(errors_only=True).matches(e)]
    assert methods(errors) == [("tools/list", "error")]  # only the failure that matters
    probes = [e for e in store if TrafficFilter(probes=True).matches(e)]
    assert len(probes) == 6 and all(e.marked for e in probes)
    assert [e.seq for e in store if TrafficFilter(text="era probe").matches(e)] == [1, 2, 5, 6, 7]


def test_a_broken_answer_to_a_probe_still_counts() -> None:
    store = TrafficStore()
    with store.probing("server/discover", ERA_PROBE):
        store.record_message(OUT, "stdio", DISCOVER)
    store.record_message(IN, "stdio", b"{not json")
    assert [e.flagged for e in store] == [False, True]


def test_a_record_on_disk_keeps_probes(tmp_path: Path) -> None:
    path = tmp_path / "record.jsonl"
    jsonl.save(path, probed_store())
    loaded, _meta = jsonl.load(path)
    assert [e.probe for e in loaded] == [e.probe for e in probed_store()]
    record = RecordStore(path)
    record.update()
    errors = record.select(TrafficFilter(errors_only=True), 0, len(record))
    assert [record[i].method for i in errors] == ["tools/list"]
    assert len(record.select(TrafficFilter(probes=True), 0, len(record))) == 6
    assert [record[i].probe for i in range(len(record))][:2] == [ERA_PROBE, ERA_PROBE]
