"""A damaged record opens with everything intact in it; each damaged line is kept (number, bytes) and said."""

from __future__ import annotations

import os
import stat

from factories import exchange, request, response
from lens_support import posix_only

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.record_store import RecordStore
from inspector.traffic.store import TrafficStore


def a_record(tmp_path, count: int = 70):
    store = TrafficStore()
    for n in range(count // 2):
        request(store, n, "ping")
        response(store, n)
    path = tmp_path / "record.jsonl"
    jsonl.save(path, store)
    return path, store


def damage_line(path, number: int, replacement: bytes) -> bytes:
    lines = path.read_bytes().split(b"\n")
    old = lines[number - 1]
    lines[number - 1] = replacement
    path.write_bytes(b"\n".join(lines))
    return old


def test_a_bad_line_in_the_middle_keeps_every_other_entry_and_its_bytes(tmp_path) -> None:
    path, original = a_record(tmp_path)
    for bad in (b'{"msg":{"jsonrpc":"2.0","id', b"\xff\xfe not json", b'{"seq": "x"}'):
        damage_line(path, 30, bad)
        store, _meta, problems = jsonl.read(path)
        intact = [e for e in store if e.transport != jsonl.BAD_LINE_TRANSPORT]
        assert len(intact) == 69
        assert [p.number for p in problems] == [30] and problems[0].raw == bad and not problems[0].cut
        [flagged] = [e for e in store if e.transport == jsonl.BAD_LINE_TRANSPORT]
        assert flagged.kind is Kind.UNPARSABLE and flagged.flagged and flagged.raw == bad
        assert "line 30" in (flagged.parse_error or "")
        jsonl.save(path, original)


def test_a_cut_last_line_is_said(tmp_path) -> None:
    path, _store = a_record(tmp_path)
    whole = path.read_bytes()
    path.write_bytes(whole[:-15])
    store, _meta, problems = jsonl.read(path)
    assert len([e for e in store if e.transport != jsonl.BAD_LINE_TRANSPORT]) == 69
    [cut] = problems
    assert cut.cut and cut.number == 71 and "cut off" in cut.describe()


def test_the_indexed_record_keeps_the_bytes_of_a_damaged_line(tmp_path) -> None:
    path, _store = a_record(tmp_path)
    damage_line(path, 30, b"\xc3\x28 garbage")
    record = RecordStore(path)
    record.update()
    assert len(record) == 69
    [bad] = record.index.damaged
    assert bad.number == 30 and bad.raw == b"\xc3\x28 garbage"
    record.close()


def test_a_cut_last_line_of_an_indexed_record_is_noted(tmp_path) -> None:
    path, _store = a_record(tmp_path)
    path.write_bytes(path.read_bytes()[:-15])
    record = RecordStore(path)
    record.update()
    assert len(record) == 69
    cut = record.index.cut_tail()
    assert cut is not None and cut.cut and cut.number == 71
    record.close()


def test_load_opens_a_record_with_a_bad_line(tmp_path) -> None:
    """What refused the whole file before (RecordFormatError): 69 entries and the bad line, flagged."""
    path, _store = a_record(tmp_path)
    damage_line(path, 30, b"garbage")
    store, _meta = jsonl.load(path)
    assert len(store) == 70 and store[69].raw == b"garbage" and store[69].flagged


@posix_only("file modes (Windows gets a user-only ACL instead: tests/platform)")
def test_saved_records_and_streamed_records_are_user_only(tmp_path) -> None:
    old = os.umask(0o022)
    try:
        check_user_only(tmp_path)
    finally:
        os.umask(old)


def check_user_only(tmp_path) -> None:
    path, store = a_record(tmp_path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    streamed = tmp_path / "streamed.jsonl"
    streamed.write_bytes(b"old")
    os.chmod(streamed, 0o644)
    writer = jsonl.RecordWriter(streamed)
    writer(store[0])
    writer.close()
    assert stat.S_IMODE(os.stat(streamed).st_mode) == 0o600
    assert jsonl.read(streamed)[0][0].raw == store[0].raw


def test_a_request_left_unanswered_when_the_server_exited_reads_no_answer(tmp_path) -> None:
    from inspector.traffic.entry import Kind

    store = exchange("ping")
    request(store, 2, "tools/list")
    store.record(Direction.META, "stdio", Kind.LIFECYCLE, b"process exited with code 1")
    path = tmp_path / "exited.jsonl"
    jsonl.save(path, store)
    record = RecordStore(path)
    record.update()
    assert record[2].status == "ok"  # before anyone knows the record is complete
    assert record.check_ended() and "exited" in (record.ended or "")
    assert record[0].status == "ok" and record[2].status.startswith("no answer") and record[2].flagged
    record.close()


def test_a_tap_record_with_a_damaged_header_is_still_listed_and_opens(tmp_path) -> None:
    from inspector.tap.paths import list_records

    folder = tmp_path / "taps"
    folder.mkdir()
    path, _store = a_record(folder)
    damage_line(path, 1, b'{"format": "mcp-lens-traffic", "vers\xff')
    [listed] = list_records(folder)
    assert listed.path == path and listed.name == path.stem and not listed.live
    record = RecordStore(path)
    record.update()
    assert len(record) == 70 and [bad.number for bad in record.index.damaged] == [1]
    record.close()
    store, _meta, bad = jsonl.read(path)
    assert len([e for e in store if e.transport != jsonl.BAD_LINE_TRANSPORT]) == 70 and bad[0].number == 1


def test_a_lone_surrogate_in_a_raw_line_is_kept_as_its_bytes(tmp_path) -> None:
    """Found by the damage harness in CI: the bytes of a UTF-16 surrogate inside a "raw" string (or its
    "\\ud800" escape) made the reader raise UnicodeEncodeError instead of showing the entry."""
    from inspector.traffic import jsonl

    for raw in (b"stderr \xed\xa0\x80 line", b"stderr \\ud800 line"):
        line = b'{"seq":3,"wall":1.0,"mono":1.0,"dir":"in","transport":"stdio","kind":"stderr","raw":"' + raw + b'"}'
        entry = jsonl.decode_entry(line)
        assert entry.raw == b"stderr \xed\xa0\x80 line"


def test_an_entry_whose_method_is_a_lone_surrogate_is_written_and_read_back(tmp_path) -> None:
    """A server's `"method": "\\ud800x"` parses to a lone surrogate, which UTF-8 cannot encode: the record
    is still written (that field escaped) and reads back the same."""
    from inspector.traffic import jsonl
    from inspector.traffic.entry import Direction
    from inspector.traffic.store import TrafficStore

    store = TrafficStore()
    store.record_message(Direction.IN, "stdio", b'{"jsonrpc":"2.0","method":"\\ud800x","params":{}}')
    store.record_message(Direction.IN, "stdio", b'{"jsonrpc":"2.0","method":"caf\xc3\xa9","params":{}}')
    path = tmp_path / "r.jsonl"
    jsonl.save(path, store)
    back, _meta = jsonl.load(path)
    assert [e.method for e in back] == ["\ud800x", "café"]
    assert [e.raw for e in back] == [e.raw for e in store]
