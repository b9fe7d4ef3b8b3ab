"""Words for the entries of a multi round-trip call (2026-07-28 input_required): which round, and
the `requestState` the client carries, described as opaque data (its size only: never parsed)."""

from __future__ import annotations

from typing import Any

from inspector.traffic.entry import Entry

_MAX_BYTES = 1_000_000  # larger entries are not parsed for this


def request_state_words(message: Any) -> str | None:
    """What a message says about `requestState`, if it carries one (in a result or in request params)."""
    if not isinstance(message, dict):
        return None
    holder = message.get("result") if "result" in message else message.get("params")
    if not isinstance(holder, dict) or "requestState" not in holder:
        return None
    state = holder["requestState"]
    size = f"{len(state.encode())} bytes" if isinstance(state, str) else f"a {type(state).__name__}, not a string"
    if "result" in message:
        return f"requestState: opaque server state ({size}); the client echoes it unchanged, never parsed"
    return f"requestState: opaque server state ({size}), echoed back exactly as the server sent it"


def round_words(entry: Entry) -> list[str]:
    """The round of its call, the input the server asks for or is given, and the opaque requestState."""
    words = [entry.round_title.capitalize()] if entry.round_title else []
    if entry.group is None or entry.size > _MAX_BYTES:
        return words
    message = entry.parsed()
    holder = message.get("result") or message.get("params") if isinstance(message, dict) else None
    if isinstance(holder, dict):
        asked = holder.get("inputRequests")
        if isinstance(asked, dict) and asked:
            words.append(f"asks for input: {', '.join(sorted(str(k) for k in asked))}")
        given = holder.get("inputResponses")
        if isinstance(given, dict) and given:
            words.append(f"answers: {', '.join(sorted(str(k) for k in given))}")
    if state := request_state_words(message):
        words.append(state)
    return words
