"""A server's History (the Tools tab's calls, `core/history`) as a record `mcp-lens replay` serves.

The record holds a handshake of the 2025-11-25 era declaring tools only (what History knows of: no
resources or prompts are offered), one `tools/list` answer (the tools as the server last listed them;
without a listing, one bare entry per tool History called, its arguments any object), and each call
whose result History kept as a `tools/call` exchange, oldest first: the same call asked again gets
the results in the order they came. A call without a kept result (failed, still running, too big to
keep) is left out and counted.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.config.files import data_dir, private_folder
from inspector.core.history import CallRecord
from inspector.replay.mock import dump
from inspector.tap.paths import safe_name
from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Entry, Kind

HISTORY_ERA = "2025-11-25"
FROM_HISTORY = "history"  # the record header's "from"


@dataclass(frozen=True)
class HistoryRecord:
    """A record written from History: where, how many calls it serves and leaves out, and whether its
    tool list is the server's own (else made of the names History called)."""

    path: Path
    served: int
    left_out: int
    listed: bool


def mocks_dir() -> Path:
    """Where records made for a mock go (``$XDG_DATA_HOME/mcp-lens/mocks``; 0700, made when first used)."""
    return data_dir() / "mocks"


def history_entries(server: str, calls: list[CallRecord], tools: list[Any] | None) -> tuple[list[Entry], int]:
    """The record's entries and the number of calls left out (no kept result)."""
    kept = sorted((c for c in calls if isinstance(c.result, dict)), key=lambda c: c.started)
    if tools is None:
        names = dict.fromkeys(c.tool for c in kept)
        tools = [{"name": name, "inputSchema": {"type": "object"}} for name in names]
    handshake = {
        "protocolVersion": HISTORY_ERA,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": f"{server} (from History)", "version": "history"},
    }
    exchanges: list[tuple[str, Any, Any, float]] = [
        ("initialize", {"protocolVersion": HISTORY_ERA, "capabilities": {}}, handshake, time.time()),
        ("tools/list", {}, {"tools": tools}, time.time()),
    ]
    exchanges += [("tools/call", {"name": c.tool, "arguments": c.arguments}, c.result, c.started) for c in kept]
    entries: list[Entry] = []
    for rpc_id, (method, params, result, wall) in enumerate(exchanges, start=1):
        seq = len(entries) + 1
        asked = {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}
        answered = {"jsonrpc": "2.0", "id": rpc_id, "result": result}
        entries.append(_entry(seq, wall, Direction.OUT, Kind.REQUEST, asked, rpc_id, method, seq + 1))
        entries.append(_entry(seq + 1, wall, Direction.IN, Kind.RESPONSE, answered, rpc_id, method, seq))
    return entries, len(calls) - len(kept)


def _entry(
    seq: int, wall: float, direction: Direction, kind: Kind, value: Any, rpc_id: int, method: str, peer: int
) -> Entry:
    raw = dump(value)
    return Entry(seq, wall, 0.0, direction, "stdio", kind, raw, rpc_id=rpc_id, method=method, peer_seq=peer)


def write_history_record(
    server: str, calls: list[CallRecord], tools: list[Any] | None, folder: Path | None = None
) -> HistoryRecord:
    """Write the record of `server`'s History (`tools`: the server's last listing, None if it has none) as a
    user-only file in `folder` (default `mocks_dir()`). Raises `OSError` when it cannot be written."""
    entries, left_out = history_entries(server, calls, tools)
    folder = private_folder(mocks_dir() if folder is None else folder)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    path = folder / f"history-{safe_name(server)}-{stamp}.jsonl"
    jsonl.save(path, entries, {"name": server, "from": FROM_HISTORY})
    return HistoryRecord(path, len(entries) // 2 - 2, left_out, tools is not None)
