"""The tap's record: every line each side wrote, in the traffic log's JSON Lines format, written as it
happens and then dropped (a tap runs for days; nothing accumulates in memory).

One entry per line: the exact bytes without the ``\\n`` that frames them (a ``\\r`` stays in), so the
lines of one direction joined with ``\\n`` are exactly what that side wrote. A line split across reads is
recorded once complete; a last line without its newline is recorded at exit, noted as such.
Requests and responses are paired as the app's store pairs them (ids per direction, latency). Every
entry is one ``os.write`` (no user-space buffer). A record past `max_bytes` goes on in a new file whose
header names the previous one. Any failure to record is said once on stderr and recording stops; the
relay never depends on the recorder.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from contextlib import suppress
from pathlib import Path
from typing import Any, TextIO

from inspector.config.redact import ANSWERED_BY_USER, TYPED_BY_USER, Redactor, hide_json_strings, typed_secrets
from inspector.tap.paths import EXITED_PREFIX, create_record_file
from inspector.traffic.classify import Classified, classify_value, parse
from inspector.traffic.entry import SECRETS_HIDDEN, Direction, Entry, Kind
from inspector.traffic.jsonl import encode_entry, header
from inspector.traffic.store import OPPOSITE, id_key

TRANSPORT = "stdio"
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
MAX_PENDING = 10_000  # requests waiting for a response we remember (oldest forgotten first)
NO_NEWLINE = "no newline at the end (the stream ended mid-line)"
CONTINUED = "no newline yet: the line goes on in the next stderr entry"
STDERR_LINE_LIMIT = 1 << 20


class LineSplitter:
    """Splits a byte stream into lines (without the ``\\n``); keeps the partial tail as chunks."""

    def __init__(self) -> None:
        self._partial: list[bytes] = []
        self.pending = 0  # bytes held in the partial line

    def feed(self, data: bytes) -> list[bytes]:
        lines = []
        start = 0
        while (end := data.find(b"\n", start)) != -1:
            if self._partial:
                self._partial.append(data[start:end])
                lines.append(b"".join(self._partial))
                self._partial.clear()
                self.pending = 0
            else:
                lines.append(data[start:end])
            start = end + 1
        if start < len(data):
            self._partial.append(data[start:])
            self.pending += len(data) - start
        return lines

    def rest(self) -> bytes | None:
        """The partial last line, if any (and forget it)."""
        if not self._partial:
            return None
        rest = b"".join(self._partial)
        self._partial.clear()
        self.pending = 0
        return rest


class TapRecorder:
    """Writes one tap's record. Thread-safe: the relay's three pumps call it concurrently."""

    def __init__(
        self,
        folder: Path,
        meta: dict[str, Any],
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        err: TextIO | None = None,
        redactor: Redactor | None = None,
    ) -> None:
        self.folder = folder
        # The server's secrets (its secret-looking environment, flags, DSN passwords) never reach the file:
        # every entry and the header go through `redactor`.
        self.redactor = redactor or Redactor()
        self.meta = self.redactor.json(meta)  # the header's "tap" object: name, command, pid, child_pid, started, cwd
        if isinstance(meta.get("command"), list):
            self.meta["command"] = self.redactor.args([str(word) for word in meta["command"]])
        self.max_bytes = max_bytes
        self.path: Path | None = None
        self.failed: str | None = None
        self.closed = False
        self._err = err
        self._lock = threading.Lock()
        self._fd = -1
        self._size = 0
        self._entries_in_part = 0
        self._part = 0
        self._seq = 1
        self._splitters = {Direction.OUT: LineSplitter(), Direction.IN: LineSplitter(), "stderr": LineSplitter()}
        self._pending: OrderedDict[tuple[Direction, int | str], tuple[int, float, str]] = OrderedDict()
        with self._lock:
            self._guard(self._open_part, None)

    # -- what the relay calls ------------------------------------------------------------------
    def lifecycle(self, text: str, notes: tuple[str, ...] = ()) -> None:
        text = " ".join(self.redactor.args(self.redactor.text(text).split(" ")))  # by value, then `--token X` as words
        with self._lock:
            self._guard(self._write, self._entry(Direction.META, Kind.LIFECYCLE, text.encode(), notes))

    def data(self, direction: Direction, chunk: bytes) -> None:
        """Bytes one side wrote (OUT: host → server, IN: server → host); complete lines are recorded."""
        with self._lock:
            if self.failed is None:
                for line in self._splitters[direction].feed(chunk):
                    self._guard(self._message, direction, line, ())

    def stderr(self, chunk: bytes) -> None:
        """Stderr lines; a line still open past `STDERR_LINE_LIMIT` (a progress bar redrawn with
        ``\r``, say) is recorded in pieces rather than held in memory."""
        with self._lock:
            if self.failed is None:
                splitter = self._splitters["stderr"]
                for line in splitter.feed(chunk):
                    self._guard(self._write, self._entry(Direction.IN, Kind.STDERR, line, ()))
                if splitter.pending > STDERR_LINE_LIMIT and (piece := splitter.rest()) is not None:
                    self._guard(self._write, self._entry(Direction.IN, Kind.STDERR, piece, (CONTINUED,)))

    def end_of(self, stream: Direction | str) -> None:
        """`stream` ended: record its partial last line, if any."""
        with self._lock:
            rest = self._splitters[stream].rest()
            if rest is None or self.failed is not None:
                return
            if stream == "stderr":
                self._guard(self._write, self._entry(Direction.IN, Kind.STDERR, rest, (NO_NEWLINE,)))
            else:
                self._guard(self._message, stream, rest, (NO_NEWLINE,))

    def close(self, exit_text: str, notes: tuple[str, ...] = ()) -> None:
        """Record what is left and the process's exit (text starting "process exited"), then close."""
        for stream in (Direction.OUT, Direction.IN, "stderr"):
            self.end_of(stream)
        assert exit_text.startswith(EXITED_PREFIX)
        self.lifecycle(exit_text, notes)
        with self._lock:
            self.closed = True
            if self._fd >= 0:
                os.close(self._fd)
                self._fd = -1

    # -- inside the lock -----------------------------------------------------------------------
    def _guard(self, fn: Any, *args: Any) -> None:
        if self.failed is not None or self.closed:
            return
        try:
            fn(*args)
        except Exception as exc:  # disk full, folder gone, a bug: the relay goes on regardless
            self.failed = str(exc) or type(exc).__name__
            if self._fd >= 0:
                with suppress(OSError):
                    os.close(self._fd)
                self._fd = -1
            if self._err is not None:
                try:
                    self._err.write(f"mcp-lens tap: recording stopped ({self.failed}); still relaying\n")
                    self._err.flush()
                except (OSError, ValueError):
                    pass

    def _entry(self, direction: Direction, kind: Kind, raw: bytes, notes: tuple[str, ...]) -> Entry:
        seq = self._seq
        self._seq += 1
        raw = self.redactor.data(raw)
        return Entry(seq, time.time(), time.monotonic(), direction, TRANSPORT, kind, raw, notes=notes)

    def _message(self, direction: Direction, raw: bytes, notes: tuple[str, ...]) -> None:
        value, c = parse(raw)
        typed = self._typed(value, c) if direction is Direction.OUT else []
        del value  # a huge message's tree is not held while its line is written
        entry = self._entry(direction, c.kind, raw, notes)
        if typed:
            # A value typed into a secret-looking field (a tool's or prompt's `password`, a form's) is learned
            # before this line is written: hidden here, in the server's echo and in every later line; one
            # too short to learn, in this line only (by name).
            self.redactor.learn(typed)
            entry.raw = hide_json_strings(self.redactor.data(raw), typed)
        if entry.raw is not raw and entry.raw != raw:  # the record never passes changed bytes off as the wire's
            entry.note(SECRETS_HIDDEN)
        entry.parse_error, entry.rpc_id, entry.method, entry.error_code = (
            c.parse_error,
            c.rpc_id,
            c.method,
            c.error_code,
        )
        if c.note:
            entry.note(c.note)
        if c.kind is Kind.REQUEST and c.rpc_id is not None:
            self._pending[(direction, id_key(c.rpc_id))] = (entry.seq, entry.mono, c.method or "")
            if len(self._pending) > MAX_PENDING:
                self._pending.popitem(last=False)
        elif c.kind in (Kind.RESPONSE, Kind.ERROR):
            self._pair(entry, direction, c.is_tool_error)
        elif c.method == "notifications/cancelled":
            self._cancelled(entry, direction)
        self._write(entry)

    def _typed(self, value: Any, c: Classified) -> list[str]:
        """What the host's user typed into secret-named fields of this host → server message (`value`: its
        JSON), looked for only in the methods that carry such fields, in each member of a batch."""
        batch = (c.note or "").startswith("batch of") and isinstance(value, list)
        if not batch and self._where(c.kind, c.method, c.rpc_id) is None:
            return []
        found: list[str] = []
        for message in value if batch else [value]:
            if isinstance(message, dict) and (where := self._where_in(message)) is not None:
                found += typed_secrets(message, where)
        return found

    def _where_in(self, message: dict[str, Any]) -> tuple[str, str] | None:
        c = classify_value(message)
        return self._where(c.kind, c.method, c.rpc_id)

    def _where(self, kind: Kind, method: str | None, rpc_id: int | str | None) -> tuple[str, str] | None:
        """Where a host → server message of this kind carries what the user typed, if anywhere."""
        if kind is Kind.REQUEST:
            return TYPED_BY_USER.get(method or "")
        if kind is Kind.RESPONSE and rpc_id is not None:
            asked = self._pending.get((Direction.IN, id_key(rpc_id)))
            return ANSWERED_BY_USER.get(asked[2]) if asked is not None else None
        return None

    def _pair(self, entry: Entry, direction: Direction, tool_error: bool) -> None:
        if entry.rpc_id is None:
            entry.note("response without an id")
            return
        request = self._pending.pop((OPPOSITE[direction], id_key(entry.rpc_id)), None)
        if request is None:
            entry.note("unknown id")
            return
        seq, mono, method = request
        entry.peer_seq = seq
        entry.method = method
        entry.latency_ms = (entry.mono - mono) * 1000.0
        entry.is_tool_error = tool_error and method == "tools/call"

    def _cancelled(self, entry: Entry, direction: Direction) -> None:
        parsed = entry.parsed()
        params = parsed.get("params") if isinstance(parsed, dict) else None
        rpc_id = params.get("requestId") if isinstance(params, dict) else None
        if isinstance(rpc_id, int | str) and not isinstance(rpc_id, bool):
            request = self._pending.get((direction, id_key(rpc_id)))
            if request is not None:
                entry.peer_seq = request[0]

    def _write(self, entry: Entry) -> None:
        line = encode_entry(entry) + b"\n"
        if self._entries_in_part and self._size + len(line) > self.max_bytes:
            self._open_part(self.path.name if self.path else None)
        try:
            _write_all(self._fd, line)
        except OSError:
            with suppress(OSError):  # a line cut short (disk full) would make the whole record unreadable
                os.ftruncate(self._fd, self._size)
            raise
        self._size += len(line)
        self._entries_in_part += 1

    def _open_part(self, previous: str | None) -> None:
        self._part += 1
        path, fd = create_record_file(self.folder, str(self.meta.get("name", "server")), os.getpid(), self._part)
        tap = dict(self.meta)
        if previous is not None:
            tap.update(continues=previous, part=self._part)
        head = header({"tap": tap}) + b"\n"
        try:
            _write_all(fd, head)
        except OSError:
            os.close(fd)
            with suppress(OSError):
                path.unlink()  # no half-written header left behind
            raise
        if self._fd >= 0:
            os.close(self._fd)
        self.path, self._fd, self._size, self._entries_in_part = path, fd, len(head), 0


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
