"""What is intact in a damaged collection file (cut, corrupted, partly re-encoded): its header and every step
object that still reads whole, each with its line, and one sentence per damaged stretch naming its lines
and the step it follows. `collection.load` uses it when the file does not read whole.

The steps list is read one object at a time (`json.JSONDecoder.raw_decode`). A step that reads whole but
holds bytes that are not UTF-8 is left out alone; after a stretch that does not read, the next step is found
where a writer puts one: ``{`` indented four spaces (ours), or at a line's start (one step per line), its
first key ``"id"``. Each damaged stretch keeps its line and raw bytes (`Lost`) for the user to see.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_STEPS = re.compile(r'"steps"\s*:\s*\[')
_NEXT_STEP = re.compile(r'\n(?: {4}\{\s*|[ \t]*\{ ?)"id"\s*:')
_BYTE_NOT_TEXT = re.compile(r"[\udc80-\udcff]")  # a byte that was not UTF-8 (decoded with surrogateescape)
_GAP = " \t\r\n,"


@dataclass(frozen=True)
class Lost:
    """A damaged stretch of the file: the line it starts at, its bytes as they are, and what was lost."""

    line: int
    raw: bytes
    said: str
    steps: int | None = None  # how many steps it held: None when not known (a stretch that does not read)


@dataclass
class Salvage:
    header: dict[str, Any] | None  # None: the part before the steps does not read
    steps: list[tuple[int, Any, bytes]] = field(default_factory=list)  # (line, the step as read, its bytes)
    lost: list[Lost] = field(default_factory=list)  # one per damaged stretch


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
            line = _line(text, pos)
            result.lost.append(Lost(line, b"", f"line {line}: the file ends inside the steps list (cut after {after})"))
            return result
        try:
            step, end = decoder.raw_decode(text, pos)
        except ValueError:
            step, end = None, pos
        if step is not None and not _has_bad_bytes(step):
            result.steps.append((_line(text, pos), step, _bytes(text[pos:end])))
            after = f"step {step.get('id')}" if isinstance(step, dict) and isinstance(step.get("id"), str) else after
            pos = end
            continue
        if step is not None:  # read whole, but holding bytes that are not UTF-8: that step alone is left out
            result.lost.append(Lost(_line(text, pos), _bytes(text[pos:end]), _not_text(text, pos, end, step), 1))
            pos = end
            continue
        resume = _NEXT_STEP.search(text, pos + 1)
        stop = resume.start() + 1 if resume else len(text)
        first, last = _line(text, pos), _line(text, stop - 1)
        lines = f"line {first}" if first == last else f"lines {first}–{last}"
        lines = lines if resume else f"line {first} to the end"
        said = f"{lines} could not be read: what followed {after} is lost"
        result.lost.append(Lost(_line(text, pos), _bytes(text[pos:stop].rstrip("\n")), said))
        if resume is None:
            return result
        pos = resume.start() + 1


def _not_text(text: str, start: int, end: int, step: Any) -> str:
    """`line 2: step s1 holds bytes that are not UTF-8 (0xFF 0xFE at column 89): it is left out`."""
    bad = _BYTE_NOT_TEXT.search(text, start, end)
    assert bad is not None
    run = re.compile(r"[\udc80-\udcff]+").match(text, bad.start())
    shown = " ".join(f"0x{ord(c) - 0xDC00:02X}" for c in (run.group() if run else bad.group())[:8])
    line, column = _line(text, bad.start()), bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
    name = f"step {step['id']}" if isinstance(step, dict) and isinstance(step.get("id"), str) else "a step"
    return f"line {line}: {name} holds bytes that are not UTF-8 ({shown} at column {column}): it is left out"


def _bytes(part: str) -> bytes:
    return part.encode("utf-8", "surrogateescape")


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
