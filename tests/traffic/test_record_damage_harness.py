"""Property-based: a real record (the demo server through `mcp-lens --cli --record`) cut, corrupted and
re-encoded at random still opens with every intact entry, and each damaged line is kept and told.

Both readers: `jsonl.read` (a record re-opened into memory) and `RecordStore` (the app's viewer and the
Tapped sessions window). An intact entry is a line of the original record found whole, with its newline,
in the damaged file; in a file re-encoded as UTF-16 (with its mark, as an editor saves it), a line that
decodes from UTF-16 to one of the original's."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from damage_support import apply_damage, damages, demo_record, utf16_lines, utf16_tail
from hypothesis import HealthCheck, given, settings

from inspector.config.text_files import marked_wide
from inspector.traffic import jsonl
from inspector.traffic.record_store import RecordStore

SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def record() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        data = demo_record(Path(folder)).read_bytes()
    assert data.count(b"\n") >= 12 and "café ✓".encode() in data
    return data


def whole_lines(data: bytes) -> list[tuple[int, bytes]]:
    """(line number, bytes) of every line that ends with its newline (the header is line 1)."""
    lines = data.split(b"\n")
    return [(n, line) for n, line in enumerate(lines[:-1], start=1)]


def lines_of(damaged: bytes, ops: list[tuple]) -> list[tuple[int, bytes]]:
    """(line number, bytes as UTF-8) of each whole line: decoded from UTF-16 when the damage re-encoded it."""
    wide = utf16_lines(damaged, ops)
    return whole_lines(damaged) if wide is None else wide


def tail_of(damaged: bytes, ops: list[tuple]) -> bytes:
    """What follows the last newline (a cut last line), in the file's own encoding."""
    if utf16_lines(damaged, ops) is not None:
        return utf16_tail(damaged).replace(b"\0", b"")
    return damaged.rsplit(b"\n", 1)[-1] if b"\n" in damaged else b""


def intact(original: bytes, damaged: bytes, ops: list[tuple]) -> dict[bytes, int]:
    """The original entry lines found whole in the damaged file → their line number there."""
    entries = set(original.split(b"\n")[1:-1])
    return {line: n for n, line in lines_of(damaged, ops) if line in entries and n > 1}


def decodes(line: bytes) -> bool:
    try:
        jsonl.decode_entry(line)
    except jsonl.RecordFormatError:
        return False
    return True


@SETTINGS
@given(ops=damages())
def test_read_returns_every_intact_entry_and_keeps_each_damaged_line(record: bytes, tmp_path: Path, ops) -> None:
    damaged = apply_damage(record, ops)
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(damaged)
    kept = intact(record, damaged, ops)
    try:
        store, _meta, bad = jsonl.read(path)
    except jsonl.RecordFormatError:
        assert not kept, "refused a record that still had intact entries"
        return
    shown = {(e.seq, e.raw) for e in store}
    for line in kept:
        entry = jsonl.decode_entry(line)
        assert (entry.seq, entry.raw) in shown
    told = {b.number: b for b in bad}
    wide = utf16_lines(damaged, ops) is not None
    if not wide and marked_wide(damaged[:64]):  # a mark the damage made (FE FF before UTF-16 LE): other lines
        return
    for number, line in lines_of(damaged, ops):
        if number > 1 and line and not decodes(line):
            assert number in told and (wide or told[number].raw == line), f"line {number} not told"
    if tail_of(damaged, ops).strip() and (wide or b"\n" in damaged):
        assert any(b.cut for b in bad), "a cut last line was not noted"
    flagged = [e for e in store if e.transport == jsonl.BAD_LINE_TRANSPORT]
    assert all(e.flagged and e.parse_error and "line" in e.parse_error for e in flagged)


@SETTINGS
@given(ops=damages())
def test_the_viewer_store_indexes_every_intact_entry_and_never_fails_to_show_one(
    record: bytes, tmp_path: Path, ops
) -> None:
    damaged = apply_damage(record, ops)
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(damaged)
    kept = intact(record, damaged, ops)
    store = RecordStore(path)
    try:
        try:
            store.update()
        except jsonl.RecordFormatError:
            assert not kept, "refused a record that still had intact entries"
            return
        indexed = {store.index.line(i): i for i in range(len(store))}
        for line in kept:
            assert line in indexed, "an intact entry is missing"
            assert store[indexed[line]].raw == jsonl.decode_entry(line).raw
        for i in range(len(store)):
            entry = store[i]  # never raises: a line damaged inside its message is a flagged entry
            if entry.transport == jsonl.BAD_LINE_TRANSPORT:
                assert entry.flagged and entry.raw == store.index.line(i)
        told = {b.number: b for b in store.index.damaged}
        wide = utf16_lines(damaged, ops) is not None
        if not wide and store.index.wide is not None:  # a mark the damage made (FE FF before UTF-16 LE)
            return
        for number, line in lines_of(damaged, ops):
            if line.strip() and line not in indexed and number > 1:
                assert number in told and (wide or told[number].raw == line), f"line {number} neither shown nor told"
        tail = tail_of(damaged, ops)
        if tail.strip() and (wide or b"\n" in damaged):
            cut = store.index.cut_tail()
            assert cut is not None and (wide or cut.raw == tail)
    finally:
        store.close()
