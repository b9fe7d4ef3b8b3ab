"""`RecordStore`: a traffic record on disk, shown by the traffic log as if it were a `TrafficStore`.

Entries are decoded from the file when asked for (a small LRU keeps the ones on screen); listing and
filtering answer from the `RecordIndex`, and the free-text filter scans the file's bytes rather than
decoding entries. Read-only: it cannot be cleared or annotated. `update()` indexes what was appended
since (a record still being written); its listeners hear of each batch once, with the batch's last entry.
"""

from __future__ import annotations

import bisect
import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from inspector.config.pids import pid_alive
from inspector.platform.files import pread
from inspector.traffic import jsonl
from inspector.traffic.entry import Entry, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.jsonl import BadLine
from inspector.traffic.record_index import (
    _DIR_CODE,
    _KIND_CODE,
    BASE64,
    DERIVED,
    DIRECTIONS,
    ESCAPED,
    FLAGGED,
    NO_PEER,
    SPLICED,
    RecordIndex,
)

NO_ANSWER = "no answer (the record ends before its response)"
CACHE_ENTRIES = 4096
SCAN_CHUNK = 16 << 20
LINE_COST_BYTES = 2000  # reading one line costs about as much as scanning this many bytes (measured)
_ESCAPED_IN_JSON = frozenset(b'"\\') | frozenset(range(0x20))


