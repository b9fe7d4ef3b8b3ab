"""Property-based (issue 21 point 3): a kept History file cut, corrupted or re-encoded at random still lists
every call that lies whole before the damage, says so (`HistoryDamaged`, with the intact calls), and keeps
the damaged file's bytes where it was set aside. A cut file or one stray byte lost every call before. A file
re-encoded as UTF-16 (with its mark) is read as such: the calls before the damage of its text are listed."""

from __future__ import annotations

from pathlib import Path

import pytest
from damage_support import apply_damage, as_utf8, damages, first_difference
from factories import call_result
from hypothesis import HealthCheck, given, settings

from inspector.config.redact import Redactor
from inspector.core.history import CallRecord
from inspector.core.history_file import HistoryDamaged, load_history, save_history

SETTINGS = settings(
    max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def a_history(path: Path, calls: int = 5) -> bytes:
    records = []
    for number in range(calls):
        record = CallRecord("echo", {"message": f"café {number}"}, None)
        record.finish(call_result(f"zoë {number}"))
        records.append(record)
    save_history(path, records, Redactor())
    return path.read_bytes()


def call_ends(data: bytes) -> list[int]:
    """Where each call's object ends in the file as written (indent 1: a call closes with ``\\n  }``)."""
    ends, pos = [], 0
    while (found := data.find(b"\n  }", pos)) >= 0:
        ends.append(found + 4)
        pos = found + 4
    return ends


def seen(records: list[CallRecord]) -> list[tuple[str, object]]:
    return [(r.tool, r.arguments) for r in records]


@SETTINGS
@given(ops=damages())
def test_a_damaged_history_keeps_every_call_before_the_damage(tmp_path: Path, ops) -> None:
    path = tmp_path / "h.json"
    data = a_history(path)
    original = seen(load_history(path))
    damaged = apply_damage(data, ops)
    path.write_bytes(damaged)
    intact_before = first_difference(data, as_utf8(damaged, ops))
    whole = [call for call, end in zip(original, call_ends(data), strict=True) if end <= intact_before]
    try:
        listed = seen(load_history(path))
    except HistoryDamaged as exc:
        listed = seen(exc.kept)
        assert "could not be read" in str(exc) or "this file is UTF-16 LE" in str(exc)
        assert exc.moved_to is None or exc.moved_to.read_bytes() == damaged
    for call in whole:
        assert call in listed, (call, listed)


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: data.index('"café 3"'.encode())],  # cut inside the fourth call
        lambda data: data.replace(b"caf\xc3\xa9 3", b"caf\xe9 3"),  # the fourth call's text in Latin-1
        lambda data: data.replace(b"zo\xc3\xab 3", b"zo\xff 3"),  # a stray 0xFF in the fourth call's result
    ],
    ids=["cut", "latin-1", "stray 0xFF"],
)
def test_a_history_damaged_in_its_fourth_call_lists_the_other_calls(tmp_path: Path, damage) -> None:
    path = tmp_path / "h.json"
    data = a_history(path)
    path.write_bytes(damage(data))
    with pytest.raises(HistoryDamaged) as said:
        load_history(path)
    kept = [r.arguments["message"] for r in said.value.kept]
    assert kept[:3] == ["café 0", "café 1", "café 2"], (kept, str(said.value))
    assert "line " in str(said.value), str(said.value)


@pytest.mark.parametrize(("codec", "named"), [("utf-16", "UTF-16 LE"), ("utf-32", "UTF-32 LE")])
def test_a_utf16_history_lists_every_call_says_so_and_keeps_its_bytes_aside(tmp_path: Path, codec, named) -> None:
    path = tmp_path / "h.json"
    data = a_history(path)
    wide = data.decode("utf-8").encode(codec)
    path.write_bytes(wide)
    with pytest.raises(HistoryDamaged) as said:
        load_history(path)
    kept = [r.arguments["message"] for r in said.value.kept]
    assert kept == [f"café {n}" for n in range(5)], str(said.value)
    assert f"this file is {named}" in str(said.value) and "could not be read" not in str(said.value)
    assert said.value.moved_to is not None and said.value.moved_to.read_bytes() == wide and not path.exists()
