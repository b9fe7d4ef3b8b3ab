"""A record opened for replay: its exchanges (a client's request, the server's answer, what the server
sent meanwhile), read through the record index (`traffic/record_index`) so memory stays flat with the
record's size: offsets and keys in arrays, each message decoded when it is needed.

`open_record(path, server=None) -> Replay`. A record of several servers (an export of the workspace)
needs `server`; damaged lines are left out and named in `Replay.warnings`. A tap record rotated by size
is read from its first part on (`parts`: the parts before `path` its headers name).
"""

from __future__ import annotations

import json
import os
from array import array
from dataclasses import dataclass, field
from typing import Any

from inspector.replay.parts import PartsIndex, record_parts
from inspector.replay.volatile import HANDSHAKES, request_key
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.jsonl import RecordFormatError, decode_entry
from inspector.traffic.record_index import DIRECTIONS, KINDS, NO_PEER, SPLICED, RecordIndex

MODERN, LEGACY = "2026-07-28", "2025-11-25"
_OUT, _IN = DIRECTIONS.index(Direction.OUT), DIRECTIONS.index(Direction.IN)
_REQ, _NOTE = KINDS.index(Kind.REQUEST), KINDS.index(Kind.NOTIFICATION)
_ANSWERS = (KINDS.index(Kind.RESPONSE), KINDS.index(Kind.ERROR))
_CLIENT = (_REQ, _NOTE, *_ANSWERS)  # what the client sends
_HTTP = KINDS.index(Kind.HTTP_META)
_MSG = b'{"msg":'
SLICE = 8192  # lines indexed at a time
SAID_DAMAGED = 5  # damaged lines named when nothing readable is left


class ReplayError(ValueError):
    """The record cannot be replayed as asked (not a record, several servers and none chosen, no
    exchange in it); the message says what to do."""


@dataclass(frozen=True, slots=True)
class Message:
    """One recorded message: its exact bytes, its JSON value, when (seconds on the recorder's clock),
    and its HTTP metadata when it went over HTTP."""

    raw: bytes
    value: Any
    mono: float
    http: dict[str, Any] | None = None


@dataclass
class Replay:
    """The exchanges of one server in a record. Exchange ``n`` is the client's request at index row
    ``requests[n]``; `response(n)` its recorded answer (None: never answered), `server_messages(n)` what
    the server sent between it and the client's next request (notifications and its own requests), in
    order. `server_requests` are the server's own requests (sampling, elicitation, roots), each with the
    client's recorded answer (`client_answer`)."""

    path: str
    index: RecordIndex | PartsIndex
    server: str | None
    servers: list[str]
    era: str | None = None
    warnings: list[str] = field(default_factory=list)
    parts: list[str] = field(default_factory=list)  # a rotated record's file names, oldest first (else empty)
    requests: array = field(default_factory=lambda: array("q"))  # index rows of the client's requests
    keys: array = field(default_factory=lambda: array("q"))  # their `request_key`
    client_notes: array = field(default_factory=lambda: array("q"))  # rows of the client's notifications
    server_requests: array = field(default_factory=lambda: array("q"))  # rows of the server's requests
    server_request_keys: array = field(default_factory=lambda: array("q"))

    def __len__(self) -> int:
        return len(self.requests)

    def close(self) -> None:
        self.index.close()

    def message(self, row: int) -> Message:
        """The message at index row `row`, decoded now."""
        index = self.index
        if index.flags[row] & SPLICED:  # the message's exact bytes are in the line: sliced, parsed once
            raw = index.line(row)[len(_MSG) : len(_MSG) + index.sizes[row]]
            try:
                value = json.loads(raw)
            except ValueError:
                value = None
            return Message(raw, value, index.monos[row])
        entry = decode_entry(index.line(row))
        return Message(entry.raw, entry.parsed(), entry.mono, entry.http)

    def method(self, n: int) -> str | None:
        return self.index.name(self.index.methods[self.requests[n]])

    def request(self, n: int) -> Message:
        return self.message(self.requests[n])

    def response(self, n: int) -> Message | None:
        row = self.response_row(n)
        return None if row is None else self.message(row)

    def server_messages(self, n: int) -> list[Message]:
        """The server's notifications and requests after request `n` and before the client's next
        message (its answer excluded), in the record's order."""
        return [self.message(row) for row in self.server_rows(n)]

    def server_rows(self, n: int) -> list[int]:
        """The index rows of `server_messages(n)`."""
        index, out = self.index, []
        dirs, kinds = index.dirs, index.kinds
        for row in range(self.requests[n] + 1, len(index)):
            if not self._ours(row):
                continue
            if dirs[row] == _OUT and kinds[row] in _CLIENT:
                break  # the client's next message
            if dirs[row] == _IN and kinds[row] in (_NOTE, _REQ):
                out.append(row)
        return out

    def response_row(self, n: int) -> int | None:
        """The index row of request `n`'s recorded answer (None: never answered): its JSON-RPC answer, else
        the JSON body of an HTTP error status the server answered its POST with (an era probe's HTTP 400)."""
        peer = self.index.peers[self.requests[n]]
        if peer != NO_PEER:
            return self.index.index_of_seq(peer)
        return self._http_error_row(self.requests[n])

    def _http_error_row(self, asked: int) -> int | None:
        index = self.index
        seq = index.seqs[asked]
        for row in range(asked + 1, len(index)):
            if index.dirs[row] == _OUT and index.kinds[row] == _REQ:
                return None  # the client's next request: its POST was answered by then
            if index.dirs[row] != _IN or index.kinds[row] != _HTTP or not self._ours(row):
                continue
            try:
                entry = decode_entry(index.line(row))
            except RecordFormatError:
                continue
            http = entry.http or {}
            status = http.get("status")
            body = http.get("request_seq") == seq and isinstance(status, int) and status >= 400
            if body and isinstance(entry.parsed(), dict):  # the body (the status line's own entry is text)
                return row
        return None

    def client_answer(self, m: int) -> Message | None:
        """The client's recorded answer to the server's request `m`."""
        peer = self.index.peers[self.server_requests[m]]
        row = None if peer == NO_PEER else self.index.index_of_seq(peer)
        return None if row is None else self.message(row)

    def methods(self) -> list[str]:
        """The distinct methods the client asked, in first-asked order."""
        seen: dict[str, None] = {}
        for n in range(len(self)):
            seen.setdefault(self.method(n) or "?", None)
        return list(seen)

    def _ours(self, row: int) -> bool:
        if self.server is None:
            return True
        return self.index.name(self.index.sources[row]) == self.server


