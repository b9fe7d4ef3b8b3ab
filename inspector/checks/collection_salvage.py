"""What is intact in a damaged collection file (cut, corrupted, partly re-encoded): its header and every step
object that still reads whole, each with its line and bytes, and one `Lost` per damaged stretch naming its
lines and the step it follows (`inspector.config.json_salvage`). `collection.load` uses it when the file
does not read whole.

After a stretch that does not read, the next step is found where a writer puts one: ``{`` indented four
spaces (ours), or at a line's start (one step per line), its first key ``"id"``.
"""

from __future__ import annotations

import re
from typing import Any

from inspector.config.json_salvage import ListSalvage, Lost, salvage_list

__all__ = ["ListSalvage", "Lost", "salvage"]

_NEXT_STEP = re.compile(r'\n(?: {4}\{\s*|[ \t]*\{ ?)"id"\s*:')


def salvage(raw: bytes) -> ListSalvage | None:
    """The intact parts of a collection file's bytes; None when it has no steps list to read from."""
    return salvage_list(raw, "steps", _NEXT_STEP, noun="step", name_of=_step_name)


def _step_name(step: Any) -> str | None:
    return f"step {step['id']}" if isinstance(step, dict) and isinstance(step.get("id"), str) else None
