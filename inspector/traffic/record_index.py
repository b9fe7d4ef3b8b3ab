"""Index a JSONL traffic record (see `jsonl`) without reading it into memory.

One pass notes, per line, where it is in the file and what the traffic log needs to list and filter
it: seq, time, direction, kind, method, id, size, pairing, latency and flags. Everything lives in
compact `array`s and interned strings (a few dozen bytes a line, no Python object per line); the
messages stay on disk and are decoded when shown (`RecordStore`).

A spliced line (``{"msg":<the exact bytes>,"seq":…,"len":N}``) is not json-decoded whole: the
``"len"`` at its end says where the message stops, and only the small metadata after it is parsed.
Other lines (stderr, lifecycle, non-JSON payloads) are parsed whole. `update()` reads only what was
appended since the last call, so a record that is still being written (a live tap) can be followed;
a partial last line waits for its newline.
"""

from __future__ import annotations

import bisect
import json
import math
import os
import time
from array import array
from typing import Any

from inspector.traffic.entry import INFO_NOTES, Direction, Kind
from inspector.traffic.jsonl import read_header

SPLICED = 1  # the message's exact bytes are in the line (after '{"msg":')
FLAGGED = 2  # `Entry.flagged`
MARKED = 4  # `Entry.marked`
ESCAPED = 8  # the message is stored as a JSON string ("raw"): the file's bytes are escaped
BASE64 = 16  # the message is stored as base64 ("raw_b64")
DERIVED = 32  # has a parse error or notes (text the free-text filter also searches)

NO_ID = -(1 << 63)  # rpc id absent (or a string / odd id: decode the entry to see it)
NO_PEER = -1
DIRECTIONS = tuple(Direction)
KINDS = tuple(Kind)
_DIR_CODE = {d.value: n for n, d in enumerate(DIRECTIONS)}
_KIND_CODE = {k.value: n for n, k in enumerate(KINDS)}
_FLAG_KINDS = (_KIND_CODE[Kind.UNPARSABLE.value], _KIND_CODE[Kind.ERROR.value])
_MSG = b'{"msg":'
_LEN = b',"len":'
CHUNK = 4 << 20  # bytes read at a time