def open_record(path: str | os.PathLike[str], server: str | None = None, option: str = "--server") -> Replay:
    """Index the record at `path` and list the exchanges of `server` (needed when the record holds several;
    `option`: the command's option that names it, for the message).
    Raises `ReplayError` with a message for the user; `OSError` when the file cannot be read."""
    paths = record_parts(path)
    indexes: list[RecordIndex] = []
    try:
        for part in paths:
            indexes.append(RecordIndex(part))
            _index_all(indexes[-1])
    except OSError:
        for opened in indexes:
            opened.close()
        raise
    except RecordFormatError as exc:
        for opened in indexes:
            opened.close()
        raise ReplayError(
            f"{os.fspath(paths[len(indexes) - 1])} is not a traffic record MCP Lens can read: {exc}"
        ) from None
    index: Any = indexes[0] if len(indexes) == 1 else PartsIndex(paths, indexes)
    servers = _servers(index)
    if server is None and len(servers) > 1:
        index.close()
        raise ReplayError(
            f"{os.fspath(path)} holds {len(servers)} servers; choose one with {option} NAME: "
            + ", ".join(repr(name) for name in servers)
        )
    if server is not None and servers and server not in servers:
        index.close()
        raise ReplayError(f"no server {server!r} in {os.fspath(path)}; it holds: " + ", ".join(map(repr, servers)))
    chosen = server if servers else None
    replay = Replay(os.fspath(path), index, chosen, servers)
    for part, opened in zip(paths, indexes, strict=True):  # an editor re-saved it as UTF-16: said once
        if opened.wide is not None:
            replay.warnings.append(f"{part.name}: {opened.wide.note}" if len(paths) > 1 else opened.wide.note)
    if isinstance(index, PartsIndex):
        replay.parts = [p.name for p in paths]
        replay.warnings += [f"{said}; replayed without it" for said in index.described()]
    else:
        for bad in index.damaged:
            replay.warnings.append(f"{bad.describe()}; replayed without it")
        if (tail := index.cut_tail()) is not None:
            replay.warnings.append(f"{tail.describe()}; replayed without it")
    _collect(replay)
    if not len(replay):
        replay.close()
        said = f"{os.fspath(path)} has no request from a client to replay"
        if replay.warnings:  # every line damaged, say: which, and why
            more = len(replay.warnings) - SAID_DAMAGED
            said += "; " + "; ".join(replay.warnings[:SAID_DAMAGED]) + (f"; and {more} more" if more > 0 else "")
        raise ReplayError(said)
    return replay


def _index_all(index: RecordIndex) -> None:
    """Index every line, a slice at a time: the rows whose request a later line answered (`repaired`, one
    Python int each, a streamed record's every request) are dropped after each slice, not kept to the end."""
    while index.update(max_lines=SLICE):
        index.take_repaired()
    index.take_repaired()


def _servers(index: RecordIndex) -> list[str]:
    meta = index.meta or {}
    names = [name for name in meta.get("servers") or () if isinstance(name, str)]
    codes = set(index.sources)
    for code in sorted(codes):
        name = index.name(code)
        if name and name not in names:
            names.append(name)
    return names


def _collect(replay: Replay) -> None:
    index = replay.index
    for row in range(len(index)):
        if not replay._ours(row):
            continue
        direction, kind = index.dirs[row], index.kinds[row]
        if direction == _OUT and kind == _NOTE:
            replay.client_notes.append(row)
        elif direction == _OUT and kind == _REQ:
            value = _value(replay, row)
            if value is None:
                continue
            replay.requests.append(row)
            replay.keys.append(request_key(value))
            method = value.get("method")
            if replay.era is None and method in HANDSHAKES and _answered(replay, row):
                replay.era = MODERN if method == "server/discover" else LEGACY
        elif direction == _IN and kind == _REQ:
            value = _value(replay, row)
            if value is not None:
                replay.server_requests.append(row)
                replay.server_request_keys.append(request_key(value))


def _value(replay: Replay, row: int) -> dict[str, Any] | None:
    try:
        value = replay.message(row).value
    except RecordFormatError:
        value = None
    if not isinstance(value, dict):
        replay.warnings.append(f"the request at entry {replay.index.seqs[row]} does not read; replayed without it")
        return None
    return value


def _answered(replay: Replay, row: int) -> bool:
    peer = replay.index.peers[row]
    other = None if peer == NO_PEER else replay.index.index_of_seq(peer)
    return other is not None and KINDS[replay.index.kinds[other]] is Kind.RESPONSE
