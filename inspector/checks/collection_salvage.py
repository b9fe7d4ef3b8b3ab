"""What is intact in a damaged collection file (cut, corrupted, partly re-encoded): its header and every step
object that still reads whole, each with its line, and one sentence per damaged stretch naming its lines
and the step it follows. `collection.load` uses it when the file does not read whole.

The steps list is read one object at a time (`json.JSONDecoder.raw_decode`); after a damaged stretch the
next step is found where the writer puts one (``{`` indented four spaces, its first key ``"id"``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_STEPS = re.compile(r'"steps"\s*:\s*\[')
_NEXT_STEP = re.compile(r'\n {4}\{\s*"id"\s*:')
_BYTE_NOT_TEXT = re.compile(r"[\udc80-\udcff]")  # a byte that was not UTF-8 (decoded with surrogateescape)
_GAP = " \t\r\n,"


@dataclass
class Salvage:
    header: dict[str, Any] | None  # None: the part before the steps does not read
    steps: list[tuple[int, Any]] = field(default_factory=list)  # (line, the step object as read)
    lost: list[str] = field(default_factory=list)  # one sentence per damaged stretch


def salvage(raw: bytes) -> Salvage | None:
    """The intact parts of a collection file's bytes; None when it has no steps list to read from."""
    text = raw.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    found = _STEPS.search(text)
    if found is None:
        return None
    head = text[: found.start()].rstrip().rstrip(",") + "}"
    try:
        header = json.loads(head) if not _BYTE_NOT_TEXT.search(head) else None
    except ValueError:
        header = None
    result = Salvage(header if isinstance(header, dict) else None)
    decoder = json.JSONDecoder()
    pos, after = found.end(), "the start of the list"
    while True:
        while pos < len(text) and text[pos] in _GAP:
            pos += 1
        if pos < len(text) and text[pos] == "]":
            return result
        if pos >= len(text):
            result.lost.append(f"line {_line(text, pos)}: the file ends inside the steps list (cut after {after})")
            return result
        try:
            step, end = decoder.raw_decode(text, pos)
        except ValueError:
            step, end = None, pos
        if step is not None and not _has_bad_bytes(step):
            result.steps.append((_line(text, pos), step))
            after = f"step {step.get('id')}" if isinstance(step, dict) and isinstance(step.get("id"), str) else after
            pos = end
            continue
        resume = _NEXT_STEP.search(text, pos + 1)
        stop = resume.start() + 1 if resume else len(text)
        lines = f"lines {_line(text, pos)}–{_line(text, stop)}" if resume else f"line {_line(text, pos)} to the end"
        result.lost.append(f"{lines} could not be read: what followed {after} is lost")
        if resume is None:
            return result
        pos = resume.start() + 1


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _has_bad_bytes(value: Any) -> bool:
    if isinstance(value, str):
        return bool(_BYTE_NOT_TEXT.search(value))
    if isinstance(value, dict):
        return any(_has_bad_bytes(k) or _has_bad_bytes(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_bad_bytes(v) for v in value)
    return False
