"""Running `mcp-lens tap` as a host does, and reading back what it recorded."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from lens_support import REPO

from inspector.tap.recorder import CONTINUED, NO_NEWLINE
from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Entry, Kind

TAP = [sys.executable, "-m", "inspector", "tap"]


def tap_env(data_home: Path) -> dict[str, str]:
    """Our environment with the records going under `data_home`."""
    return {**os.environ, "PYTHONPATH": str(REPO), "XDG_DATA_HOME": str(data_home)}


def start_tap(data_home: Path, *args: str, **popen: object) -> subprocess.Popen[bytes]:
    """``mcp-lens tap ARGS`` with three pipes, as a host starts it."""
    return subprocess.Popen(
        [*TAP, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=tap_env(data_home),
        cwd=REPO,
        **popen,  # type: ignore[arg-type]
    )


def records(data_home: Path) -> list[Path]:
    folder = data_home / "mcp-lens" / "taps"
    return sorted(folder.glob("*.jsonl")) if folder.exists() else []


def only_record(data_home: Path) -> Path:
    found = records(data_home)
    assert len(found) == 1, found
    return found[0]


def load_entries(path: Path) -> tuple[list[Entry], dict]:
    store, meta = jsonl.load(path)
    return list(store), meta


def stream_bytes(entries: list[Entry], direction: Direction, *, stderr: bool = False) -> bytes:
    """What one side wrote, rebuilt from the record: the lines joined by the newlines that framed them."""
    picked = [
        e
        for e in entries
        if e.direction is direction and (e.kind is Kind.STDERR) == stderr and e.kind is not Kind.LIFECYCLE
    ]
    return b"".join(e.raw + (b"" if {NO_NEWLINE, CONTINUED} & set(e.notes) else b"\n") for e in picked)


def wait_for(predicate, timeout: float = 20.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")
