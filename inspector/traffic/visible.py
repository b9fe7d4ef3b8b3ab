"""The rows a traffic log shows: the store indexes of the entries that pass a filter, in arrival order.

Pure Python (no Qt), as mitmproxy keeps its one filtered view beside the flows: a Qt table model
adapts it (`inspector.ui.traffic.model`). A filter change rebuilds the index, never the entries;
new entries are looked at in batches (`take_new`), so the adapter can insert them once per tick.
"""

from __future__ import annotations

import bisect

from inspector.traffic.entry import Entry
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.record_store import RecordStore
from inspector.traffic.store import TrafficStore


class VisibleRows:
    """`indexes[row]` is the store index shown at `row` (ascending). Entries past `committed` have not
    been looked at yet: they are neither shown nor found by the lookups until the next `take_new`."""

    def __init__(self, store: TrafficStore | RecordStore, traffic_filter: TrafficFilter | None = None) -> None:
        self.store = store
        self.filter = traffic_filter or TrafficFilter()
        self.indexes: list[int] = []
        self.committed = 0  # store entries already looked at

    def __len__(self) -> int:
        return len(self.indexes)

    def entry_at(self, row: int) -> Entry | None:
        if 0 <= row < len(self.indexes):
            return self.store[self.indexes[row]]
        return None

    # -- changes ---------------------------------------------------------------------------------
    def clear(self) -> None:
        """The store was cleared: nothing shown, nothing looked at."""
        self.indexes = []
        self.committed = 0

    def set_filter(self, traffic_filter: TrafficFilter) -> bool:
        """Rebuild the index for `traffic_filter` over every entry; False (and nothing done) if it is the same."""
        if traffic_filter == self.filter:
            return False
        self.filter = traffic_filter
        self.committed = end = len(self.store)
        self.indexes = self._matching(0, end)
        return True

    def _matching(self, start: int, end: int) -> list[int]:
        """Store indexes in `start:end` that the filter keeps; a record on disk answers from its index."""
        flt = self.filter
        if flt.is_empty:
            return list(range(start, end))
        select = getattr(self.store, "select", None)
        if select is not None:
            return select(flt, start, end)
        entries, matches = self.store, flt.matches
        return [i for i in range(start, end) if matches(entries[i])]

    def take_new(self) -> tuple[int, list[int]]:
        """Look at the entries recorded since the last call: (the first of them, the ones that match).
        They are committed; `extend` then shows the matching ones (after the adapter's begin-insert)."""
        start, end = self.committed, len(self.store)
        if start >= end:
            return start, []
        self.committed = end
        return start, self._matching(start, end)

    def extend(self, indexes: list[int]) -> None:
        self.indexes.extend(indexes)

    def place_for(self, index: int) -> int | None:
        """Where a committed entry that is not shown but now matches the filter (e.g. flagged later under
        "Errors only") goes; None if it is shown already, not committed, or does not match."""
        if index >= self.committed or self.row_of_index(index) is not None:
            return None
        if not self.filter.matches(self.store[index]):
            return None
        return bisect.bisect_left(self.indexes, index)

    def insert(self, row: int, index: int) -> None:
        self.indexes.insert(row, index)

    # -- lookups ---------------------------------------------------------------------------------
    def index_of_seq(self, seq: int, *, before: int | None = None) -> int | None:
        """The store index of entry `seq` if it was committed (and is below `before`, when given)."""
        index = self.store.index_of_seq(seq)
        limit = self.committed if before is None else before
        return index if index is not None and index < limit else None

    def row_of_index(self, index: int) -> int | None:
        row = bisect.bisect_left(self.indexes, index)
        return row if row < len(self.indexes) and self.indexes[row] == index else None

    def row_of_seq(self, seq: int) -> int | None:
        """The row showing entry `seq`, or None if it is filtered out, not committed yet, or unknown."""
        index = self.index_of_seq(seq)
        return None if index is None else self.row_of_index(index)

    def peers_of(self, start: int, end: int) -> list[int]:
        """Store indexes (below `start`) of the requests whose response or cancellation is among the
        entries `start:end`: their status changed with it."""
        if start == 0:
            return []  # nothing before them to repaint
        entries = self.store
        earlier_peers = getattr(entries, "earlier_peers", None)  # a record on disk: from its index, not decoded
        peers = (
            earlier_peers(start, end) if earlier_peers is not None else (entries[i].peer_seq for i in range(start, end))
        )
        found: list[int] = []
        for peer in peers:
            if peer is not None and (index := self.index_of_seq(peer, before=start)) is not None:
                found.append(index)
        return found
