"""One recorded wire event: the exact bytes, and what we could make of them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Direction(StrEnum):
    OUT = "out"  # client → server
    IN = "in"  # server → client
    META = "meta"  # produced by the inspector itself (process exit, connect failure, …)


class Kind(StrEnum):
    REQUEST = "request"
    RESPONSE = "response"
    NOTIFICATION = "notification"
    ERROR = "error"  # a JSON-RPC error response
    STDERR = "stderr"
    HTTP_META = "http-meta"
    UNPARSABLE = "unparsable"
    LIFECYCLE = "lifecycle"  # process started / exited, connection opened / closed


LISTENING = "listening"  # an open subscriptions/listen stream (2026-07-28): a state, not a problem
# a message that carried a secret of the server's profile: recorded with it replaced (never the wire's bytes)
SECRETS_HIDDEN = "secret values hidden as <redacted> (the wire carried them)"
INFO_NOTES = frozenset({LISTENING, SECRETS_HIDDEN})
# MCP Lens's own probes, fallbacks and teardown (`Entry.probe` says which): their own kind in the log's
# Kind filter. A refusal is the answer a probe asks for, so it is no flag; a broken answer still is.
ERA_PROBE = "era probe"  # auto: server/discover first, to learn the server's era
FALLBACK = "fallback"  # what auto sends after its probe was refused (initialize)
TEARDOWN = "teardown"  # a stream MCP Lens ends itself (the listen stream at disconnect)
DOCTOR_PROBE = (
    "doctor probe"  # `mcp-lens doctor` and the Doctor tab checking what the spec prescribes (doctor/http_probe)
)
PROBE_KIND = "probe"  # the Kind filter's word for them
_FLAG_KINDS = (Kind.UNPARSABLE, Kind.ERROR)


def is_flagged(
    kind: Kind, tool_error: bool, parse_error: str | None, notes: tuple[str, ...], probe: str | None
) -> bool:
    """The one rule for "deserves attention": broken, an error, or annotated by the recorder (a note that
    only says what a healthy entry is doing is not a flag); for our own probe, only broken."""
    if kind is Kind.UNPARSABLE or parse_error is not None:
        return True
    if probe is not None:
        return False
    return kind is Kind.ERROR or tool_error or any(note not in INFO_NOTES for note in notes)


@dataclass(slots=True)
class Entry:
    """A wire event. `raw` is exactly what crossed the wire; everything else is derived or metadata."""

    seq: int
    wall: float
    mono: float
    direction: Direction
    transport: str
    kind: Kind
    raw: bytes
    parse_error: str | None = None
    rpc_id: int | str | None = None
    method: str | None = None
    # Correlation: for a response, the seq of its request; for a request, the seq of its response.
    peer_seq: int | None = None
    latency_ms: float | None = None
    error_code: int | None = None
    is_tool_error: bool = False
    http: dict[str, Any] | None = None
    # A tuple, shared when empty: one fewer object per entry for the garbage collector to walk.
    notes: tuple[str, ...] = ()
    # A multi round-trip call (2026-07-28 input_required): every round's request and response share
    # `group`; `round_title` says which, e.g. "round 2 of tools/call order_coffee".
    group: int | None = None
    round_title: str | None = None
    # The server it belongs to (its profile name), when several sessions share one traffic log.
    source: str | None = None
    # Sent by MCP Lens on its own to find something out or to tidy up (ERA_PROBE, FALLBACK, TEARDOWN),
    # or the answer to such a request: not the user's traffic, and a refusal of it is not a problem.
    probe: str | None = None

    def note(self, text: str) -> None:
        """Annotate the entry (unknown id, cancelled, not JSON-RPC, …)."""
        self.notes = (*self.notes, text)

    @property
    def size(self) -> int:
        return len(self.raw)

    @property
    def flagged(self) -> bool:
        """Whether the entry deserves attention (see `is_flagged`)."""
        if self.probe is None and not self.notes:  # most entries: decided without the call
            return self.kind in _FLAG_KINDS or self.is_tool_error or self.parse_error is not None
        return is_flagged(self.kind, self.is_tool_error, self.parse_error, self.notes, self.probe)

    @property
    def marked(self) -> bool:
        """Annotated only with what it is doing (e.g. a listen stream that is open, our own probe): shown,
        not flagged."""
        return (bool(self.notes) or self.probe is not None) and not self.flagged

    def parsed(self) -> Any:
        """The JSON value of `raw`, parsed on demand (entries do not keep parsed trees alive)."""
        if self.parse_error is not None or self.kind in (Kind.STDERR, Kind.LIFECYCLE):
            return None
        try:
            return json.loads(self.raw)
        except ValueError:
            return None

    def text(self) -> str:
        """The raw bytes as text, with undecodable bytes shown as replacement characters."""
        return self.raw.decode("utf-8", errors="replace")

    @property
    def status(self) -> str:
        """Short status for a traffic list: ok / JSON-RPC error code / isError / unparsable."""
        if self.kind is Kind.UNPARSABLE:
            return "unparsable"
        if self.error_code is not None:
            return f"error {self.error_code}"
        if self.is_tool_error:
            return "isError"
        if self.notes:
            return self.notes[0]
        return "ok"
