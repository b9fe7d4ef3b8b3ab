"""The labels the traffic log's Kind and Status columns can show: a known set, so that each column is
sized to its longest label. A note is free text (a reason, a server's exit): the Status column shows the
short word for it and its tooltip the whole note."""

from __future__ import annotations

import re

from inspector.traffic.entry import DOCTOR_PROBE, ERA_PROBE, FALLBACK, LISTENING, SECRETS_HIDDEN, TEARDOWN, Entry, Kind

_PROBED = (Kind.REQUEST, Kind.RESPONSE, Kind.ERROR, Kind.NOTIFICATION)
PROBES = (ERA_PROBE, FALLBACK, TEARDOWN, DOCTOR_PROBE)
APP_PREFIX = "app"  # an MCP App's bridge message: "app request"
# An MCP App's message: "app " and the kind, "notification" shortened; MCP Lens's own probe: only its name
# (the arrow says request or answer, Status says error). The Kind tooltip says it whole.
_APP_WORDS = {Kind.NOTIFICATION: "notice"}
PROBE_LABEL = "probe"  # a probe name a record file made up: never shown as it is
KIND_LABELS: tuple[str, ...] = (
    *(kind.value for kind in Kind),
    *(f"{APP_PREFIX} {_APP_WORDS.get(kind, kind.value)}" for kind in _PROBED),
    *PROBES,
    PROBE_LABEL,
)

# (how a note starts, the word the Status column shows for it), first match wins; the order matters.
NOTE_WORDS = (
    ("unknown id", "unknown id"),
    ("response without an id", "no id"),
    ("no response", "no reply"),
    ("no answer", "no reply"),
    ("cancelled", "cancelled"),
    (LISTENING, "listening"),
    ("listen stream replaced", "replaced"),
    ("listen stream", "ended"),
    (SECRETS_HIDDEN, "redacted"),
    ("not a valid JSON-RPC", "invalid"),
    ("finding", "finding"),
    ("killed by", "killed"),
    ("OAuth", "OAuth"),
)
_EXIT = re.compile(r"exit code (-?\d{1,4})\b")  # "exit code 3" → "exit 3"; a process's other ends: "exited"
OTHER_NOTE = "see note"  # any other note: the tooltip holds it whole
ERROR_CODES = (-32700, -32600, -32601, -32602, -32603, -32002, -32001, -32000)  # longer codes may elide
STATUS_LABELS: tuple[str, ...] = (
    "ok",
    "unparsable",
    "isError",
    *dict.fromkeys(word for _, word in NOTE_WORDS),
    "exit 255",
    "exit -15",
    "exited",
    OTHER_NOTE,
    *(f"error {code}" for code in ERROR_CODES),
)


def note_word(note: str) -> str:
    """The Status column's word for a note (the tooltip shows the note whole)."""
    word = next((word for start, word in NOTE_WORDS if note.startswith(start)), None)
    if word is not None:
        return word
    if exit_code := _EXIT.search(note):
        return f"exit {exit_code.group(1)}"
    return "exited" if "exit" in note else OTHER_NOTE


def kind_label(entry: Entry, bridge: bool) -> str:
    """The Kind cell: the kind, and whose message it is when not the user's (a probe, an MCP App's bridge)."""
    if entry.probe is not None:
        return entry.probe if entry.probe in PROBES else PROBE_LABEL
    return f"{APP_PREFIX} {_APP_WORDS.get(entry.kind, entry.kind.value)}" if bridge else entry.kind.value


def kind_words(entry: Entry, bridge: bool) -> str | None:
    """The Kind cell's tooltip where the label is short for more: "era probe request (MCP Lens's own)"."""
    if entry.probe is not None:
        return f"{kind_label(entry, bridge)} {entry.kind.value}: sent by MCP Lens on its own, or its answer"
    return f"MCP App {entry.kind.value} (the app's bridge, MCP Lens the host)" if bridge else None


def status_label(entry: Entry) -> str:
    """The Status cell: `Entry.status`, with its first note (when that is what it says) as a short word."""
    status = entry.status
    return note_word(status) if entry.notes and status is entry.notes[0] else status
