"""What the Tapped sessions view needs to know of a tap's records on disk (no Qt here).

A tap writes one JSON Lines traffic record per host session (`inspector/traffic/jsonl.py`) whose
header meta holds ``{"tap": {"name", "command", "pid", "child_pid", "started", "cwd"}}``; a finished
record ends with a lifecycle entry saying the server exited; a record rotated by size goes on in a new
file whose header says ``"continues": "<previous file>"``. One `TapSession` is one host session: all
of its parts, oldest first. The listing itself is the tap's (`inspector.tap.paths.list_records`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspector.tap.paths import TapRecord, has_exited, list_records, taps_dir
from inspector.traffic import jsonl

LIVE, FINISHED, ENDED = "live", "finished", "ended"  # ENDED: the tap is gone without recording an exit
_HEAD_LIMIT = 1 << 20  # a header line longer than this is not a tap record's


def taps_folder() -> Path:
    """Where `mcp-lens tap` writes its records (``$XDG_DATA_HOME/mcp-lens/taps``, else ~/.local/share/…)."""
    return taps_dir()


@dataclass(frozen=True)
class TapSession:
    """One tapped host session: its record's parts (oldest first) and what their headers say."""

    parts: tuple[Path, ...]
    name: str
    command: tuple[str, ...]
    started: float | None
    cwd: str | None
    size: int
    state: str  # LIVE, FINISHED or ENDED
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def path(self) -> Path:
        """The newest part (the one that grows while the session is live)."""
        return self.parts[-1]

    @property
    def live(self) -> bool:
        return self.state == LIVE


def header_meta(path: Path) -> dict[str, Any]:
    """The record header's meta ({} if the file has none)."""
    try:
        with open(path, "rb") as stream:
            first = stream.readline(_HEAD_LIMIT)
        meta = jsonl.read_header(first.rstrip(b"\n")).get("meta")
    except (OSError, jsonl.RecordFormatError, UnicodeError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _session(chain: list[TapRecord]) -> TapSession:
    first, newest = chain[0], chain[-1]
    meta = header_meta(first.path)
    tap = meta.get("tap") if isinstance(meta.get("tap"), dict) else {}
    cwd = tap.get("cwd")
    state = LIVE if newest.live else FINISHED if has_exited(newest.path) else ENDED
    return TapSession(
        parts=tuple(record.path for record in chain),
        name=first.name,
        command=tuple(first.command),
        started=first.started or None,
        cwd=cwd if isinstance(cwd, str) and cwd else None,
        size=sum(record.size for record in chain),
        state=state,
        meta=meta,
    )


def list_sessions(folder: Path | None = None) -> list[TapSession]:
    """Every tapped session under `folder` (default: `taps_folder()`), newest first: the tap's records,
    the parts of a rotated one joined into one session."""
    records = {record.path.name: record for record in list_records(folder)}
    sessions = []
    for name, record in records.items():
        if record.continued_by in records:
            continue  # an older part: listed with the newest part of its session
        chain, seen = [record], {name}
        while (previous := chain[0].continues) in records and previous not in seen:
            seen.add(previous)
            chain.insert(0, records[previous])
        sessions.append(_session(chain))
    return sorted(sessions, key=lambda s: (s.started or 0.0, s.path.name), reverse=True)
