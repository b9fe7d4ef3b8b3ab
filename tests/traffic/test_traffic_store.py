"""The recorder: classification, request↔response pairing, listeners, and the JSONL round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from factories import notification, request, response, rpc

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Entry, Kind
from inspector.traffic.store import TrafficStore

OUT, IN = Direction.OUT, Direction.IN


def _sample(store: TrafficStore) -> None:
    request(store, 1, "tools/call", {"name": "x"})
    notification(store, "notifications/progress", {})
    store.record_message(IN, "stdio", b'{"jsonrpc": "2.0", "id": "1", "result": {"isError": true, "content": []}}')
    store.record_message(IN, "stdio", b"not json at all \xff")
    store.record(IN, "stdio", Kind.STDERR, b"warning: something\r")
    response(store, 99, error={"code": -32601, "message": "nope"})
    store.record_message(OUT, "http", b'{\n  "jsonrpc": "2.0",\n  "id": 2,\n  "method": "ping"\n}', http={"url": "u"})


def test_classification_and_pairing() -> None:
    store = TrafficStore()
    _sample(store)
    request, progress, response, garbage, stderr, orphan, pretty = list(store)
    assert (request.kind, request.method, request.rpc_id) == (Kind.REQUEST, "tools/call", 1)
    assert progress.kind is Kind.NOTIFICATION and progress.method == "notifications/progress"
    assert response.peer_seq == request.seq and request.peer_seq == response.seq, "string id '1' pairs with 1"
    assert response.method == "tools/call" and response.latency_ms is not None and response.latency_ms >= 0
    assert response.is_tool_error and response.status == "isError"
    assert garbage.kind is Kind.UNPARSABLE and garbage.raw == b"not json at all \xff" and garbage.flagged
    assert stderr.kind is Kind.STDERR and stderr.parsed() is None
    assert orphan.kind is Kind.ERROR and orphan.error_code == -32601 and "unknown id" in orphan.notes
    assert orphan.status == "error -32601"
    assert pretty.kind is Kind.REQUEST and store.pending_requests() == [pretty]


def test_listeners_and_clear() -> None:
    store = TrafficStore()
    seen: list[int] = []
    cleared: list[bool] = []
    store.subscribe(lambda e: seen.append(e.seq), lambda: cleared.append(True))
    _sample(store)
    assert seen == [1, 2, 3, 4, 5, 6, 7]
    store.clear()
    assert len(store) == 0 and cleared == [True]
    store.record(IN, "stdio", Kind.STDERR, b"x")
    assert seen[-1] == 8, "sequence numbers keep growing after a clear"


def test_tool_error_only_counts_for_tools_call() -> None:
    store = TrafficStore()
    request(store, 1, "prompts/get")
    reply = response(store, 1, {"isError": True})
    assert not reply.is_tool_error


def test_pairing_is_per_transport_and_an_entry_may_name_its_source() -> None:
    """An MCP App's bridge ("app") numbers its ids from 1 as the session does: the two never pair."""
    store = TrafficStore(source="demo")
    session_call = request(store, 1, "tools/list")
    app_call = request(store, 1, "ui/initialize", transport="app", source="app")
    app_answer = response(store, 1, transport="app", source="app")
    session_answer = response(store, 1, {"tools": []})
    assert (app_answer.peer_seq, app_answer.method) == (app_call.seq, "ui/initialize")
    assert (session_answer.peer_seq, session_answer.method) == (session_call.seq, "tools/list")
    assert (app_call.source, session_call.source) == ("app", "demo")
    cancel = rpc(method="notifications/cancelled", params={"requestId": 2})
    pending = request(store, 2, "tools/call", transport="app")
    store.record_message(OUT, "stdio", cancel)
    assert "cancelled" not in pending.notes, "a cancel on the session does not touch the app's request"
    store.record_message(OUT, "app", cancel)
    assert "cancelled" in pending.notes


def _fields(entry: Entry) -> tuple:
    return (
        entry.seq, entry.wall, entry.mono, entry.direction, entry.transport, entry.kind, entry.raw,
        entry.parse_error, entry.rpc_id, entry.method, entry.peer_seq, entry.latency_ms, entry.error_code,
        entry.is_tool_error, entry.http, entry.notes,
    )  # fmt: skip


def test_jsonl_round_trip_is_identical(tmp_path: Path) -> None:
    store = TrafficStore()
    _sample(store)
    path = tmp_path / "session.jsonl"
    assert jsonl.save(path, store, meta={"server": "x"}) == 7
    loaded, meta = jsonl.load(path)
    assert meta == {"server": "x"}
    assert [_fields(e) for e in loaded] == [_fields(e) for e in store]


def test_jsonl_lines_contain_the_exact_wire_bytes(tmp_path: Path) -> None:
    store = TrafficStore()
    raw = b'{"jsonrpc": "2.0",   "id": 7, "result": {"b": 1, "a": "\\u00e9"}}'
    store.record_message(IN, "stdio", raw)
    line = jsonl.encode_entry(store[0])
    assert raw in line, "the server's bytes are spliced in verbatim, spacing and escapes included"
    assert json.loads(line)["msg"] == json.loads(raw)
    assert jsonl.decode_entry(line).raw == raw


def test_streamed_record_relinks_requests(tmp_path: Path) -> None:
    """`RecordWriter` writes a request before its response exists; loading pairs them again."""
    path = tmp_path / "rec.jsonl"
    store = TrafficStore()
    writer = jsonl.RecordWriter(path)
    store.subscribe(writer)
    _sample(store)
    writer.close()
    loaded, _ = jsonl.load(path)
    assert loaded[0].peer_seq == loaded[2].seq


@pytest.mark.parametrize(
    "content,message",
    [
        (b"", "first line"),
        (b'{"format": "something-else"}\n', "not an MCP Lens traffic record"),
        (b'{"format": "mcp-lens-traffic", "version": 99}\n', "newer"),
    ],
)
def test_jsonl_rejects_bad_files(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    with pytest.raises(jsonl.RecordFormatError, match=message):
        jsonl.load(path)


def test_jsonl_keeps_a_bad_entry_line_as_a_flagged_entry(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"format": "mcp-lens-traffic", "version": 1}\n{"seq": 1}\n')
    store, _meta, bad = jsonl.read(path)
    assert [(line.number, line.raw) for line in bad] == [(2, b'{"seq": 1}')]
    assert [(e.raw, e.flagged) for e in store] == [(b'{"seq": 1}', True)]


def test_a_tool_call_we_send_is_parsed_once_and_its_secret_arguments_learned(monkeypatch: pytest.MonkeyPatch) -> None:
    """Looking for secret-named arguments and recording the entry share one parse (each call paid two)."""
    sizes: list[int] = []
    real = json.loads

    def loads(raw, *args, **kwargs):  # type: ignore[no-untyped-def]
        sizes.append(len(raw))
        return real(raw, *args, **kwargs)

    store = TrafficStore()
    plain = rpc(id=6, method="tools/call", params={"name": "echo", "arguments": {"message": "hi"}})
    secret = rpc(id=7, method="tools/call", params={"name": "login", "arguments": {"apiToken": "s3cr3t-value-1234"}})
    monkeypatch.setattr(json, "loads", loads)
    store.record_message(OUT, "stdio", plain)
    assert sizes == [len(plain)]
    entry = store.record_message(OUT, "stdio", secret)
    assert b"s3cr3t-value-1234" not in entry.raw and entry.method == "tools/call"  # learned from that parse
    answer = b'{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"s3cr3t-value-1234"}]}}'
    assert b"s3cr3t-value-1234" not in store.record_message(IN, "stdio", answer).raw
