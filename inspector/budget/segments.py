"""Exact token counts of a long string from cached counts of its pieces.

A tiktoken encoder first splits text with a regex into pieces and byte-pair-encodes each piece on its
own, so the count of a string is the sum of the counts of its pieces. A position ``b`` is a *safe
boundary* when ``text[b-1]`` is an ASCII letter or digit and ``text[b]`` is ASCII punctuation other
than the apostrophe: with both the o200k and cl100k patterns a letter or digit run always ends a piece
there (no pattern carries letters or digits into following punctuation except the ``'s``-style
contractions), the patterns never look behind, and a piece that starts at ``b`` matches the same text
whatever precedes it. Splitting a string at safe boundaries and summing the parts' counts therefore
gives exactly the count of the whole (tests/budget/test_segments.py checks this on random JSON).

Compact JSON has a safe boundary after every object key (``…"name` | ``":…``), so each serialised tool
splits into a short head, a long middle and a short tail; a whole tool list is the sum of the tools'
middles plus the small junction strings between them — which is what makes recounting 1,000 tools
after one edit cheap.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import pairwise

_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_PUNCT = frozenset('!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~')  # ASCII punctuation without the apostrophe
_PUNCT_CLASS = r"[!-&(-/:-@\[-`{-~]"
_FIRST = re.compile(r"[A-Za-z0-9](?=" + _PUNCT_CLASS + ")")
_LAST = re.compile(r"(?s:.*)[A-Za-z0-9](?=" + _PUNCT_CLASS + ")")

Split = tuple[str, str, str] | None


def is_safe_boundary(text: str, b: int) -> bool:
    return 0 < b < len(text) and text[b - 1] in _ALNUM and text[b] in _PUNCT


def last_safe_boundary(text: str) -> int | None:
    """The last safe boundary in ``text``, or None."""
    last = _LAST.match(text)
    return last.end() if last is not None else None


def split_safe(text: str) -> Split:
    """``(head, middle, tail)`` cut at the first and last safe boundaries (``middle`` is empty when they are
    the same one), or None when there is none."""
    first = _FIRST.search(text)
    if first is None:
        return None
    last = _LAST.match(text)
    a = first.end()
    b = last.end() if last is not None else a
    return text[:a], text[a:b], text[b:]


def join_segments(
    prefix: str, items: list[str], separator: str, suffix: str, split: Callable[[str], Split] = split_safe
) -> list[str]:
    """Segments whose concatenation is ``prefix + separator.join(items) + suffix``, cut only at safe boundaries.

    Each item contributes its middle as a segment of its own (so an unchanged item's middle is the
    same string, and its cached count is reused); heads and tails merge with the separators around them.
    ``split`` may be a caching wrapper of `split_safe`.
    """
    segments: list[str] = []
    pending = prefix
    for i, item in enumerate(items):
        if i:
            pending += separator
        parts = split(item)
        if parts is None:
            pending += item
            continue
        head, middle, tail = parts
        segments.append(pending + head)
        if middle:
            segments.append(middle)
        pending = tail
    segments.append(pending + suffix)
    return segments


def cut_member(
    text: str,
    inner: list[str] | tuple[str, ...] = (),
    split: Callable[[str], Split] = split_safe,
    *,
    outer: Split = None,
) -> tuple[str, list[str], str] | None:
    """``(head, closed, tail)``: ``text`` cut at its first and last safe boundaries and, between them, at the
    first and last safe boundaries of each ``inner`` string found in it (e.g. the property descriptions'
    ``"description":"…"`` members inside a schema). ``head + "".join(closed) + tail == text``.

    Cutting around the inner strings makes their long middles pieces of their own, so a property
    description's text is encoded once for both its own count and the schema's. None when ``text``
    has no safe boundary. ``split`` may be a caching wrapper of `split_safe`; ``outer`` is ``split(text)``
    when the caller has it already (splitting again copies a long member's middle again).
    """
    outer = outer if outer is not None else split(text)
    if outer is None:
        return None
    start, end = len(outer[0]), len(text) - len(outer[2])
    cuts = {start, end}
    used: list[tuple[int, int]] = []
    for fragment in inner:
        parts = split(fragment)
        if parts is None:
            continue
        at = text.find(fragment)
        while at != -1 and any(a <= at < b for a, b in used):
            at = text.find(fragment, at + 1)
        if at == -1:
            continue
        used.append((at, at + len(fragment)))
        for cut in (at + len(parts[0]), at + len(fragment) - len(parts[2])):
            if start < cut < end and is_safe_boundary(text, cut):
                cuts.add(cut)
    if len(cuts) == 2:  # no inner cut: the middle is the outer split's (a second copy of a 1 MB description)
        return outer[0], [outer[1]], outer[2]
    ordered = sorted(cuts)
    closed = [text[a:b] for a, b in pairwise(ordered) if b > a]
    return text[:start], closed, text[end:]


def safe_pieces(text: str, size: int) -> Iterator[str]:
    """``text`` cut at safe boundaries into pieces of about ``size`` characters or more (a piece grows
    until the next safe boundary), one at a time: their counts add up to the count of ``text``, and
    encoding them one by one never holds the token list of all of it (13.6M Python ints, ~400 MB, for
    a 20 MB icon)."""
    start = 0
    while len(text) - start > size:
        found = _FIRST.search(text, start + size)
        if found is None:
            break
        yield text[start : found.end()]
        start = found.end()
    yield text[start:]
