"""The traffic recorder: an append-only store of wire entries with listeners and correlation."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from inspector.config.redact import Redactor, call_secrets
from inspector.traffic.classify import Classified, parse
from inspector.traffic.entry import SECRETS_HIDDEN, Direction, Entry, Kind

AppendListener = Callable[[Entry], None]
ClearListener = Callable[[], None]
ChangeListener = Callable[[Entry], None]

UNKNOWN_ID = "unknown id"  # the note on a response whose id matches no request sent: an id we never sent
OPPOSITE = {Direction.OUT: Direction.IN, Direction.IN: Direction.OUT}  # a request's direction → its answer's


def id_key(rpc_id: int | str) -> int | str:
    """JSON-RPC peers echo "7" for 7 now and then; correlate them as the SDK does."""
    if isinstance(rpc_id, str):
        try:
            return int(rpc_id)
        except ValueError:
            return rpc_id
    return rpc_id


def unknown_id_note(stray_ids: list[Any], sent_id: Any) -> str:
    """The note on a request left unanswered while answers came with ids we never sent."""
    shown = ", ".join(json.dumps(i) for i in stray_ids[:3]) + (" …" if len(stray_ids) > 3 else "")
    return f"answered with id {shown}, which MCP Lens never sent (it sent id {json.dumps(sent_id)})"


class SeqCounter:
    """Hands out entry numbers; the stores of one workspace share one, so a seq names one entry in all."""

    def __init__(self, start: int = 1) -> None:
        self.next = start

    def take(self) -> int:
        seq = self.next
        self.next += 1
        return seq


class TrafficStore:
    """Append-only list of `Entry`. Listeners run synchronously on every append.

    Requests and responses are paired as they arrive: a response's `peer_seq` names its
    request, the request's `peer_seq` names its response, and the response carries the latency.
    `source` names the server whose session records here (set on every entry); stores that share
    `seqs` number their entries from one counter.

    `redactor` hides the secrets of the server recorded here in every entry as it is recorded (its raw
    bytes, HTTP URL and headers): whatever reads the store (the log, records, exports, copy as curl)
    never holds them. A transport adds what it knows with `protect` before it records.
    """

    def __init__(self, source: str | None = None, seqs: SeqCounter | None = None) -> None:
        self.source = source
        self._seqs = seqs
        self._entries: list[Entry] = []
        self._append_listeners: list[AppendListener] = []
        self._clear_listeners: list[ClearListener] = []
        self._change_listeners: list[ChangeListener] = []
        # (transport, direction of the request, id) → seq of the request still waiting for its response;
        # keyed by transport too: an MCP App's bridge ("app") numbers its ids from 1 as the session does
        self._pending: dict[tuple[str, Direction, int | str], int] = {}
        self._methods: dict[int, str] = {}  # seq of request → method, for tool-error detection
        self._probing: dict[str, str] = {}  # method → why: our own probe being sent (see `probing`)
        self._next_seq = 1
        self.redactor = Redactor()

    def protect(self, redactor: Redactor) -> None:
        """Hide `redactor`'s secrets too in every entry recorded from now on."""
        self.redactor.merge(redactor)

    # -- reading ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index: int) -> Entry:
        return self._entries[index]

    def __iter__(self) -> Iterator[Entry]:
        return iter(self._entries)

    def index_of_seq(self, seq: int) -> int | None:
        """Position of entry `seq`; entries are in seq order, with gaps after an import or a clear."""
        entries = self._entries
        lo, hi = 0, len(entries)
        while lo < hi:
            mid = (lo + hi) // 2
            if entries[mid].seq < seq:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(entries) and entries[lo].seq == seq else None

    def by_seq(self, seq: int) -> Entry | None:
        index = self.index_of_seq(seq)
        return None if index is None else self._entries[index]

    # -- listeners -------------------------------------------------------------------------
    def subscribe(
        self,
        on_append: AppendListener,
        on_clear: ClearListener | None = None,
        on_change: ChangeListener | None = None,
    ) -> None:
        """`on_change` hears of an entry annotated after it was appended (see `note`)."""
        self._append_listeners.append(on_append)
        if on_clear is not None:
            self._clear_listeners.append(on_clear)
        if on_change is not None:
            self._change_listeners.append(on_change)

    def unsubscribe(self, on_append: AppendListener, on_change: ChangeListener | None = None) -> None:
        if on_append in self._append_listeners:
            self._append_listeners.remove(on_append)
        if on_change in self._change_listeners:
            self._change_listeners.remove(on_change)

    def clear(self) -> None:
        self._entries.clear()
        self._pending.clear()
        self._methods.clear()
        for listener in list(self._clear_listeners):
            listener()

    # -- writing ---------------------------------------------------------------------------
    def record_message(
        self,
        direction: Direction,
        transport: str,
        raw: bytes,
        *,
        http: dict[str, Any] | None = None,
        notes: list[str] | None = None,
        source: str | None = None,
    ) -> Entry:
        """Record one JSON-RPC message exactly as it crossed the wire; classify and correlate it (a request
        pairs with the answer of the same transport). `source` overrides the store's for this entry."""
        return self.record_parsed(direction, transport, raw, http=http, notes=notes, source=source)[0]

    def record_parsed(
        self,
        direction: Direction,
        transport: str,
        raw: bytes,
        *,
        http: dict[str, Any] | None = None,
        notes: list[str] | None = None,
        source: str | None = None,
        parsed: tuple[Any, Classified] | None = None,
    ) -> tuple[Entry, Any]:
        """`record_message`, returning the wire's JSON value too (None when it does not parse), so that a
        reader parses a message once: a 50 MB result parsed twice held the event loop twice as long.
        `parsed`: `classify.parse(raw)` done already (a huge line, parsed on a worker thread)."""
        if direction is Direction.OUT and b'"tools/call"' in raw:  # a secret-named argument: hidden by value
            parsed = parsed or parse(raw)  # the one parse of these bytes, unless the redaction changes them
            self.redactor.learn(call_secrets(raw, parsed[0]))
        wire, raw = raw, self.redactor.data(raw)
        changed = raw is not wire and raw != wire
        value, c = parsed if parsed is not None and not changed else parse(raw)
        entry = self._new(direction, transport, c.kind, raw, http=http, notes=tuple(notes or ()))
        if changed:  # the log never passes changed bytes off as the wire's
            entry.note(SECRETS_HIDDEN)
            value = parsed[0] if parsed is not None else parse(wire)[0]  # what the server sent, secrets included
        if source is not None:
            entry.source = source
        entry.parse_error = c.parse_error
        entry.rpc_id = c.rpc_id
        entry.method = c.method
        entry.error_code = c.error_code
        if c.note:
            entry.note(c.note)
        if direction is Direction.OUT and c.method in self._probing:
            entry.probe = self._probing[c.method]
        self._inherit_probe(entry)
        if c.kind is Kind.REQUEST and c.rpc_id is not None and direction in OPPOSITE:
            self._pending[(transport, direction, id_key(c.rpc_id))] = entry.seq
            self._methods[entry.seq] = c.method or ""
        elif c.kind in (Kind.RESPONSE, Kind.ERROR) and direction in OPPOSITE:
            self._correlate(entry, direction, c.is_tool_error)
        elif c.method == "notifications/cancelled":
            self._mark_cancelled(entry, direction)
        return self._append(entry), value

    def record(
        self,
        direction: Direction,
        transport: str,
        kind: Kind,
        raw: bytes,
        *,
        http: dict[str, Any] | None = None,
        notes: list[str] | None = None,
        probe: str | None = None,
    ) -> Entry:
        """Record a non-JSON-RPC event (stderr line, HTTP exchange metadata, lifecycle); `probe`: one of
        MCP Lens's own (TEARDOWN: the session's closing DELETE), which its answer and failure inherit."""
        raw = self.redactor.data(raw)
        entry = self._new(direction, transport, kind, raw, http=http, notes=tuple(notes or ()))
        entry.probe = probe
        self._inherit_probe(entry)
        return self._append(entry)

    def record_failure(self, transport: str, text: str, reason: str, *, http: dict[str, Any] | None = None) -> Entry:
        """Record what went wrong outside the messages (a crash, a transport error) as a lifecycle entry
        noted with `reason`: its status is `reason`, never "ok", and "Errors only" keeps it."""
        return self.record(Direction.META, transport, Kind.LIFECYCLE, text.encode(), http=http, notes=[reason])

    @contextmanager
    def probing(self, method: str, why: str) -> Iterator[None]:
        """While inside, a `method` request we send is MCP Lens's own probe (`why`: ERA_PROBE, FALLBACK, …),
        and so are its answer and the HTTP exchange that carried it: the log shows them as probes, and a
        refusal of one is no flag."""
        self._probing[method] = why
        try:
            yield
        finally:
            self._probing.pop(method, None)

    def mark_probe(self, entry: Entry, why: str) -> None:
        """`entry` (and its answer) turned out to be our own probe or teardown; tell the change listeners."""
        peer = self.by_seq(entry.peer_seq) if entry.peer_seq is not None else None
        for item in (entry, peer):
            if item is not None and item.probe is None:
                item.probe = why
                for listener in list(self._change_listeners):
                    listener(item)

    def _inherit_probe(self, entry: Entry) -> None:
        """An HTTP exchange's status and body belong to the request they answer (`http["request_seq"]`)."""
        if entry.probe is None and entry.http and isinstance(seq := entry.http.get("request_seq"), int):
            request = self.by_seq(seq)
            if request is not None:
                entry.probe = request.probe

    def note(self, entry: Entry, text: str) -> None:
        """Annotate an entry already recorded (found wrong later) and tell the change listeners."""
        text = self.redactor.text(text)
        if text in entry.notes:
            return
        entry.note(text)
        for listener in list(self._change_listeners):
            listener(entry)

    def abandon_pending(self, reason: str) -> list[Entry]:
        """The connection is gone: note `reason` on our requests still waiting for a response."""
        waiting = [
            entry
            for (_, direction, _), seq in sorted(self._pending.items(), key=lambda item: item[1])
            if direction is Direction.OUT and (entry := self.by_seq(seq)) is not None
        ]
        self._pending = {key: seq for key, seq in self._pending.items() if key[1] is not Direction.OUT}
        for entry in waiting:  # an answer came, with an id we never sent: say that rather than "no response"
            strays = [e.rpc_id for e in self.unknown_id_answers(entry.seq) if e.transport == entry.transport]
            self.note(entry, unknown_id_note(strays, entry.rpc_id) if strays else reason)
        return waiting

    def unknown_id_answers(self, since_seq: int) -> list[Entry]:
        """Responses recorded at or after `since_seq` whose id matched no request we sent, oldest first."""
        found = []
        for index in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[index]
            if entry.seq < since_seq:
                break
            if entry.kind in (Kind.RESPONSE, Kind.ERROR) and UNKNOWN_ID in entry.notes and entry.rpc_id is not None:
                found.append(entry)
        return found[::-1]

    def sent_request(self, method: str, since_seq: int) -> Entry | None:
        """The first request for `method` we sent at or after `since_seq`, if it is still unanswered."""
        found = None
        for index in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[index]
            if entry.seq < since_seq:
                break
            if entry.direction is Direction.OUT and entry.kind is Kind.REQUEST and entry.method == method:
                found = entry
        return found if found is not None and found.peer_seq is None else None

    def flag_response(self, method: str, result: Any, reason: str, *, since_seq: int = 0) -> Entry | None:
        """Note `reason` on the response to a `method` request, recorded at or after `since_seq`, whose
        result is `result` (a result found wrong after it was recorded: its content breaks the spec)."""
        for index in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[index]
            if entry.seq < since_seq:
                break
            if entry.kind is not Kind.RESPONSE or entry.method != method:
                continue
            parsed = entry.parsed()
            if isinstance(parsed, dict) and parsed.get("result") == result:
                self.note(entry, reason)
                return entry
        return None

    def mark_round(
        self, since_seq: int, method: str, params: dict[str, Any] | None, *, group: int, title: str
    ) -> list[Entry]:
        """Tag the request we sent for `method` with `params` (recorded at or after `since_seq`; its
        `_meta` aside) and its response as one round of a multi round-trip call."""
        wanted = {k: v for k, v in (params or {}).items() if k != "_meta"}
        for index in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[index]
            if entry.seq < since_seq:
                break
            if entry.kind is not Kind.REQUEST or entry.direction is not Direction.OUT or entry.method != method:
                continue
            parsed = entry.parsed()
            sent = parsed.get("params") if isinstance(parsed, dict) else None
            if not isinstance(sent, dict) or {k: v for k, v in sent.items() if k != "_meta"} != wanted:
                continue
            peer = self.by_seq(entry.peer_seq) if entry.peer_seq is not None else None
            tagged = [entry] if peer is None else [entry, peer]
            for item in tagged:
                item.group, item.round_title = group, title
                for listener in list(self._change_listeners):
                    listener(item)
            return tagged
        return []

    @property
    def next_seq(self) -> int:
        """The seq the next recorded entry gets."""
        return self._seqs.next if self._seqs is not None else self._next_seq

    def add_entry(self, entry: Entry) -> None:
        """Append a fully formed entry (used when re-opening a saved session)."""
        self._next_seq = max(self._next_seq, entry.seq + 1)
        if entry.peer_seq is not None and (peer := self.by_seq(entry.peer_seq)) is not None:
            peer.peer_seq = entry.seq  # a streamed record wrote the request before its response
        self._append(entry)

    def _new(
        self,
        direction: Direction,
        transport: str,
        kind: Kind,
        raw: bytes,
        *,
        http: dict[str, Any] | None,
        notes: tuple[str, ...],
    ) -> Entry:
        if self._seqs is not None:
            seq = self._seqs.take()
        else:
            seq = self._next_seq
            self._next_seq += 1
        return Entry(
            seq=seq,
            wall=time.time(),
            mono=time.monotonic(),
            direction=direction,
            transport=transport,
            kind=kind,
            raw=raw,
            http=self.redactor.http(http) if http else http,
            notes=tuple(self.redactor.text(n) for n in notes) if notes else notes,
            source=self.source,
        )

    def _correlate(self, entry: Entry, direction: Direction, tool_error: bool) -> None:
        if entry.rpc_id is None:
            entry.note("response without an id")
            return
        request_seq = self._pending.pop((entry.transport, OPPOSITE[direction], id_key(entry.rpc_id)), None)
        request = self.by_seq(request_seq) if request_seq is not None else None
        if request is None:
            entry.note(UNKNOWN_ID)
            return
        request.peer_seq = entry.seq
        entry.peer_seq = request.seq
        entry.method = request.method
        entry.probe = entry.probe or request.probe
        entry.latency_ms = (entry.mono - request.mono) * 1000.0
        method = self._methods.pop(request.seq, "")
        entry.is_tool_error = tool_error and method == "tools/call"

    def _mark_cancelled(self, entry: Entry, direction: Direction) -> None:
        """A cancelled request gets no response; note it on the request so it does not look lost."""
        parsed = entry.parsed()
        params = parsed.get("params") if isinstance(parsed, dict) else None
        rpc_id = params.get("requestId") if isinstance(params, dict) else None
        if isinstance(rpc_id, int | str) and not isinstance(rpc_id, bool):
            request_seq = self._pending.get((entry.transport, direction, id_key(rpc_id)))
            request = self.by_seq(request_seq) if request_seq is not None else None
            if request is not None:
                request.note("cancelled")
                entry.peer_seq = request.seq

    def _append(self, entry: Entry) -> Entry:
        self._entries.append(entry)
        for listener in list(self._append_listeners):
            listener(entry)
        return entry

    def pending_requests(self) -> list[Entry]:
        """Requests still waiting for a response, oldest first."""
        found = (self.by_seq(seq) for seq in sorted(self._pending.values()))
        return [entry for entry in found if entry is not None]


class MirrorStore(TrafficStore):
    """Every entry of several sessions' stores, in seq order, for one traffic log: it pairs nothing
    itself (each session's store did), and passes on their annotations. The stores must share one
    `SeqCounter` so seqs stay unique and ascending here."""

    def __init__(self) -> None:
        super().__init__()
        self._sources: list[TrafficStore] = []

    def attach(self, store: TrafficStore) -> None:
        """Show `store`'s entries from now on: attach a store before it records (the workspace does, as it
        makes each session), so this log holds all of them in seq order."""
        if store in self._sources:
            return
        assert not len(store), "attach a store before it records"
        self._sources.append(store)
        store.subscribe(self._append, None, self._changed)

    def detach(self, store: TrafficStore) -> None:
        """Stop following `store`; what it recorded stays in the log."""
        if store in self._sources:
            self._sources.remove(store)
            store.unsubscribe(self._append, self._changed)

    def _changed(self, entry: Entry) -> None:
        for listener in list(self._change_listeners):
            listener(entry)

    def pending_requests(self) -> list[Entry]:
        return sorted((e for store in self._sources for e in store.pending_requests()), key=lambda e: e.seq)
