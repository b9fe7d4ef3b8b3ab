"""The doctor's own traffic: every connection it opened and every probe it sent (`http_probe`, marked
``doctor probe``), one store per connection, all numbered from one counter, followed by one `MirrorStore`
(the Doctor tab's "Probe traffic…" window) and saved as one record (``mcp-lens doctor --record FILE``,
which ``mcp-lens`` opens read-only like any record)."""

from __future__ import annotations

import os
from typing import Any

from inspector.traffic import jsonl
from inspector.traffic.store import MirrorStore, SeqCounter, TrafficStore

ABOUT = "the doctor's own traffic: its connections and its probes (Kind: doctor probe), never the live session's"


class DoctorTraffic:
    """`store(era)` for each connection the doctor opens; `mirror` holds all of them, in order."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.seqs = SeqCounter()
        self.mirror = MirrorStore()
        self.sources: list[str] = []

    def store(self, era: str) -> TrafficStore:
        """A new connection's store (`era` as asked: auto, legacy or modern), attached before it records."""
        source = f"{self.server} (doctor{'' if era == 'auto' else ', ' + era})"
        if source not in self.sources:
            self.sources.append(source)
        store = TrafficStore(source=source, seqs=self.seqs)
        self.mirror.attach(store)
        return store

    def meta(self) -> dict[str, Any]:
        return {"servers": list(self.sources), "name": f"{self.server} (doctor)", "about": ABOUT}

    def save(self, path: str | os.PathLike[str]) -> int:
        """The record, atomic and user-only (`jsonl.save`); the number of entries written."""
        return jsonl.save(path, self.mirror, self.meta())
