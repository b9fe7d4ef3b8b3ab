"""A tap record rotated by size, read as one: the parts of a session (each part's header names the part
it continues, ``"continues": "<file name>"``, in the same folder), oldest first, their record indexes
joined into one (`PartsIndex`), so that a request in one part and its answer in the next pair up.

`record_parts(path)` finds the parts ending with `path`; `PartsIndex(indexes)` offers what `Replay`
reads of a `RecordIndex`, with each part's columns moved into its own (not kept twice).
"""

from __future__ import annotations

import bisect
import json
import os
from array import array
from itertools import pairwise
from pathlib import Path
from typing import Any

from inspector.platform.files import pread
from inspector.traffic.entry import Kind
from inspector.traffic.jsonl import BadLine
from inspector.traffic.record_index import KINDS, NO_PEER, RecordIndex

MAX_PARTS = 10_000  # a chain of parts longer than this is not followed further
_HEAD_LIMIT = 1 << 20
_REQUEST = KINDS.index(Kind.REQUEST)
_ANSWERS = (KINDS.index(Kind.RESPONSE), KINDS.index(Kind.ERROR))
# The columns the replay reads of an index, joined (methods and sources recoded into one table of names).
_COLUMNS = ("offsets", "lengths", "seqs", "monos", "dirs", "kinds", "methods", "sources", "sizes", "peers", "flags")


def continues(path: Path) -> str | None:
    """The file name of the part `path` continues (its header's ``tap.continues``), if any."""
    try:
        with open(path, "rb") as stream:
            head = json.loads(stream.readline(_HEAD_LIMIT))
    except (OSError, ValueError):
        return None
    meta = head.get("meta") if isinstance(head, dict) else None
    tap = meta.get("tap") if isinstance(meta, dict) else None
    name = tap.get("continues") if isinstance(tap, dict) else None
    if not isinstance(name, str) or not name or os.path.basename(name) != name or name in (".", ".."):
        return None
    return name


def record_parts(path: str | os.PathLike[str]) -> list[Path]:
    """`path` and the parts before it that exist, oldest first (just `path` for a record never rotated)."""
    parts = [Path(path)]
    seen = {parts[0].name}
    while len(parts) < MAX_PARTS and (previous := continues(parts[0])) is not None and previous not in seen:
        earlier = parts[0].parent / previous
        if not earlier.is_file():
            break
        seen.add(previous)
        parts.insert(0, earlier)
    return parts


class PartsIndex:
    """Several parts' indexes read as one: row numbers run on from part to part; `line(row)` reads the
    row's part. A request whose answer is in a later part is paired with it."""

    def __init__(self, paths: list[Path], indexes: list[RecordIndex]) -> None:
        self.path = os.fspath(paths[-1])
        self.paths = paths
        self._parts = indexes
        self.meta: dict[str, Any] | None = indexes[0].meta
        self.names: list[str] = [""]
        codes: dict[str, int] = {}
        self.starts = array("q")  # the first row of each part
        for name in _COLUMNS:
            setattr(self, name, array(getattr(indexes[0], name).typecode))
        for index in indexes:
            self.starts.append(len(self.offsets))
            recode = array("i", [codes.setdefault(n, len(codes) + 1) if n else 0 for n in index.names])
            for n in index.names[1:]:
                if len(self.names) <= codes[n]:
                    self.names.append(n)
            for name in _COLUMNS:
                column = getattr(index, name)
                if name in ("methods", "sources"):
                    getattr(self, name).extend(recode[code] for code in column)
                else:
                    getattr(self, name).extend(column)
                del column[:]  # moved, not kept twice
        seqs = self.seqs
        self._sorted = all(a < b for a, b in pairwise(seqs))
        self._by_seq: dict[int, int] | None = None
        self._pair_across()

    def __len__(self) -> int:
        return len(self.offsets)

    @property
    def damaged(self) -> list[BadLine]:
        return [bad for index in self._parts for bad in index.damaged]

    def described(self) -> list[str]:
        """Each damaged or cut line, said with its part's file name."""
        said = []
        for path, index in zip(self.paths, self._parts, strict=True):
            bad = list(index.damaged)
            if (tail := index.cut_tail()) is not None:
                bad.append(tail)
            said += [f"{path.name}: {line.describe()}" for line in bad]
        return said

    def cut_tail(self) -> BadLine | None:
        return self._parts[-1].cut_tail()

    def close(self) -> None:
        for index in self._parts:
            index.close()

    def name(self, code: int) -> str | None:
        return self.names[code] if code else None

    def line(self, row: int) -> bytes:
        part = bisect.bisect_right(self.starts, row) - 1
        return pread(self._parts[part].fd, self.lengths[row], self.offsets[row])

    def index_of_seq(self, seq: int) -> int | None:
        if self._sorted:
            at = bisect.bisect_left(self.seqs, seq)
            return at if at < len(self.seqs) and self.seqs[at] == seq else None
        if self._by_seq is None:
            self._by_seq = {s: n for n, s in enumerate(self.seqs)}
        return self._by_seq.get(seq)

    def _pair_across(self) -> None:
        """A request left unanswered in its part whose answer a later part holds: paired now."""
        kinds, peers, seqs = self.kinds, self.peers, self.seqs
        waiting = {seqs[row]: row for row in range(len(self)) if kinds[row] == _REQUEST and peers[row] == NO_PEER}
        if not waiting:
            return
        for row in range(len(self)):
            if kinds[row] in _ANSWERS and (request := waiting.pop(peers[row], None)) is not None:
                peers[request] = seqs[row]
