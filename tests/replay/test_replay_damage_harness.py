"""Property-based (issue 21 point 3): a real record cut, corrupted and re-encoded at random opens for
`mcp-lens replay` with every client request whose line is intact, each damaged line said in a warning;
or it is refused as a `ReplayError` naming the file, never with another exception. A record re-encoded as
UTF-16 (with its mark) is read as such: its lines that decode to an original one are intact, and the
encoding is said."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from damage_support import apply_damage, damages, demo_record, utf16_lines
from hypothesis import HealthCheck, given, settings

from inspector.replay.record import ReplayError, open_record
from inspector.traffic import jsonl

SETTINGS = settings(
    max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def record() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        return demo_record(Path(folder)).read_bytes()


def client_requests(lines: list[bytes]) -> set[int]:
    """The seq of each line that is a client's request (direction out, a method and an id)."""
    seqs = set()
    for line in lines:
        try:
            entry = jsonl.decode_entry(line)
            message = json.loads(entry.raw)
        except (jsonl.RecordFormatError, ValueError):
            continue
        if entry.direction == "out" and isinstance(message, dict) and "method" in message and "id" in message:
            seqs.add(entry.seq)
    return seqs


@SETTINGS
@given(ops=damages())
def test_replay_opens_a_damaged_record_with_every_intact_request(record: bytes, tmp_path: Path, ops) -> None:
    damaged = apply_damage(record, ops)
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(damaged)
    originals = set(record.split(b"\n")[1:-1])
    wide = utf16_lines(damaged, ops)
    lines = damaged.split(b"\n")[1:-1] if wide is None else [line for n, line in wide if n > 1]
    whole = [line for line in lines if line in originals]
    wanted = client_requests(whole)
    try:
        replay = open_record(path)
    except ReplayError as exc:
        assert str(path) in str(exc)
        first = damaged.split(b"\n", 1)[0] if wide is None else next((line for n, line in wide if n == 1), b"")
        header_lost = first != record.split(b"\n", 1)[0]
        assert not wanted or header_lost, f"refused though requests {sorted(wanted)} are intact: {exc}"
        return
    try:
        replayed = {replay.index.seqs[row] for row in replay.requests}
        assert wanted <= replayed, (wanted - replayed, replay.warnings)
        if client_requests(record.split(b"\n")[1:-1]) - replayed:
            assert replay.warnings, "requests were lost without a warning"
        if wide is not None:
            assert any("this record is UTF-16 LE" in said for said in replay.warnings), replay.warnings
    finally:
        replay.close()
