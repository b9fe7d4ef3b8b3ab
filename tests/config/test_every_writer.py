"""Every file MCP Lens writes goes through config/files: user-only files (0600), its own folders 0700,
atomic replaces (no temp file left), and a damaged file it would rewrite is moved aside, never lost."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture(autouse=True)
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*") if p.name.endswith(".tmp") or ".tmp" in p.suffixes]


def test_calibration_is_user_only_merged_and_a_damaged_file_is_moved_aside(tmp_path: Path) -> None:
    from inspector.budget.calibration import Calibration, damaged_note, load_calibration, save_calibration

    path = tmp_path / "own" / "calibration.json"

    def calibration(server: str) -> Calibration:
        return Calibration(server, "v4.8", "claude", 1.1, 3, 110, 100, "2026-11-27")

    save_calibration(calibration("a"), path)
    save_calibration(calibration("b"), path)
    assert mode(path) == 0o600 and mode(path.parent) == 0o700 and no_temp_files(tmp_path)
    assert load_calibration("a", "v4.8", path) is not None and load_calibration("b", "v4.8", path) is not None
    damaged = path.read_bytes().replace(b'"a"', b'"caf\xe9"')
    path.write_bytes(damaged)
    assert "not UTF-8" in (damaged_note(path) or "")
    save_calibration(calibration("c"), path)
    assert damaged_note(path) is None
    [aside] = path.parent.glob("calibration.json.corrupt-*")
    assert aside.read_bytes() == damaged  # what it held can still be recovered
    assert load_calibration("c", "v4.8", path) is not None


def test_snapshot_auth_record_anthropic_cache_and_tap_record_are_user_only(tmp_path: Path) -> None:
    from inspector.auth.storage import FileBackend
    from inspector.budget.anthropic import AnthropicTokenizer
    from inspector.budget.snapshot import Snapshot, save_snapshot
    from inspector.tap.paths import create_record_file

    export = tmp_path / "exports"
    export.mkdir(mode=0o755)
    save_snapshot(export / "snap.json", Snapshot(server="s", taken_at="now", source="test", meta={}, tools=[]))
    assert mode(export / "snap.json") == 0o600 and mode(export) == 0o755  # a folder the user chose: left alone

    FileBackend(tmp_path / "auth").save("k", {"token": "t"})
    assert mode(tmp_path / "auth" / "k.json") == 0o600 and mode(tmp_path / "auth") == 0o700

    tokenizer = AnthropicTokenizer(api_key="x", cache_dir=tmp_path / "cache")
    tokenizer._write_disk("key", 12)
    assert mode(tmp_path / "cache" / "key.json") == 0o600 and mode(tmp_path / "cache") == 0o700
    assert json.loads((tmp_path / "cache" / "key.json").read_text()) == {"input_tokens": 12}

    path, fd = create_record_file(tmp_path / "taps", "srv", 123)
    os.write(fd, b"x\n")
    os.close(fd)
    assert mode(path) == 0o600 and mode(tmp_path / "taps") == 0o700
    again, fd = create_record_file(tmp_path / "taps", "srv", 123)  # never an existing file
    os.close(fd)
    assert again != path and path.read_bytes() == b"x\n"
    assert no_temp_files(tmp_path)