class RecordStore:
    """The entries of the record at `path`; `update()` reads more of it (see the module's note)."""

    source: str | None = None

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.index = RecordIndex(path)
        self._cache: OrderedDict[int, Entry] = OrderedDict()
        self._append_listeners: list[Callable[[Entry], None]] = []
        self._change_listeners: list[Callable[[Entry], None]] = []
        self.ended: str | None = None  # why nothing more will come, once its writer is known to be gone
        self._unanswered: frozenset[int] = frozenset()

    @property
    def path(self) -> str:
        return self.index.path

    @property
    def meta(self) -> dict[str, Any]:
        return self.index.meta or {}

    def close(self, *_: object) -> None:
        self.index.close()

    # -- growing ---------------------------------------------------------------------------------
    def update(self, max_lines: int | None = None, max_seconds: float | None = None) -> int:
        """Index what was appended since; tell the listeners once if anything was. Returns the count."""
        added = self.index.update(max_lines, max_seconds)
        for index in self.index.take_repaired():
            if (entry := self._cache.get(index)) is not None:
                entry.peer_seq = self.index.peers[index]
        if added:
            last = self[len(self) - 1]
            for listener in list(self._append_listeners):
                listener(last)
        return added

    def writer_pid(self) -> int | None:
        """The pid of the tap writing this record, as its header says (None for other records)."""
        tap = self.meta.get("tap")
        pid = tap.get("pid") if isinstance(tap, dict) else None
        return pid if type(pid) is int and pid > 0 else None

    def check_ended(self) -> bool:
        """Whether nothing more will be written to this record: the server's exit is its last entry (and
        no tap still writes it), or the tap writing it is gone without recording an exit (killed). Then
        `ended` says which, and each request left without a response is noted as having no answer."""
        if self.ended is not None:
            return True
        pid = self.writer_pid()
        alive = pid is not None and pid_alive(pid)
        if alive:
            return False
        self.update()  # whatever was written before the writer went
        if self._last_is_exit():
            self.ended = "the server exited: the record is complete"
        elif pid is not None and self.index.cut_tail() is not None:  # its last line (an exit, maybe) is cut
            self.ended = f"the tap (pid {pid}) stopped writing mid-line: the record ends with a cut line"
        elif pid is not None:
            self.ended = f"the tap (pid {pid}) stopped writing without recording an exit: the record ends here"
        else:
            return False  # an export or a CLI record: nothing says whether more will come
        self._unanswered = frozenset(self.index._open.values())
        for index in self._unanswered:
            self.index.flags[index] |= FLAGGED | DERIVED
            if (entry := self._cache.get(index)) is not None:
                entry.note(NO_ANSWER)
                for listener in list(self._change_listeners):
                    listener(entry)
        return True

    def _last_is_exit(self) -> bool:
        if not len(self):
            return False
        last = self.decode(len(self) - 1)
        return last.kind is Kind.LIFECYCLE and last.raw.startswith(b"process exited")

    # -- the TrafficStore interface the log uses ---------------------------------------------------
    def __len__(self) -> int:
        return len(self.index)

    def __getitem__(self, index: int) -> Entry:
        count = len(self.index)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError(index)
        entry = self._cache.get(index)
        if entry is not None:
            self._cache.move_to_end(index)
            return entry
        entry = self._cache[index] = self.decode(index)
        if len(self._cache) > CACHE_ENTRIES:
            self._cache.popitem(last=False)
        return entry

    def decode(self, index: int) -> Entry:
        """Entry `index` read from the file (not cached), with the pairing the index knows of."""
        line = self.index.line(index)
        try:
            entry = jsonl.decode_entry(line)
        except jsonl.RecordFormatError as exc:  # indexed from its metadata, but its message is damaged
            return self._damaged(index, line, str(exc))
        peer = self.index.peers[index]
        if peer != NO_PEER:
            entry.peer_seq = peer
        elif index in self._unanswered:
            entry.note(NO_ANSWER)
        return entry

    def _damaged(self, index: int, line: bytes, reason: str) -> Entry:
        """A flagged entry holding the bytes of a line that cannot be decoded (told once in `damaged`)."""
        ix = self.index
        number = ix.line_number_at(ix.offsets[index])
        bad = BadLine(number, reason, line)
        if all(known.number != number for known in ix.damaged):
            ix._bad(number, reason, line)
            ix.flags[index] |= FLAGGED | DERIVED
        entry = jsonl.bad_line_entry(bad, ix.seqs[index])
        entry.wall, entry.mono, entry.direction = ix.walls[index], ix.monos[index], DIRECTIONS[ix.dirs[index]]
        return entry

    def __iter__(self) -> Iterator[Entry]:
        return (self.decode(index) for index in range(len(self.index)))

    def index_of_seq(self, seq: int) -> int | None:
        return self.index.index_of_seq(seq)

    def by_seq(self, seq: int) -> Entry | None:
        index = self.index.index_of_seq(seq)
        return None if index is None else self[index]

    def peer_seq_at(self, index: int) -> int | None:
        peer = self.index.peers[index]
        return None if peer == NO_PEER else peer

    def earlier_peers(self, start: int, end: int) -> list[int]:
        """The peer seqs named by entries `start:end` that may be entries before `start` (in a record in
        seq order, those below the seq of entry `start`: the rest pair within the batch)."""
        ix = self.index
        if not ix._sorted:
            return [peer for peer in ix.peers[start:end] if peer != NO_PEER]
        first = ix.seqs[start]
        return [peer for peer in ix.peers[start:end] if NO_PEER != peer < first]

    @property
    def next_seq(self) -> int:
        seqs = self.index.seqs
        return (max(seqs) if not self.index._sorted else seqs[-1]) + 1 if seqs else 1

    def subscribe(
        self,
        on_append: Callable[[Entry], None],
        on_clear: Callable[[], None] | None = None,
        on_change: Callable[[Entry], None] | None = None,
    ) -> None:
        self._append_listeners.append(on_append)
        if on_change is not None:
            self._change_listeners.append(on_change)

    def unsubscribe(self, on_append: Callable[[Entry], None], on_change: Callable[[Entry], None] | None = None) -> None:
        if on_append in self._append_listeners:
            self._append_listeners.remove(on_append)
        if on_change in self._change_listeners:
            self._change_listeners.remove(on_change)

    def clear(self) -> None:
        """A record on disk is not cleared."""

    def pending_requests(self) -> list[Entry]:
        return []

    # -- filtering -------------------------------------------------------------------------------
    def select(self, flt: TrafficFilter, start: int, end: int) -> list[int]:
        """Indexes in `start:end` of the entries `flt` matches, answered from the index; free text
        scans the lines' bytes and decodes only lines whose stored form is not the message itself."""
        ix = self.index
        rows: Any = range(start, end)
        servers = getattr(flt, "servers", frozenset())
        if servers:
            codes = {n for n, name in enumerate(ix.names) if n and name in servers}
            sources = ix.sources
            rows = [i for i in rows if sources[i] in codes]
        if flt.transports:  # not in the index: rare in a record (an app's bridge), so decoded
            rows = [i for i in rows if self[i].transport in flt.transports]
        if getattr(flt, "probes", False):  # not in the index either: MCP Lens's own probes, decoded
            rows = [i for i in rows if self[i].probe is not None]
        if flt.directions:
            wanted = tuple(_DIR_CODE[d.value] for d in flt.directions)
            dirs = ix.dirs
            rows = [i for i in rows if dirs[i] in wanted]
        if flt.kinds:
            wanted = tuple(_KIND_CODE[k.value] for k in flt.kinds)
            kinds = ix.kinds
            rows = [i for i in rows if kinds[i] in wanted]
        if flt.errors_only:
            flags = ix.flags
            rows = [i for i in rows if flags[i] & FLAGGED]
        needle = flt.text.strip().encode("utf-8").lower()
        if not needle:
            return list(rows)
        return self._text_rows(flt, needle, rows, start, end)

    def _text_rows(self, flt: TrafficFilter, needle: bytes, rows: Any, start: int, end: int) -> list[int]:
        """`rows` whose text matches: first what the index answers (a method, kind or direction naming
        `needle`), then the bytes of the rest: a scan of the file, or of each line when they are few."""
        ix = self.index
        labels = {_DIR_CODE[v] for v in _DIR_CODE if needle in v.encode()}
        kind_labels = {_KIND_CODE[v] for v in _KIND_CODE if needle in v.encode()}
        method_hits = {n for n, name in enumerate(ix.names) if n and needle in name.encode("utf-8", "replace").lower()}
        dirs, kinds, methods, flags = ix.dirs, ix.kinds, ix.methods, ix.flags
        by_index: list[int] = []
        rest = rows
        if labels or kind_labels or method_hits:
            by_index = [i for i in rows if dirs[i] in labels or kinds[i] in kind_labels or methods[i] in method_hits]
            if by_index:
                taken = set(by_index)
                rest = [i for i in rows if i not in taken]
        escapes = any(byte in _ESCAPED_IN_JSON for byte in needle)
        decode_flags = DERIVED | BASE64 | (ESCAPED if escapes else 0)
        if self._reading_lines_is_cheaper(rest, start, end):
            hits = self._line_hits(needle, rest)
            found = [i for i, hit in zip(rest, hits, strict=True) if hit == 1]
            check = [i for i, hit in zip(rest, hits, strict=True) if hit == 2 or (not hit and flags[i] & decode_flags)]
        else:
            scanned = self._scan(needle, start, end)
            found = [i for i in rest if scanned[i - start] == 1]
            check = [i for i in rest if scanned[i - start] == 2 or (not scanned[i - start] and flags[i] & decode_flags)]
        found += [i for i in check if flt.matches(self.decode(i))]
        if by_index:
            found += by_index
            found.sort()
        elif check:
            found.sort()
        return found

    def _reading_lines_is_cheaper(self, rows: Any, start: int, end: int) -> bool:
        """Whether reading `rows` one by one costs less than scanning every line of `start:end`."""
        if len(rows) >= end - start or not rows:
            return bool(rows) and LINE_COST_BYTES < 0
        ix = self.index
        sizes = ix.sizes
        total = ix.offsets[end - 1] + ix.lengths[end - 1] - ix.offsets[start]
        return len(rows) * LINE_COST_BYTES + sum([sizes[i] for i in rows]) < total

    def _line_hits(self, needle: bytes, rows: Any) -> bytearray:
        """As `_scan`, for the lines `rows` only (one read each)."""
        ix = self.index
        fd, offsets, lengths, sizes, flags = ix.fd, ix.offsets, ix.lengths, ix.sizes, ix.flags
        hits = bytearray(len(rows))
        for n, i in enumerate(rows):
            if flags[i] & SPLICED:
                if needle in pread(fd, sizes[i], offsets[i] + 7).lower():
                    hits[n] = 1
            elif needle in pread(fd, lengths[i], offsets[i]).lower():
                hits[n] = 2
        return hits

    def _scan(self, needle: bytes, start: int, end: int) -> bytearray:
        """Per line of `start:end`: 1 when `needle` is in its message bytes (case-insensitive), 2 when
        it is somewhere in a line that stores the message escaped (to be checked), else 0."""
        ix = self.index
        hits = bytearray(end - start)
        if start >= end:
            return hits
        offsets, lengths, sizes, flags = ix.offsets, ix.lengths, ix.sizes, ix.flags
        width = len(needle)
        pos, stop = offsets[start], offsets[end - 1] + lengths[end - 1]
        while pos < stop:
            data = pread(ix.fd, min(SCAN_CHUNK, stop - pos), pos)
            cut = len(data)
            if pos + cut < stop:
                cut = data.rfind(b"\n") + 1
                if not cut:  # one line longer than a chunk: read it whole
                    line = bisect.bisect_right(offsets, pos, start, end) - 1
                    data = pread(ix.fd, offsets[line] + lengths[line] + 1 - pos, pos)
                    cut = len(data)
            low = data.lower()
            at = low.find(needle, 0, cut)
            while at >= 0:
                where = pos + at
                line = bisect.bisect_right(offsets, where, start, end) - 1
                begin = offsets[line]
                line_end = begin + lengths[line]
                if flags[line] & SPLICED:
                    if where + width <= begin + 7 + sizes[line]:
                        if where >= begin + 7:
                            hits[line - start] = 1
                            next_at = line_end
                        else:
                            next_at = where + 1
                    else:
                        next_at = line_end  # in the metadata after the message: nothing more to find here
                else:
                    hits[line - start] = max(hits[line - start], 2)
                    next_at = line_end
                at = low.find(needle, next_at - pos, cut)
            pos += cut
        return hits
