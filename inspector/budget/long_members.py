"""A member too long to write whole (a 20 MB `data:` icon, a megabyte description): counted as a stream.

Writing such a member as one string costs twice its size at once (the JSON encoder's own text, then the
member's), and cutting it at its safe boundaries (segments.py) a third copy. Here its JSON is produced in
chunks, its long strings a slice at a time (JSON escapes each character on its own, so the slices' escapes
join into the whole one's), and counted a piece at a time, each piece ending at a safe boundary: the same
count, with no more than a few pieces of it in memory. Only exact, segmentable tokenizers count this way.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from inspector.budget.segments import last_safe_boundary
from inspector.budget.shapes import dumps, member

STREAM_CHARS = 256 * 1024  # a member with a string longer than this is counted as a stream
PIECE = 16 * 1024  # characters counted at once (its token list, ~0.15 MB, is what counting holds)
MAX_DEPTH = 64  # deeper than this, a value is written whole (as before)
_encode_string = json.encoder.encode_basestring


@dataclass(frozen=True)
class LongMember:
    """A ``"key":value`` member left unwritten: ``value`` holds a string longer than `STREAM_CHARS`."""

    key: str
    value: Any


def member_or_long(key: str, value: Any) -> str | LongMember:
    """`shapes.member`, or a `LongMember` when ``value`` holds a very long string."""
    return LongMember(key, value) if has_long_string(value) else member(key, value)


@dataclass(frozen=True)
class Counted:
    """A piece of a streamed member, already counted (it stands in the cut for the text it was)."""

    tokens: int


def has_long_string(value: Any, limit: int = STREAM_CHARS) -> bool:
    """Whether a string longer than ``limit`` lies in ``value`` (dict values, list items)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > limit:
                return True
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def json_chunks(value: Any, limit: int = STREAM_CHARS, depth: int = 0) -> Iterator[str]:
    """``dumps(value)`` in chunks: strings longer than ``limit`` in slices of `PIECE`, the rest as `dumps` writes it."""
    if isinstance(value, str) and len(value) > limit:
        yield '"'
        for start in range(0, len(value), PIECE):
            yield _encode_string(value[start : start + PIECE])[1:-1]
        yield '"'
    elif depth < MAX_DEPTH and isinstance(value, dict) and all(isinstance(key, str) for key in value):
        if not has_long_string(value, limit):
            yield dumps(value)
            return
        yield "{"
        for n, (key, item) in enumerate(value.items()):
            yield ("," if n else "") + _encode_string(key) + ":"
            yield from json_chunks(item, limit, depth + 1)
        yield "}"
    elif depth < MAX_DEPTH and isinstance(value, (list, tuple)) and has_long_string(value, limit):
        yield "["
        for n, item in enumerate(value):
            if n:
                yield ","
            yield from json_chunks(item, limit, depth + 1)
        yield "]"
    else:
        yield dumps(value)


def stream_count(count: Callable[[str], int], chunks: Iterable[str], piece: int = PIECE) -> tuple[int, str] | None:
    """``(tokens, rest)``: the tokens of the text ``chunks`` join into, up to its last safe boundary, counted
    a piece at a time (each ending at a safe boundary), and the text after that boundary. None when no
    safe boundary shows within `8 * piece` characters (the caller writes the member whole)."""
    tokens = 0
    buffer = ""
    for chunk in chunks:
        for start in range(0, len(chunk), piece):
            buffer += chunk[start : start + piece] if len(chunk) > piece else chunk
            if len(buffer) < 2 * piece:
                continue
            cut = last_safe_boundary(buffer)
            if cut is None:
                if len(buffer) > 8 * piece:
                    return None
                continue
            tokens += count(buffer[:cut])
            buffer = buffer[cut:]
    cut = last_safe_boundary(buffer)
    if cut is not None:
        tokens += count(buffer[:cut])
        buffer = buffer[cut:]
    return tokens, buffer
