"""A record that is not UTF-8: UTF-16 or UTF-32 with its byte-order mark (an editor re-saved it) is read as
such, whole, its encoding said once, the file left as it is; without the mark (NULs between ASCII characters)
it is refused at once naming its encoding (never read as a file of damaged lines); a UTF-8 byte-order mark
is skipped; a Latin-1 line is a damaged line whose reason says it is not UTF-8. Both readers: the
indexed one (the viewer's) and `jsonl.read`."""

from __future__ import annotations

import pytest
from factories import request

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.record_store import RecordStore
from inspector.traffic.store import TrafficStore


def a_record(tmp_path, count: int = 20):
    store = TrafficStore()
    for n in range(count // 2):
        request(store, n, "ping")
        store.record(Direction.IN, "stdio", Kind.STDERR, "note %d: café".encode() % n)  # a line stored as JSON text
    path = tmp_path / "record.jsonl"
    jsonl.save(path, store)
    return path


def indexed(path) -> RecordStore:
    record = RecordStore(path)
    record.update()
    return record


@pytest.mark.parametrize(
    ("codec", "named"),
    [("utf-16", "UTF-16 LE"), ("utf-16-be", "UTF-16 BE"), ("utf-32", "UTF-32 LE"), ("utf-32-be", "UTF-32 BE")],
)
def test_a_utf16_or_utf32_record_with_its_mark_reads_whole_and_says_so(tmp_path, codec: str, named: str) -> None:
    path = a_record(tmp_path)
    original = path.read_bytes()
    mark = "\ufeff".encode(codec) if codec.endswith("-be") else b""
    path.write_bytes(mark + original.decode("utf-8").encode(codec))
    wide = path.read_bytes()
    record = indexed(path)
    try:
        assert len(record) == 20 and not record.index.damaged and record.index.cut_tail() is None
        assert [record[n].raw for n in range(20)] == [e.raw for e in jsonl.load(a_record(tmp_path / "a"))[0]]
        assert record.index.wide is not None and f"this record is {named}" in record.index.wide.note
    finally:
        record.close()
    store, _meta, bad = jsonl.read(path)
    assert len(store) == 20 and not bad and store[1].raw == "note 0: café".encode()
    assert path.read_bytes() == wide  # only read


def test_lines_of_a_utf16_record_that_do_not_decode_are_told_with_their_bytes(tmp_path) -> None:
    lines = a_record(tmp_path).read_text(encoding="utf-8").split("\n")
    lone = "\ud800".encode("utf-16-le", "surrogatepass")
    data = "\n".join(lines[:5]).encode("utf-16") + lone + ("\n" + "\n".join(lines[5:])).encode("utf-16-le")
    path = tmp_path / "wide.jsonl"
    path.write_bytes(data[:-3])  # and the last line cut mid-character
    record = indexed(path)
    try:
        [damaged] = record.index.damaged
        assert damaged.number == 5 and "not UTF-16 LE text" in damaged.reason
        assert damaged.raw == lines[4].encode("utf-16-le") + lone
        cut = record.index.cut_tail()
        assert cut is not None and cut.number == 21 and cut.raw == data[:-3][-len(cut.raw) :]
        assert len(record) == 18
    finally:
        record.close()
    store, _meta, bad = jsonl.read(path)
    assert [(b.number, b.cut) for b in bad] == [(5, False), (21, True)]
    assert len([e for e in store if e.transport != jsonl.BAD_LINE_TRANSPORT]) == 18


@pytest.mark.parametrize(("codec", "named"), [("utf-16-le", "UTF-16 LE"), ("utf-32-le", "UTF-32 LE")])
def test_a_wide_record_without_its_mark_is_refused_naming_its_encoding(tmp_path, codec: str, named: str) -> None:
    path = a_record(tmp_path)
    path.write_bytes(path.read_text(encoding="utf-8").encode(codec))
    for read in (indexed, jsonl.read):
        with pytest.raises(jsonl.RecordFormatError) as caught:
            read(path)
        assert f"this record is {named}; records are UTF-8: re-save it as UTF-8" in str(caught.value)


def test_a_utf8_record_with_a_byte_order_mark_reads_whole(tmp_path) -> None:
    path = a_record(tmp_path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    record = indexed(path)
    assert len(record) == 20 and not record.index.damaged
    store, _meta, bad = jsonl.read(path)
    assert len(store) == 20 and not bad


def test_a_latin1_line_is_a_damaged_line_said_not_utf8(tmp_path) -> None:
    path = a_record(tmp_path)
    lines = path.read_bytes().split(b"\n")
    assert "café" in lines[6].decode("utf-8")
    lines[6] = lines[6].decode("utf-8").encode("latin-1")
    path.write_bytes(b"\n".join(lines))
    record = indexed(path)
    [damaged] = record.index.damaged
    assert damaged.number == 7 and "not UTF-8" in damaged.reason and "0xE9" in damaged.reason, damaged.reason
    _store, _meta, [bad] = jsonl.read(path)
    assert bad.number == 7 and "not UTF-8" in bad.reason and "0xE9" in bad.reason, bad.reason


def test_a_utf16_records_damaged_lines_are_told_once_each_in_line_order(tmp_path) -> None:
    lines = a_record(tmp_path).read_text(encoding="utf-8").split("\n")
    lone = "\ud800".encode("utf-16-le", "surrogatepass")
    parts = [line.encode("utf-16-le") for line in lines]
    parts[6] += lone  # line 7 does not decode
    parts[2] = b"{\x00n\x00o\x00"  # line 3 decodes, but is not JSON
    path = tmp_path / "wide.jsonl"
    path.write_bytes(b"\xff\xfe" + "\n".encode("utf-16-le").join(parts))
    record = indexed(path)
    try:
        assert [bad.number for bad in record.index.damaged] == [3, 7], record.index.damaged
        assert len(record) == 18
    finally:
        record.close()
    parts[0] += lone  # and the header does not decode: told once
    path.write_bytes(b"\xff\xfe" + "\n".encode("utf-16-le").join(parts))
    record = indexed(path)
    try:
        assert [bad.number for bad in record.index.damaged] == [1, 3, 7], record.index.damaged
        assert len(record) == 18
    finally:
        record.close()


def test_a_utf16_record_with_a_line_longer_than_a_chunk_is_read_in_slices(tmp_path) -> None:
    from inspector.traffic import wide_copy

    store = TrafficStore()
    request(store, 0, "ping")
    store.record(Direction.IN, "stdio", Kind.STDERR, "é".encode() * (wide_copy.CHUNK // 2 + 10))  # over 2 chunks
    request(store, 1, "ping")
    path = tmp_path / "long.jsonl"
    jsonl.save(path, store)
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    record = RecordStore(path)
    try:
        record.update(max_seconds=0)  # one slice: the first two lines
        assert not record.index.caught_up(), "a long line still to read was taken for the end"
        while record.update(max_seconds=0) or not record.index.caught_up():
            pass
        assert len(record) == 3 and not record.index.damaged and record.index.cut_tail() is None
        assert record[1].raw == "é".encode() * (wide_copy.CHUNK // 2 + 10)
    finally:
        record.close()
