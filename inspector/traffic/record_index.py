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
from itertools import pairwise
from typing import Any

from inspector.config.text_files import marked_wide, wide_encoding, wide_refusal
from inspector.platform.files import pread
from inspector.traffic.entry import Direction, Kind, is_flagged
from inspector.traffic.jsonl import BadLine, RecordFormatError, line_problem, read_header
from inspector.traffic.wide_copy import WideCopy

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
_REQUEST = _KIND_CODE[Kind.REQUEST.value]
_decode = json.JSONDecoder().raw_decode
BATCH = 1024  # lines whose metadata is parsed in one call


def _flags(meta: dict[str, Any], kind: int, flags: int) -> int:
    """`flags` with FLAGGED / MARKED / DERIVED as the entry's kind, notes and parse error say."""
    notes = meta.get("notes") or ()
    parse_error = meta.get("parse_error")
    probe = meta.get("probe") if isinstance(meta.get("probe"), str) else None
    if is_flagged(KINDS[kind], bool(meta.get("tool_error")), parse_error, tuple(notes), probe):
        flags |= FLAGGED
    elif notes or probe is not None:
        flags |= MARKED
    if notes or parse_error is not None:
        flags |= DERIVED
    return flags


def pos_meta(start: int, size: int) -> int:
    """Where the metadata of the spliced line at `start` begins (after the message and its comma)."""
    return start + len(_MSG) + size + 1


def _one_meta(tail: bytes) -> dict[str, Any] | None:
    try:
        text = "{" + tail.decode()
        meta, used = _decode(text)
    except ValueError:
        return None
    return meta if used == len(text) and type(meta) is dict else None


def _batch_metas(tails: list[bytes]) -> list[Any] | None:
    """The metadata objects of a batch of spliced lines in one parse; None if any is odd (a count that
    does not match, or not objects), so that the caller parses them one by one."""
    if not tails:
        return []
    try:
        metas = json.loads(b"[{" + b",{".join(tails) + b"]")
    except ValueError:
        return None
    if len(metas) != len(tails) or any(type(meta) is not dict for meta in metas):
        return None
    return metas


_MSG = b'{"msg":'
_LEN = b',"len":'
CHUNK = 4 << 20  # bytes read at a time


