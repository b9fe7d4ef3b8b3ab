"""A record that is not UTF-8: UTF-16 or UTF-32 (byte-order mark, or NULs between ASCII characters) is
refused at once naming its encoding (never read as a file of damaged lines); a UTF-8 byte-order mark
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
    [("utf-16", "UTF-16 LE"), ("utf-16-le", "UTF-16 LE"), ("utf-16-be", "UTF-16 BE"), ("utf-32", "UTF-32 LE")],
)
def test_a_utf16_or_utf32_record_is_refused_naming_its_encoding(tmp_path, codec: str, named: str) -> None:
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
