"""Where tap records go, what they are called, and the list of them the app shows.

Records live in ``$XDG_DATA_HOME/mcp-lens/taps/`` (else ``~/.local/share/mcp-lens/taps/``), a 0700
folder of 0600 files named ``<UTC yyyymmdd-HHMMSS>-<safe name>-<pid>.jsonl``. A record is *live* while
the tap that writes it runs: its pid is alive, its last entry is not the server's exit, and no later
part continues it (a record rotated by size goes on in a new file whose header names this one).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.config.files import data_dir, open_private_append, private_folder
from inspector.config.pids import pid_alive
from inspector.platform.procfs import command_line
from inspector.traffic.jsonl import RecordFormatError, decode_entry

SUFFIX = ".jsonl"
EXITED_PREFIX = "process exited"  # the raw text of the last lifecycle entry a tap writes
_TAIL_BYTES = 65536
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def taps_dir(env: Mapping[str, str] | None = None) -> Path:
    """The folder tap records go to (not created here)."""
    return data_dir(env) / "taps"


def ensure_dir(folder: Path) -> Path:
    """Create `folder` (and parents) and make it 0700."""
    return private_folder(folder)


def safe_name(name: str) -> str:
    """`name` reduced to letters, digits, dot, dash and underscore, for a file name."""
    return _UNSAFE.sub("_", name).strip("._-")[:48] or "server"


def record_file_name(name: str, pid: int, when: float | None = None, part: int = 1) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() if when is None else when))
    extra = "" if part <= 1 else f".{part}"
    return f"{stamp}-{safe_name(name)}-{pid}{extra}{SUFFIX}"


def create_record_file(folder: Path, name: str, pid: int, part: int = 1) -> tuple[Path, int]:
    """Create a new 0600 record file (never an existing one); returns its path and an append-only fd."""
    ensure_dir(folder)
    attempt = part
    while True:
        path = folder / record_file_name(name, pid, part=attempt)
        try:
            return path, open_private_append(path, exclusive=True)
        except FileExistsError:
            attempt += 1


@dataclass(frozen=True, slots=True)
class TapRecord:
    """One tap record file, as listed for the app."""

    path: Path
    name: str
    command: list[str]
    started: float  # wall time the tap started
    pid: int  # the tap's pid
    child_pid: int | None
    live: bool
    size: int
    continues: str | None = None  # the file name of the part this one continues
    continued_by: str | None = None  # the file name of the part that continues this one


def _header(path: Path) -> dict[str, Any] | None:
    """The header's tap meta; {} for a record whose first line is damaged (listed under its file name, its
    entries still readable); None for a file that cannot be read or is another program's JSON."""
    try:
        with open(path, "rb") as stream:
            first = stream.readline()
            second = stream.readline(_TAIL_BYTES)
    except OSError:
        return None
    try:
        head = json.loads(first)
    except ValueError:  # a record still if an entry follows (not a tap writing its header, not garbage)
        return {} if _is_entry(second) else None
    if not isinstance(head, dict) or head.get("format") != "mcp-lens-traffic":
        return None
    tap = (head.get("meta") or {}).get("tap")
    return tap if isinstance(tap, dict) else None


def _is_entry(line: bytes) -> bool:
    try:
        decode_entry(line.rstrip(b"\n"))
    except RecordFormatError:
        return False
    return line.endswith(b"\n")


def _last_line(path: Path) -> bytes:
    with open(path, "rb") as stream:
        stream.seek(0, os.SEEK_END)
        size = stream.tell()
        stream.seek(max(0, size - _TAIL_BYTES))
        tail = stream.read()
    lines = tail.rstrip(b"\n").rsplit(b"\n", 1)
    return lines[-1]


def has_exited(path: Path) -> bool:
    """Whether the record's last entry says the server process exited."""
    try:
        last = json.loads(_last_line(path))
    except (OSError, ValueError):
        return False
    return (
        isinstance(last, dict)
        and last.get("kind") == "lifecycle"
        and str(last.get("raw", "")).startswith(EXITED_PREFIX)
    )


def tap_running(pid: int) -> bool:
    """Whether a tap still runs as `pid`. Where ``/proc`` tells, the process must be a running
    ``… tap …`` (not a zombie, not another program that got the pid since)."""
    if not pid_alive(pid):
        return False
    argv = command_line(pid)
    if argv is None:
        return True  # no /proc here: the liveness check is all there is
    return b"tap" in argv


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def list_records(folder: Path | None = None) -> list[TapRecord]:
    """Every tap record in `folder` (default: `taps_dir()`), newest first. Unreadable files and other files
    are skipped; a record whose header line is damaged (an entry follows it) is listed under its file name."""
    folder = taps_dir() if folder is None else folder
    try:
        paths = [p for p in folder.iterdir() if p.name.endswith(SUFFIX) and p.is_file()]
    except OSError:
        return []
    heads = {p: h for p in paths if (h := _header(p)) is not None}
    continued_by = {h["continues"]: p.name for p, h in heads.items() if isinstance(h.get("continues"), str)}
    records = []
    for path, head in heads.items():
        pid = head.get("pid") if isinstance(head.get("pid"), int) else 0
        child = head.get("child_pid")
        follower = continued_by.get(path.name)
        try:
            size = path.stat().st_size
        except OSError:
            continue
        live = follower is None and tap_running(pid) and not has_exited(path)
        command = head.get("command")
        records.append(
            TapRecord(
                path=path,
                name=str(head.get("name") or path.stem),
                command=[str(c) for c in command] if isinstance(command, list) else [],
                started=float(head.get("started") or (0.0 if head else _mtime(path))),
                pid=pid,
                child_pid=child if isinstance(child, int) else None,
                live=live,
                size=size,
                continues=head.get("continues") if isinstance(head.get("continues"), str) else None,
                continued_by=follower,
            )
        )
    records.sort(key=lambda r: (r.started, r.path.name), reverse=True)
    return records
