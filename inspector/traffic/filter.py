"""Which traffic entries the log shows. Pure Python: no Qt, so it is tested and reused without a display."""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.traffic.entry import Direction, Entry, Kind


@dataclass(frozen=True, slots=True)
class TrafficFilter:
    """An entry matches when it passes every part that is set; the default filter matches everything.

    `text` is searched case-insensitively (ASCII case folding, as `bytes.lower` does) in the raw
    bytes, the method, the kind, the direction, the parse error, the probe and the notes. An empty
    `directions` or `kinds` set means "any". `errors_only` keeps flagged entries: unparsable,
    JSON-RPC errors, tool `isError`, or annotated by the recorder (`Entry.flagged`: a refusal of our
    own probe is not kept). `probes` keeps only MCP Lens's own probes, fallbacks and teardown.
    """

    text: str = ""
    directions: frozenset[Direction] = frozenset()
    kinds: frozenset[Kind] = frozenset()
    errors_only: bool = False
    servers: frozenset[str] = frozenset()  # the sessions shown (their `Entry.source`); empty: every one
    transports: frozenset[str] = frozenset()  # e.g. {"app"}: an MCP App's bridge only; empty: every one
    probes: bool = False  # only MCP Lens's own probes, fallbacks and teardown (`Entry.probe`)
    _needle: bytes = field(default=b"", init=False, repr=False, compare=False)
    # Tuples, not sets: enum members hash in Python, while tuple membership compares them in C.
    _label_hits: tuple[Kind | Direction, ...] = field(default=(), init=False, repr=False, compare=False)
    _kinds: tuple[Kind, ...] = field(default=(), init=False, repr=False, compare=False)
    _directions: tuple[Direction, ...] = field(default=(), init=False, repr=False, compare=False)
    _method_hits: dict[str, bool] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        needle = self.text.strip().encode("utf-8").lower()
        object.__setattr__(self, "_needle", needle)
        labels = [*Kind, *Direction]
        object.__setattr__(self, "_label_hits", tuple(x for x in labels if needle and needle in x.value.encode()))
        object.__setattr__(self, "_kinds", tuple(self.kinds))
        object.__setattr__(self, "_directions", tuple(self.directions))

    @property
    def is_empty(self) -> bool:
        return (
            not self._needle
            and not self.directions
            and not self.kinds
            and not self.errors_only
            and not self.servers
            and not self.transports
            and not self.probes
        )

    def matches(self, entry: Entry) -> bool:
        if self.servers and entry.source not in self.servers:
            return False
        if self.transports and entry.transport not in self.transports:
            return False
        if self._directions and entry.direction not in self._directions:
            return False
        if self._kinds and entry.kind not in self._kinds:
            return False
        if self.probes and entry.probe is None:
            return False
        if self.errors_only and not entry.flagged:
            return False
        return not self._needle or self._text_matches(entry)

    def _text_matches(self, entry: Entry) -> bool:
        needle = self._needle
        if needle in entry.raw.lower():
            return True
        labels = self._label_hits
        if labels and (entry.kind in labels or entry.direction in labels):
            return True
        method = entry.method
        if method is not None:
            hit = self._method_hits.get(method)
            if hit is None:  # few distinct methods: decide each once
                hit = self._method_hits[method] = needle in method.encode("utf-8", "replace").lower()
            if hit:
                return True
        if entry.parse_error is None and not entry.notes and entry.probe is None:
            return False
        derived = [entry.parse_error or "", entry.probe or "", *entry.notes]
        return any(needle in text.encode("utf-8", "replace").lower() for text in derived)
