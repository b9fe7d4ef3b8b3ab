"""Property-based (issue 21 point 3): the small files MCP Lens reads whole — a Budget snapshot, the Claude
calibrations, a host's config when the tap looks for entries, an --input-responses file, a stored sign-in —
cut, corrupted or re-encoded (Latin-1, UTF-16 with its mark, a stray 0xFF) are read or refused in words
naming the file, never with another exception (a Traceback in the CLI, an exception in a Qt slot).

Each of these is one object that is only meaningful whole (a baseline a diff compares against, a ratio, a
table of answers), so a damaged one is refused rather than partly read; the multi-entry files (records,
collections, History, servers.json) have their own harnesses that check the intact entries are kept."""

from __future__ import annotations

import json
from pathlib import Path

from damage_support import apply_damage, damages
from hypothesis import HealthCheck, given, settings

SETTINGS = settings(
    max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
TOOLS = [
    {"name": "echo", "description": "Say it back — café ✓", "inputSchema": {"type": "object"}},
    {"name": "météo", "description": "Weather", "inputSchema": {"type": "object", "properties": {}}},
]


@SETTINGS
@given(ops=damages())
def test_a_damaged_budget_snapshot_is_read_or_refused_naming_the_file(tmp_path: Path, ops) -> None:
    from inspector.budget.snapshot import Snapshot, SnapshotError, load_snapshot, save_snapshot

    path = tmp_path / "baseline.json"
    save_snapshot(path, Snapshot.now("zoë", TOOLS, "python -m server"))
    path.write_bytes(apply_damage(path.read_bytes(), ops))
    try:
        snapshot = load_snapshot(path)
    except SnapshotError as exc:
        assert str(path) in str(exc) or path.name in str(exc), exc
        return
    assert all(isinstance(tool, dict) for tool in snapshot.tools)


@SETTINGS
@given(ops=damages())
def test_damaged_calibrations_are_said_and_never_raise(tmp_path: Path, ops) -> None:
    from inspector.budget.calibration import Calibration, damaged_note, load_calibration, save_calibration

    path = tmp_path / "claude-calibrations.json"
    fields = {name: 1 for name in Calibration.__dataclass_fields__}
    saved = Calibration(**{**fields, "server": "zoë", "family": "claude", "ratio": 1.25, "model": "m"})
    save_calibration(saved, path)
    original = path.read_bytes()
    damaged = apply_damage(original, ops)
    path.write_bytes(damaged)
    note = damaged_note(path)
    loaded = load_calibration("zoë", "claude", path)
    if note is not None:
        assert str(path) in note
    elif damaged != original:
        assert loaded is None or isinstance(loaded.ratio, int | float)


@SETTINGS
@given(ops=damages())
def test_a_damaged_host_config_gives_its_readable_entries_or_none(tmp_path: Path, ops) -> None:
    from inspector.tap.hosts import entries

    path = tmp_path / "claude_desktop_config.json"
    config = {"mcpServers": {"café": {"command": "python", "args": ["-m", "server"]}, "web": {"url": "http://x"}}}
    path.write_bytes(json.dumps(config, indent=2, ensure_ascii=False).encode())
    path.write_bytes(apply_damage(path.read_bytes(), ops))
    for entry in entries(path, "python", ["-m", "server"]):
        assert entry.path == path


@SETTINGS
@given(ops=damages())
def test_a_damaged_input_responses_file_is_refused_naming_the_file(tmp_path: Path, ops) -> None:
    from inspector.cli.args import UsageError, read_input_responses

    path = tmp_path / "answers.json"
    answers = {"elicitation/create": {"action": "accept", "content": {"drink": "café crème"}}}
    path.write_bytes(json.dumps(answers, ensure_ascii=False).encode())
    path.write_bytes(apply_damage(path.read_bytes(), ops))
    try:
        read_input_responses(str(path))
    except UsageError as exc:
        assert "--input-responses" in str(exc)


@SETTINGS
@given(ops=damages())
def test_a_damaged_stored_sign_in_is_as_good_as_none(tmp_path: Path, ops) -> None:
    from inspector.auth.storage import FileBackend

    store = FileBackend(tmp_path / "auth")
    store.save("server-1", {"tokens": {"access_token": "a-token", "token_type": "Bearer"}, "client": "ça"})
    path = store.path("server-1")
    path.write_bytes(apply_damage(path.read_bytes(), ops))
    record = store.load("server-1")
    assert record is None or isinstance(record, dict)


def test_an_input_responses_file_that_is_not_utf8_says_which_byte_and_line(tmp_path: Path) -> None:
    from inspector.cli.args import UsageError, read_input_responses

    path = tmp_path / "answers.json"
    path.write_bytes(b'{"elicitation/create":\n {"action": "accept", "content": {"drink": "caf\xe9"}}}')
    try:
        read_input_responses(str(path))
    except UsageError as exc:
        assert "byte 0xE9 at line 2" in str(exc) and "save the file as UTF-8" in str(exc), exc
    else:
        raise AssertionError("a Latin-1 file was read")
