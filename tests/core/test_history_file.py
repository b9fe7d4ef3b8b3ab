"""The kept call history: a big result is left out without being serialised to learn its size."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from factories import call_result

from inspector.config.redact import Redactor
from inspector.core.history import CallRecord
from inspector.core.history_file import RESULT_BYTES, load_history, record_entry, save_history


def _finished(result: dict) -> CallRecord:
    record = CallRecord("echo", {"text": "hi"}, None)
    record.finish(result)
    return record


def test_a_big_result_is_left_out_without_writing_it_as_json(tmp_path) -> None:
    big = _finished(call_result("x" * 5_000_000))
    sizes: list[int] = []
    real = json.dumps

    def dumps(value, *args, **kwargs):
        text = real(value, *args, **kwargs)
        sizes.append(len(text))
        return text

    with mock.patch("json.dumps", dumps):
        entry = record_entry(big, Redactor())
        save_history(tmp_path / "h.json", [big], Redactor())
    assert entry["result"] is None and entry["arguments"] == {"text": "hi"}
    assert max(sizes) < 100_000  # never the 5 MB result, only what is kept


def test_a_small_result_is_kept_and_read_back(tmp_path) -> None:
    small = _finished(call_result("y" * (RESULT_BYTES // 2)))
    many_small_values = _finished({"structuredContent": {"n": list(range(RESULT_BYTES))}})
    save_history(tmp_path / "h.json", [small, many_small_values], Redactor())
    kept = load_history(tmp_path / "h.json")
    assert kept[0].result == small.result
    assert kept[1].result is None  # over the limit though every string in it is short


def test_a_result_with_a_lone_surrogate_is_kept_and_read_back(tmp_path) -> None:
    """A server's text "\\ud800" parses to a lone surrogate, which UTF-8 cannot carry: the save used to
    raise UnicodeEncodeError out of the workbench's slot; the file now holds its JSON escape."""
    odd = _finished(call_result("a\ud800b"))
    save_history(tmp_path / "h.json", [odd], Redactor())
    assert load_history(tmp_path / "h.json")[0].result == odd.result


def test_a_damaged_history_file_is_set_aside_not_saved_over(tmp_path) -> None:
    """The outside tester's garbage history file was replaced by the next call's save, without a word."""
    import pytest

    from inspector.core.history_file import HistoryDamaged

    path = tmp_path / "h.json"
    garbage = b'\xff\xfe{"version": 1, "calls": [\x00\x00'
    path.write_bytes(garbage)
    with pytest.raises(HistoryDamaged) as damaged:
        load_history(path)
    assert damaged.value.moved_to is not None and damaged.value.moved_to.read_bytes() == garbage
    assert not path.exists() and "could not be read" in str(damaged.value)
    assert load_history(path) == []  # nothing there any more: a fresh history


def _good(tool: str) -> dict:
    return {"tool": tool, "arguments": {"text": tool}, "started": 1.0, "duration_ms": 2.0, "outcome": "ok"}


DAMAGE = {
    "cut JSON": (b'{"version": 1, "calls": [{"tool": "echo", "argum', []),
    "not UTF-8": (b'{"version": 1, "calls": [{"tool": "caf\xe9"}]}', []),
    "a list, not an object": (json.dumps([_good("echo")]).encode(), []),
    "calls is not a list": (json.dumps({"version": 1, "calls": {"tool": "echo"}}).encode(), []),
    "one bad entry among good ones": (
        json.dumps({"version": 1, "calls": [_good("first"), "garbage", _good("third")]}).encode(),
        ["first", "third"],
    ),
    "a field of the wrong type": (
        json.dumps({"version": 1, "calls": [_good("first"), {**_good("second"), "started": "soon"}]}).encode(),
        ["first"],
    ),
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_every_kind_of_damage_is_said_the_intact_calls_kept_and_the_file_set_aside(tmp_path, kind: str) -> None:
    """h13 point 4 (outside tester 48/49): a damaged History read as empty, without a word, and the next
    save dropped what it held. Each kind of damage now raises HistoryDamaged with the intact calls
    (`kept`), and the file is set aside byte for byte before anything can save over it."""
    from inspector.core.history_file import HistoryDamaged

    data, intact = DAMAGE[kind]
    path = tmp_path / "h.json"
    path.write_bytes(data)
    with pytest.raises(HistoryDamaged) as damaged:
        load_history(path)
    assert [r.tool for r in damaged.value.kept] == intact
    assert damaged.value.moved_to is not None and damaged.value.moved_to.read_bytes() == data
    assert not path.exists() and "could not be read" in str(damaged.value)