class RecordIndex:
    """Offsets and header fields of every whole line of a record file. `len(index)` lines are indexed;
    `update()` indexes more. Bad lines are left out of the entries and kept in `damaged` (number, reason,
    their bytes) and `problems` (number, reason); `cut_tail()` tells of a last line without its newline."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.fd = -1
        self.fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))  # Windows: no CRLF translation
        self.wide: WideCopy | None = None  # a UTF-16/32 record with its mark: read through a UTF-8 copy
        if (found := marked_wide(pread(self.fd, 64, 0))) is not None:
            self.wide = WideCopy(self.fd, *found)
            self.fd = self.wide.fd
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
        self.damaged: list[BadLine] = []
        self._header_error: RecordFormatError | None = None
        self.repaired: list[int] = []  # indexes whose peer was set by a later line (since last `take_repaired`)
        self._sorted = True  # seqs ascending (always, for records we write)
        self._by_seq: dict[int, int] | None = None
        self._rows: list[tuple[Any, ...]] = []  # entries read, not yet in the arrays
        self._peer_lines: list[tuple[int, int, int]] = []  # (index, seq, peer seq) of lines naming a peer
        self._open: dict[int, int] = {}  # seq → index of requests not answered yet
        self._columns = (
            self.offsets,
            self.lengths,
            self.seqs,
            self.walls,
            self.monos,
            self.dirs,
            self.kinds,
            self.methods,
            self.sources,
            self.ids,
            self.sizes,
            self.peers,
            self.latencies,
            self.flags,
        )

    def __len__(self) -> int:
        return len(self.offsets)

    def close(self, *_: object) -> None:
        if self.wide is not None:
            self.wide.close()  # the copy's descriptor with it
            self.fd = -1
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __del__(self) -> None:
        self.close()

    # -- reading ---------------------------------------------------------------------------------
    def line(self, index: int) -> bytes:
        """The bytes of line `index` (without its newline)."""
        return pread(self.fd, self.lengths[index], self.offsets[index])

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
            return self.wide is None or self.wide.caught_up()
        tail = pread(self.fd, min(size - self.end, CHUNK), self.end)
        return b"\n" not in tail and (self.wide is None or self.wide.caught_up())

    def percent_read(self) -> int:
        """How much of the file is indexed, in percent (of the file itself, not of a UTF-8 copy)."""
        indexed = 100 * self.end // max(1, self.file_size())
        if self.wide is None:
            return indexed
        return min(indexed, 100 * self.wide.read // max(1, os.fstat(self.wide.source_fd).st_size))

    def take_repaired(self) -> list[int]:
        repaired, self.repaired = self.repaired, []
        return repaired

    # -- indexing --------------------------------------------------------------------------------
    def update(self, max_lines: int | None = None, max_seconds: float | None = None) -> int:
        """Index whole lines appended since the last call (at most `max_lines`, or for about
        `max_seconds`); returns how many entries were added. Raises `RecordFormatError` only for a
        bad header."""
        deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        if self.wide is not None:
            for bad in self.wide.pump(deadline):
                self._bad(bad.number, bad.reason, bad.raw)
        elif self.end == 0 and (wide := wide_encoding(pread(self.fd, 64, 0))):
            raise RecordFormatError(wide_refusal("record", wide))  # no mark: not a file of damaged lines
        before = len(self.offsets)
        limit = math.inf if max_lines is None else max_lines
        fd = self.fd
        while len(self.offsets) - before < limit:
            buf = pread(fd, CHUNK, self.end)
            cut = buf.rfind(b"\n") + 1
            if not cut:
                if len(buf) < CHUNK:
                    break  # nothing, or a partial last line: wait for its newline
                buf = self._long_line(buf)
                if buf is None:
                    break
                cut = len(buf)
            base, pos = self.end, 0
            while pos < cut:
                room = min(BATCH, limit - (len(self.offsets) - before))
                if room <= 0:
                    break
                pos = self._index_batch(buf, pos, cut, base, room)
                self.end = base + pos
                self._flush_rows()
                if deadline is not None and time.perf_counter() > deadline:
                    self._check_header()
                    return len(self.offsets) - before
        self._check_header()
        return len(self.offsets) - before

    def _check_header(self) -> None:
        """A damaged first line is one damaged line of a record whose entries follow; with no entry in the
        first batch of lines (or in the whole file) it is not a record: `RecordFormatError`."""
        if self.wide is not None:  # the lines that did not decode were told first: in line order again
            self.damaged.sort(key=lambda bad: bad.number)
            self.problems.sort()
        undecided = self._header_error is not None and not len(self.offsets)
        if undecided and (self.line_number > BATCH or self.caught_up()):
            raise self._header_error

    def _long_line(self, start: bytes) -> bytes | None:
        """A line longer than one chunk: read until its newline (None if it is not written yet)."""
        parts, read = [start], len(start)
        while True:
            more = pread(self.fd, CHUNK, self.end + read)
            if not more:
                return None
            at = more.find(b"\n")
            if at >= 0:
                parts.append(more[: at + 1])
                return b"".join(parts)
            parts.append(more)
            read += len(more)

    def _index_batch(self, buf: bytes, pos: int, cut: int, base: int, room: int) -> int:
        """Index up to `room` lines of `buf` from `pos` (below `cut`); returns where it stopped. The
        metadata of spliced lines is parsed in one `json.loads` for the whole batch."""
        tails: list[bytes] = []  # metadata after the message of each spliced line, without its '{'
        lines: list[tuple[int, int, int, int]] = []  # (start, stop, message size or -1, line number)
        find, rfind, startswith = buf.index, buf.rfind, buf.startswith
        while pos < cut and len(lines) < room:
            stop = find(b"\n", pos)
            self.line_number += 1
            if self.meta is None:
                try:
                    self.meta = read_header(buf[pos:stop]).get("meta") or {}
                except RecordFormatError as exc:  # damaged: a record still, if entries follow (`_check_header`)
                    self.meta, self._header_error = {}, exc
                    if stop > pos or not any(bad.number == 1 for bad in self.damaged):  # else told as not UTF-16
                        self._bad(self.line_number, str(exc), buf[pos:stop])
            elif stop > pos:
                size = -1
                if startswith(_MSG, pos) and buf[stop - 1] == 0x7D:  # '}'
                    at = rfind(_LEN, pos, stop)
                    digits = buf[at + 7 : stop - 1]
                    if at > 0 and digits.isdigit():
                        msg_end = pos + 7 + int(digits)
                        if msg_end < at and buf[msg_end] == 0x2C:  # ','
                            size = int(digits)
                            tails.append(buf[msg_end + 1 : stop])
                lines.append((pos, stop, size, self.line_number))
            pos = stop + 1
        metas = _batch_metas(tails)
        spliced = iter(metas) if metas is not None else None
        batch: list[tuple[Any, int, int, int, int, int]] = []  # (meta, size, flags, offset, length, line number)
        for start, stop, size, number in lines:
            meta: Any = None
            flags = SPLICED
            if size >= 0:
                # When one of the batch is odd, each is parsed on its own.
                meta = next(spliced) if spliced is not None else _one_meta(buf[pos_meta(start, size) : stop])
            if meta is None:
                meta, size, flags = self._parse_whole(buf[start:stop], number)
                if meta is None:
                    continue
            batch.append((meta, size, flags, base + start, stop - start, number))
        try:
            self._add_columns(batch)
        except (KeyError, ValueError, TypeError, AttributeError):  # a bad field somewhere: one by one
            for meta, size, flags, offset, length, number in batch:
                try:
                    self._add(meta, size, flags, offset, length)
                except (KeyError, ValueError, TypeError, AttributeError) as exc:
                    raw = pread(self.fd, length, offset)
                    self._bad(number, f"entry is missing or has a bad field: {exc}", raw)
        return pos

    def _add_columns(self, batch: list[tuple[Any, int, int, int, int, int]]) -> None:
        """Add a batch of entries column by column (fast); raises on any bad field, adding nothing."""
        if not batch:
            return
        metas = [row[0] for row in batch]
        seqs = [int(m["seq"]) for m in metas]
        walls = [float(m["wall"]) for m in metas]
        monos = [float(m["mono"]) for m in metas]
        dirs = [_DIR_CODE[m["dir"]] for m in metas]
        kinds = [_KIND_CODE[m["kind"]] for m in metas]
        codes, intern = self._name_codes, self._intern
        methods = [0 if (x := m.get("method")) is None else (codes.get(x) or intern(x)) for m in metas]
        sources = [0 if (x := m.get("server")) is None else (codes.get(x) or intern(x)) for m in metas]
        ids = [x if type(x := m.get("id")) is int and -(1 << 63) < x < (1 << 63) else NO_ID for m in metas]
        peers = [x if type(x := m.get("peer")) is int and x >= 0 else NO_PEER for m in metas]
        nan = math.nan
        latencies = [float(x) if type(x := m.get("latency_ms")) is float or type(x) is int else nan for m in metas]
        flags = [row[2] for row in batch]
        for n, m in enumerate(metas):
            if kinds[n] in _FLAG_KINDS or "notes" in m or "parse_error" in m or "tool_error" in m or "probe" in m:
                flags[n] = _flags(m, kinds[n], flags[n])
        first = len(self.offsets)
        if (self.seqs and seqs[0] <= self.seqs[-1]) or any(a >= b for a, b in pairwise(seqs)):
            self._sorted = False
        self.offsets.extend([row[3] for row in batch])
        self.lengths.extend([row[4] for row in batch])
        self.sizes.extend([row[1] for row in batch])
        for target, column in (
            (self.seqs, seqs),
            (self.walls, walls),
            (self.monos, monos),
            (self.dirs, dirs),
            (self.kinds, kinds),
            (self.methods, methods),
            (self.sources, sources),
            (self.ids, ids),
            (self.peers, peers),
            (self.latencies, latencies),
            (self.flags, flags),
        ):
            target.extend(column)
        if self._by_seq is not None:
            self._by_seq.update((seq, first + n) for n, seq in enumerate(seqs))
        opened = self._open
        for n, kind in enumerate(kinds):
            if kind == _REQUEST and peers[n] == NO_PEER and metas[n].get("id") is not None:
                opened[seqs[n]] = first + n
        self._peer_lines.extend((first + n, seqs[n], peer) for n, peer in enumerate(peers) if peer != NO_PEER)
        self._pair()

    def _parse_whole(self, line: bytes, number: int) -> tuple[Any, int, int]:
        try:
            obj = json.loads(line)
        except ValueError as exc:
            self._bad(number, line_problem(line, exc), line)
            return None, 0, 0
        if not isinstance(obj, dict):
            self._bad(number, "entry line is not a JSON object", line)
            return None, 0, 0
        if "msg" in obj:
            length = obj.get("len")
            if not line.startswith(_MSG) or not isinstance(length, int):
                self._bad(number, '"msg" entry without its verbatim prefix or "len"', line)
                return None, 0, 0
            return obj, length, SPLICED
        if "raw_b64" in obj:
            text = str(obj["raw_b64"]).strip()
            return obj, len(text) * 3 // 4 - len(text) + len(text.rstrip("=")), BASE64
        return obj, len(str(obj.get("raw", "")).encode("utf-8", "replace")), ESCAPED

    def _bad(self, number: int, reason: str, raw: bytes) -> None:
        self.problems.append((number, reason))
        self.damaged.append(BadLine(number, reason, raw))

    def line_number_at(self, offset: int) -> int:
        """The number of the line starting at byte `offset` (the header is line 1): a count of the newlines
        before it, for the rare line found damaged only when shown."""
        newlines, pos = 0, 0
        while pos < offset:
            chunk = pread(self.fd, min(CHUNK, offset - pos), pos)
            if not chunk:
                break
            newlines += chunk.count(b"\n")
            pos += len(chunk)
        return newlines + 1

    def cut_tail(self) -> BadLine | None:
        """The bytes after the last whole line (a last line whose newline never came), once every whole
        line is indexed; None when there are none. While a writer still runs, the line may yet end."""
        if self.wide is not None:
            return self.wide.cut_tail(self.line_number + 1) if self.caught_up() else None
        size = self.file_size()
        if self.end >= size or not self.caught_up():
            return None
        tail = pread(self.fd, min(size - self.end, CHUNK), self.end)
        if not tail.strip():
            return None
        return BadLine(
            self.line_number + 1, "the last line has no newline: its writer stopped mid-line", tail, cut=True
        )

    def _intern(self, value: Any) -> int:
        if not isinstance(value, str):
            return 0
        code = self._name_codes.get(value)
        if code is None:
            code = self._name_codes[value] = len(self.names)
            self.names.append(value)
        return code

    def _add(self, meta: dict[str, Any], size: int, flags: int, offset: int, length: int) -> None:
        """Note one entry (its arrays are extended once per chunk, in `_flush_rows`)."""
        get = meta.get
        seq = int(meta["seq"])
        kind = _KIND_CODE[meta["kind"]]
        wall, mono, direction = float(meta["wall"]), float(meta["mono"]), _DIR_CODE[meta["dir"]]
        flags = _flags(meta, kind, flags)
        rpc_id, peer, latency = get("id"), get("peer"), get("latency_ms")
        method, server = get("method"), get("server")
        codes = self._name_codes
        index = len(self.offsets) + len(self._rows)
        if type(peer) is int and peer >= 0:
            self._peer_lines.append((index, seq, peer))
        else:
            peer = NO_PEER
            if kind == _REQUEST and type(rpc_id) is not type(None):
                self._open[seq] = index  # waits for the line that answers it
        self._rows.append(
            (
                offset,
                length,
                seq,
                wall,
                mono,
                direction,
                kind,
                (codes.get(method) or self._intern(method)) if method is not None else 0,
                (codes.get(server) or self._intern(server)) if server is not None else 0,
                rpc_id if type(rpc_id) is int and -(1 << 63) < rpc_id < (1 << 63) else NO_ID,
                size,
                peer,
                float(latency) if type(latency) is float or type(latency) is int else math.nan,
                flags,
            )
        )

    def _flush_rows(self) -> None:
        """Move the entries noted since into the arrays, then pair requests with the lines that answer them."""
        rows = self._rows
        if not rows:
            return
        last = self.seqs[-1] if self.seqs else None
        columns = list(zip(*rows, strict=True))
        for target, column in zip(self._columns, columns, strict=True):
            target.extend(column)
        seqs = columns[2]
        if self._sorted and ((last is not None and seqs[0] <= last) or any(a >= b for a, b in pairwise(seqs))):
            self._sorted = False
        if self._by_seq is not None:
            start = len(self.offsets) - len(rows)
            self._by_seq.update((seq, start + n) for n, seq in enumerate(seqs))
        rows.clear()
        self._pair()

    def _pair(self) -> None:
        peers = self.peers
        for index, seq, peer in self._peer_lines:
            other = self._open.pop(peer, None)
            if other is None:
                other = self.index_of_seq(peer)
                if other is None or peers[other] != NO_PEER or other == index:
                    continue
            peers[other] = seq  # a streamed record writes the request before its response
            self.repaired.append(other)
        self._peer_lines.clear()