class RecordIndex:
    """Offsets and header fields of every whole line of a record file. `len(index)` lines are indexed;
    `update()` indexes more. Bad lines are skipped and described in `problems` (line number, reason)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.fd = -1
        self.fd = os.open(self.path, os.O_RDONLY)
        self.meta: dict[str, Any] | None = None  # the header's "meta", once the header was read
        self.offsets = array("q")
        self.lengths = array("q")  # bytes of the line, without its newline
        self.seqs = array("q")
        self.walls = array("d")
        self.monos = array("d")
        self.dirs = array("b")
        self.kinds = array("b")
        self.methods = array("i")  # into `names`; 0: none
        self.sources = array("i")  # into `names`; 0: none
        self.ids = array("q")
        self.sizes = array("q")  # bytes of the message itself
        self.peers = array("q")
        self.latencies = array("f")  # NaN: none
        self.flags = array("B")
        self.names: list[str] = [""]
        self._name_codes: dict[str, int] = {}
        self.end = 0  # file offset just past the last whole line read
        self.line_number = 0  # lines read (header and blank lines included)
        self.problems: list[tuple[int, str]] = []
        self.repaired: list[int] = []  # indexes whose peer was set by a later line (since last `take_repaired`)
        self._sorted = True  # seqs ascending (always, for records we write)
        self._by_seq: dict[int, int] | None = None

    def __len__(self) -> int:
        return len(self.offsets)

    def close(self, *_: object) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __del__(self) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------------
    def line(self, index: int) -> bytes:
        """The bytes of line `index` (without its newline)."""
        return os.pread(self.fd, self.lengths[index], self.offsets[index])

    def name(self, code: int) -> str | None:
        return self.names[code] if code else None

    def index_of_seq(self, seq: int) -> int | None:
        if self._sorted:
            seqs = self.seqs
            at = bisect.bisect_left(seqs, seq)
            return at if at < len(seqs) and seqs[at] == seq else None
        if self._by_seq is None:
            self._by_seq = {s: n for n, s in enumerate(self.seqs)}
        return self._by_seq.get(seq)

    def file_size(self) -> int:
        return os.fstat(self.fd).st_size

    def caught_up(self) -> bool:
        """Whether every whole line written so far is indexed."""
        size = self.file_size()
        if self.end >= size:
            return True
        tail = os.pread(self.fd, min(size - self.end, CHUNK), self.end)
        return b"\n" not in tail

    def take_repaired(self) -> list[int]:
        repaired, self.repaired = self.repaired, []
        return repaired

    # -- indexing --------------------------------------------------------------------------------
    def update(self, max_lines: int | None = None, max_seconds: float | None = None) -> int:
        """Index whole lines appended since the last call (at most `max_lines`, or for about
        `max_seconds`); returns how many entries were added. Raises `RecordFormatError` only for a
        bad header."""
        deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        before = len(self.offsets)
        limit = math.inf if max_lines is None else before + max_lines
        fd = self.fd
        while len(self.offsets) < limit:
            buf = os.pread(fd, CHUNK, self.end)
            cut = buf.rfind(b"\n") + 1
            if not cut:
                if len(buf) < CHUNK:
                    break  # nothing, or a partial last line: wait for its newline
                buf = self._long_line(buf)
                if buf is None:
                    break
                cut = len(buf)
            base, pos = self.end, 0
            while pos < cut and len(self.offsets) < limit:
                stop = buf.index(b"\n", pos)
                self.line_number += 1
                if self.meta is None:
                    self.meta = read_header(buf[pos:stop]).get("meta") or {}
                elif stop > pos:
                    self._index_line(buf, pos, stop, base)
                pos = stop + 1
                if deadline is not None and not self.line_number % 256 and time.perf_counter() > deadline:
                    limit = 0
            self.end = base + pos
            if deadline is not None and time.perf_counter() > deadline:
                break
        return len(self.offsets) - before

    def _long_line(self, start: bytes) -> bytes | None:
        """A line longer than one chunk: read until its newline (None if it is not written yet)."""
        parts, read = [start], len(start)
        while True:
            more = os.pread(self.fd, CHUNK, self.end + read)
            if not more:
                return None
            at = more.find(b"\n")
            if at >= 0:
                parts.append(more[: at + 1])
                return b"".join(parts)
            parts.append(more)
            read += len(more)

    def _index_line(self, buf: bytes, pos: int, stop: int, base: int) -> None:
        meta: Any = None
        size = -1
        flags = 0
        if buf.startswith(_MSG, pos) and buf[stop - 1] == 0x7D:  # '}'
            at = buf.rfind(_LEN, pos, stop)
            if at > 0:
                try:
                    size = int(buf[at + 7 : stop - 1])
                    msg_end = pos + 7 + size
                    if msg_end < at and buf[msg_end] == 0x2C:  # ','
                        meta = json.loads(b"{" + buf[msg_end + 1 : stop])
                        flags = SPLICED
                except ValueError:
                    meta = None
        if meta is None:
            meta, size, flags = self._parse_whole(buf[pos:stop])
            if meta is None:
                return
        try:
            self._add(meta, size, flags, base + pos, stop - pos)
        except (KeyError, ValueError, TypeError) as exc:
            self.problems.append((self.line_number, f"entry is missing or has a bad field: {exc}"))

    def _parse_whole(self, line: bytes) -> tuple[Any, int, int]:
        try:
            obj = json.loads(line)
        except ValueError as exc:
            self.problems.append((self.line_number, f"not a JSON line: {exc}"))
            return None, 0, 0
        if not isinstance(obj, dict):
            self.problems.append((self.line_number, "entry line is not a JSON object"))
            return None, 0, 0
        if "msg" in obj:
            length = obj.get("len")
            if not line.startswith(_MSG) or not isinstance(length, int):
                self.problems.append((self.line_number, '"msg" entry without its verbatim prefix or "len"'))
                return None, 0, 0
            return obj, length, SPLICED
        if "raw_b64" in obj:
            text = str(obj["raw_b64"]).strip()
            return obj, len(text) * 3 // 4 - len(text) + len(text.rstrip("=")), BASE64
        return obj, len(str(obj.get("raw", "")).encode("utf-8", "replace")), ESCAPED

    def _intern(self, value: Any) -> int:
        if not isinstance(value, str):
            return 0
        code = self._name_codes.get(value)
        if code is None:
            code = self._name_codes[value] = len(self.names)
            self.names.append(value)
        return code

    def _add(self, meta: dict[str, Any], size: int, flags: int, offset: int, length: int) -> None:
        seq = int(meta["seq"])
        wall, mono = float(meta["wall"]), float(meta["mono"])
        direction, kind = _DIR_CODE[meta["dir"]], _KIND_CODE[meta["kind"]]
        notes = meta.get("notes") or ()
        parse_error = meta.get("parse_error")
        flagged = (
            kind in _FLAG_KINDS
            or bool(meta.get("tool_error"))
            or parse_error is not None
            or any(note not in INFO_NOTES for note in notes)
        )
        flags |= FLAGGED if flagged else (MARKED if notes else 0)
        if notes or parse_error is not None:
            flags |= DERIVED
        rpc_id = meta.get("id")
        peer = meta.get("peer")
        latency = meta.get("latency_ms")
        seqs = self.seqs
        if seqs and seq <= seqs[-1]:
            self._sorted = False
        if self._by_seq is not None:
            self._by_seq[seq] = len(seqs)
        self.offsets.append(offset)
        self.lengths.append(length)
        seqs.append(seq)
        self.walls.append(wall)
        self.monos.append(mono)
        self.dirs.append(direction)
        self.kinds.append(kind)
        self.methods.append(self._intern(meta.get("method")))
        self.sources.append(self._intern(meta.get("server")))
        self.ids.append(rpc_id if type(rpc_id) is int and -(1 << 63) < rpc_id < (1 << 63) else NO_ID)
        self.sizes.append(size)
        self.peers.append(peer if type(peer) is int and peer >= 0 else NO_PEER)
        self.latencies.append(float(latency) if isinstance(latency, int | float) else math.nan)
        self.flags.append(flags)
        if type(peer) is int and (other := self.index_of_seq(peer)) is not None and self.peers[other] == NO_PEER:
            self.peers[other] = seq  # a streamed record writes the request before its response
            self.repaired.append(other)
