"""The call history of each server, kept across restarts: one small JSON file per server under
``$XDG_DATA_HOME/mcp-lens/history/`` (0700 folder, 0600 files, written whole and atomically), the
newest `KEPT` calls, redacted like traffic records (the server's secrets by value, URLs' passwords),
a result kept only while it is small."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspector.config.files import data_dir, private_folder, stamped_sibling, utf8, write_atomic
from inspector.config.json_salvage import salvage_list
from inspector.config.redact import Redactor, hide_secret_arguments, secret_arguments
from inspector.config.text_files import decode_utf8, decode_wide, wide_note
from inspector.core.history import PENDING, CallRecord
from inspector.words import counted

VERSION = 1
KEPT = 200  # calls per server
RESULT_BYTES = 32_000  # a bigger result is left out (the call's arguments and outcome are kept)
ARGUMENTS_BYTES = 64_000  # arguments bigger than this are left out too (the call is still listed)
TOTAL_BYTES = 2_000_000  # past this, older calls' results are left out: the file stays small
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_NEXT_CALL = re.compile(r'\n {2}\{\s*"tool"\s*:')  # where `save_history` (indent 1) starts a call


class HistoryDamaged(Exception):
    """A kept history that could not be read whole; `moved_to` is where it was set aside (None: left in
    place), `kept` the calls it still held intact (listed; the next save writes only them)."""

    def __init__(
        self,
        path: Path,
        moved_to: Path | None,
        cause: Exception | str,
        kept: list[CallRecord] | None = None,
        *,
        whole: bool = False,
    ) -> None:
        where = f"set aside as {moved_to.name}" if moved_to else "left where it is"
        self.kept = kept or []
        intact = f"; {counted(len(self.kept), 'intact call')} listed" if self.kept else ""
        if whole:  # read whole, but not a file the next save may replace (UTF-16): its bytes kept aside
            said = f"the kept History in {path}: {cause}{intact}; {where}, so that its bytes are kept"
        else:
            said = f"the kept History in {path} could not be read ({cause}); {where}{intact}"
        super().__init__(said)
        self.path, self.moved_to = path, moved_to


def history_dir(env: Mapping[str, str] | None = None) -> Path:
    return data_dir(env) / "history"


def history_path(server: str, env: Mapping[str, str] | None = None) -> Path:
    """The file of the server called `server` (its name made safe, plus a hash: two names never share one)."""
    safe = _UNSAFE.sub("_", server).strip("._-")[:40] or "server"
    digest = hashlib.sha256(server.encode("utf-8")).hexdigest()[:10]
    return history_dir(env) / f"{safe}-{digest}.json"


def _surely_bigger(value: Any, limit: int) -> bool:
    """Whether `value`'s JSON is surely longer than `limit` bytes, found without writing it: every
    value takes a byte at least, every string its length (a 50 MB result is not serialised to learn it)."""
    budget, stack = limit, [value]
    while stack:
        item = stack.pop()
        budget -= 1
        if isinstance(item, str):
            budget -= len(item)
        elif isinstance(item, dict):
            budget -= sum(len(k) for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        if budget < 0:
            return True
    return False


def _small(value: Any, limit: int) -> Any:
    if _surely_bigger(value, limit):
        return None
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    return value if len(utf8(text)) <= limit else None


def record_entry(record: CallRecord, redactor: Redactor) -> dict[str, Any]:
    """One finished call as the file keeps it (redacted)."""
    arguments = _small(record.arguments, ARGUMENTS_BYTES)
    return {
        "tool": redactor.text(record.tool),
        "arguments": redactor.json(hide_secret_arguments(arguments)) if arguments is not None else None,
        "started": record.started,
        "duration_ms": record.duration_ms,
        "outcome": record.outcome,
        "rounds": record.round,
        "as_task": record.as_task,
        "result": redactor.json(_small(record.result, RESULT_BYTES)) if record.result is not None else None,
        "error": redactor.text(record.error.message) if record.error is not None else None,
    }


def save_history(path: Path, records: list[CallRecord], redactor: Redactor) -> None:
    """Write the newest `KEPT` finished calls of `records` (newest first) to `path`."""
    done_records = [r for r in records if r.outcome != PENDING][:KEPT]
    # what the user typed under a secret-looking name is hidden by value too (a result may echo it)
    typed = [value for r in done_records for value in secret_arguments(r.arguments)]
    if typed:
        redactor = Redactor().merge(redactor).learn(typed)
    done = [record_entry(r, redactor) for r in done_records]
    total = 0
    for entry in done:
        total += len(json.dumps(entry, ensure_ascii=False))
        if total > TOTAL_BYTES:
            total -= len(json.dumps(entry.pop("result"), ensure_ascii=False))
            entry["result"] = None
    private_folder(path.parent)
    write_atomic(path, json.dumps({"version": VERSION, "calls": done}, ensure_ascii=False, indent=1))


def set_aside(path: Path, label: str = "damaged") -> Path | None:
    """Move a history file that cannot be read (or not saved over: UTF-16) to ``<name>.<label>-<time>`` (the next
    save would replace it, and what it held with it); returns where it went, None if it could not be moved."""
    target = stamped_sibling(path, label)
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


def _record(entry: Any) -> CallRecord:
    """One kept call read back; TypeError/ValueError for an entry that is not one."""
    if not isinstance(entry, dict) or not isinstance(entry.get("tool"), str):
        raise TypeError("not a call")
    arguments = entry.get("arguments")
    record = CallRecord(entry["tool"], arguments if isinstance(arguments, dict) else {}, handle=None)
    record.started = float(entry.get("started") or 0.0)
    duration = entry.get("duration_ms")
    record.duration_ms = float(duration) if isinstance(duration, int | float) else None
    record.outcome = str(entry.get("outcome") or "ok")
    record.round = int(entry.get("rounds") or 1)
    record.as_task = bool(entry.get("as_task"))
    record.result = entry.get("result") if isinstance(entry.get("result"), dict) else None
    record.earlier = True
    error = entry.get("error")
    record.error_text = error if isinstance(error, str) else None
    return record


def load_history(path: Path) -> list[CallRecord]:
    """The calls kept in `path`, newest first, as records. Any damage (not UTF-8, not JSON, the wrong shape,
    one bad entry) sets the file aside, never saved over (see `set_aside`), and raises `HistoryDamaged`
    with the intact calls in `kept`."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise HistoryDamaged(path, set_aside(path), exc) from exc
    encoding = None
    if (wide := decode_wide(raw)) is not None:  # an editor re-saved it as UTF-16: read as such
        encoding, raw = wide
    try:
        data = json.loads(decode_utf8(raw))
    except ValueError as exc:  # not UTF-8 or not JSON: the calls that still read whole are kept
        found = salvage_list(raw, "calls", _NEXT_CALL, noun="call")
        records = [r for r in (_record_or_none(item) for _, item, _ in found.items) if r] if found else []
        said = "; ".join(lost.said for lost in found.lost) if found else ""
        cause = f"{exc}; {said}" if said else str(exc)
        if encoding is not None:
            cause = f"{wide_note('file', encoding)}; {cause}"
        raise HistoryDamaged(path, set_aside(path), cause, records[:KEPT]) from exc
    calls = data.get("calls") if isinstance(data, dict) else None
    if not isinstance(calls, list):
        moved = set_aside(path)
        raise HistoryDamaged(path, moved, 'not an object with a "calls" list')
    records = [r for r in (_record_or_none(entry) for entry in calls) if r]
    if bad := len(calls) - len(records):  # the file is set aside whole before the next save writes only the rest
        moved = set_aside(path)
        damaged = counted(bad, "damaged entry", "damaged entries")
        cause = damaged if encoding is None else f"{wide_note('file', encoding)}; {damaged}"
        raise HistoryDamaged(path, moved, cause, records[:KEPT])
    if encoding is not None:  # every call read; the next save writes UTF-8, so the file is set aside first
        label = encoding.lower().replace(" ", "-")
        raise HistoryDamaged(path, set_aside(path, label), wide_note("file", encoding), records[:KEPT], whole=True)
    return records[:KEPT]


def _record_or_none(entry: Any) -> CallRecord | None:
    try:
        return _record(entry)
    except (TypeError, ValueError, KeyError, OverflowError):
        return None
