"""What is intact in a damaged JSON file that MCP Lens writes as an object holding one list (a collection's
``"steps"``, a History's ``"calls"``): the part before the list, every item that still reads whole with its
line and bytes, and one `Lost` per damaged stretch, naming its lines and the item it follows.

The file is read with every byte that is not UTF-8 kept (``surrogateescape``) and the list one object at a
time (`json.JSONDecoder.raw_decode`). An item that reads whole but holds such bytes is left out alone; after
a stretch that does not read, the next item is found where its writer puts one (`next_item`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_BYTE_NOT_TEXT = re.compile(r"[\udc80-\udcff]")  # a byte that was not UTF-8 (decoded with surrogateescape)
_BYTES_NOT_TEXT = re.compile(r"[\udc80-\udcff]+")
_GAP = " \t\r\n,"


@dataclass(frozen=True)
class Lost:
    """A damaged stretch of the file: the line it starts at, its bytes as they are, and what was lost."""

    line: int
    raw: bytes
    said: str
    items: int | None = None  # how many items it held: None when not known (a stretch that does not read)


@dataclass
class ListSalvage:
    header: dict[str, Any] | None  # the object before the list; None: that part does not read
    items: list[tuple[int, Any, bytes]] = field(default_factory=list)  # (line, the item as read, its bytes)
    lost: list[Lost] = field(default_factory=list)  # one per damaged stretch


def salvage_list(
    raw: bytes,
    key: str,
    next_item: re.Pattern[str],
    *,
    noun: str = "item",
    name_of: Callable[[Any], str | None] = lambda item: None,
) -> ListSalvage | None:
    """The intact parts of `raw`, a JSON object whose `key` holds a list; None when no such list is found.
    `next_item` matches where an item starts after a newline (its match starts at the newline); `name_of`
    names an item in what is said (``step s3``), else it is ``{noun} N``."""
    text = raw.decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    found = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text)
    if found is None:
        return None
    head = text[: found.start()].rstrip().rstrip(",") + "}"
    try:
        header = json.loads(head) if not _BYTE_NOT_TEXT.search(head) else None
    except ValueError:
        header = None
    result = ListSalvage(header if isinstance(header, dict) else None)
    decoder = json.JSONDecoder()
    pos, after, count = found.end(), "the start of the list", 0
    while True:
        while pos < len(text) and text[pos] in _GAP:
            pos += 1
        if pos < len(text) and text[pos] == "]":
            return result
        if pos >= len(text):
            line = _line(text, pos)
            said = f"line {line}: the file ends inside the {noun}s list (cut after {after})"
            result.lost.append(Lost(line, b"", said))
            return result
        try:
            item, end = decoder.raw_decode(text, pos)
        except ValueError:
            item, end = None, pos
        count += 1
        label = name_of(item) or f"{noun} {count}"
        if item is not None and not _has_bad_bytes(item):
            result.items.append((_line(text, pos), item, _bytes(text[pos:end])))
            after, pos = label, end
            continue
        if item is not None:  # read whole, but holding bytes that are not UTF-8: that item alone is left out
            said = _not_text(text, pos, end, label)
            result.lost.append(Lost(_line(text, pos), _bytes(text[pos:end]), said, 1))
            after, pos = label, end
            continue
        resume = next_item.search(text, pos + 1)
        stop = resume.start() + 1 if resume else len(text)
        first, last = _line(text, pos), _line(text, stop - 1)
        lines = f"line {first}" if first == last else f"lines {first}–{last}"
        lines = lines if resume else f"line {first} to the end"
        said = f"{lines} could not be read: what followed {after} is lost"
        result.lost.append(Lost(first, _bytes(text[pos:stop].rstrip("\n")), said))
        if resume is None:
            return result
        pos = resume.start() + 1


def _not_text(text: str, start: int, end: int, label: str) -> str:
    """`line 2: step s1 holds bytes that are not UTF-8 (0xFF 0xFE at column 89): it is left out`."""
    bad = _BYTES_NOT_TEXT.search(text, start, end)
    assert bad is not None
    shown = " ".join(f"0x{ord(c) - 0xDC00:02X}" for c in bad.group()[:8])
    line, column = _line(text, bad.start()), bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
    return f"line {line}: {label} holds bytes that are not UTF-8 ({shown} at column {column}): it is left out"


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


@dataclass
class ObjectSalvage:
    """What is intact of the object a file holds under one key (a config's ``"mcpServers"``)."""

    members: dict[str, Any] = field(default_factory=dict)  # name → value, each read whole and all text
    lines: dict[str, int] = field(default_factory=dict)  # name → the line its member starts at
    lost: list[Lost] = field(default_factory=list)  # one per damaged stretch


def salvage_members(text: str, key: str, *, noun: str = "entry", start: int = 0) -> ObjectSalvage | None:
    """The members of the object under `key` in `text` (decoded with ``surrogateescape``) that read whole,
    one `Lost` per damaged stretch; None when no such object is found after `start`. After a stretch that does not read,
    the next member is looked for at the members' indent: a whole member's, else twice the key's (as a writer
    of indented JSON puts them)."""
    spelled = "[\udc80-\udcff]*".join(["", *(re.escape(c) for c in key), ""])  # a bad byte in the key too
    found = re.compile(rf'"{spelled}"[\s\udc80-\udcff]*:[\s\udc80-\udcff]*\{{').search(text, start)
    if found is None:
        return None
    result, decoder = ObjectSalvage(), json.JSONDecoder()
    pos, after = found.end(), "the start of the object"
    key_indent = found.start() - (text.rfind("\n", 0, found.start()) + 1)
    indent, measured = (2 * key_indent if key_indent else None), False
    while True:
        while pos < len(text) and text[pos] in _GAP:
            pos += 1
        if pos < len(text) and text[pos] == "}":
            return result
        if pos >= len(text):
            line = _line(text, pos)
            said = f"line {line}: the file ends inside {key!r} (cut after {after})"
            result.lost.append(Lost(line, b"", said))
            return result
        name, value, end = _member(decoder, text, pos)
        if name is not None and not measured:
            indent, measured = pos - (text.rfind("\n", 0, pos) + 1), True
        if name is not None:
            label = f"{noun} {name!r}"
            if _has_bad_bytes(name) or _has_bad_bytes(value):
                shown = _bytes(name).decode("utf-8", "replace")
                said = _not_text(text, pos, end, f"{noun} {shown!r}")
                result.lost.append(Lost(_line(text, pos), _bytes(text[pos:end]), said, 1))
            else:
                result.members[name], result.lines[name] = value, _line(text, pos)
            after, pos = label, end
            continue
        at = indent if indent is not None else pos - (text.rfind("\n", 0, pos) + 1)
        resume = re.compile(rf"\n[ \t]{{{at}}}\"").search(text, pos + 1)
        stop = resume.start() + 1 if resume else len(text)
        first, last = _line(text, pos), _line(text, stop - 1)
        lines = f"line {first}" if first == last else f"lines {first}–{last}"
        lines = lines if resume else f"line {first} to the end"
        stray = text[pos:stop]
        if resume and not _BYTES_NOT_TEXT.sub("", stray).strip(_GAP):  # only bytes between two members
            shown = " ".join(f"0x{ord(c) - 0xDC00:02X}" for c in _BYTES_NOT_TEXT.findall(stray)[0][:8])
            said = f"{lines}: bytes that are not UTF-8 ({shown}) between entries were skipped; nothing was lost"
            result.lost.append(Lost(first, _bytes(stray.rstrip("\n")), said, 0))
        else:
            said = f"{lines} could not be read: what followed {after} is lost"
            result.lost.append(Lost(first, _bytes(stray.rstrip("\n")), said))
        if resume is None:
            return result
        pos = resume.start() + 1


def _member(decoder: json.JSONDecoder, text: str, pos: int) -> tuple[str | None, Any, int]:
    """`"name": value` at `pos`: (name, value, where it ends); name None when it does not read."""
    try:
        name, end = decoder.raw_decode(text, pos)
        colon = re.compile(r"\s*:\s*").match(text, end)
        if not isinstance(name, str) or colon is None:
            return None, None, pos
        value, end = decoder.raw_decode(text, colon.end())
    except ValueError:
        return None, None, pos
    return name, value, end
