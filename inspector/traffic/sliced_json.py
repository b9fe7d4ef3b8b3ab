"""JSON parsing that never holds the GIL for long, for a huge message parsed on a worker thread.

`json.loads` is one C call: a 56 MB line holds the GIL ~150 ms, so a worker thread would not let the
window answer meanwhile. `loads` walks the structure in Python over the bytes (no decoded copy of the
whole line) and parses each string a slice at a time with the C `scanstring`: the GIL changes hands
between slices. Anything it does not expect (broken JSON, deep nesting) is handed to `json.loads`,
so it returns and raises exactly what `json.loads` does, only in more, shorter steps. While it runs
the cyclic GC waits (a full pass over a million new rows held the GIL ~0.4 s), and what it built is
then frozen out of later full passes, as `ui/gc_policy` does for recorded entries.
"""

from __future__ import annotations

import gc
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from json.decoder import scanstring
from json.scanner import make_scanner  # type: ignore[attr-defined]
from typing import Any

HUGE = 4 << 20  # bytes: a message this long is joined and parsed on a worker thread (json.loads: ~12 ms)
SLICE = 1 << 20  # bytes of a string parsed in one C call (~2-4 ms)
FIRST_SLICE = 256  # most strings are short: a small first slice finds their end cheaply
WINDOWS = (256, 4096, 65536)  # bytes a small object or array is parsed from in one C call, tried in turn
_scan_once = make_scanner(json.JSONDecoder())
_WS = re.compile(rb"[ \t\n\r]*")
_NUMBER = re.compile(rb"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS = ((b"null", None), (b"true", True), (b"false", False))
_HIGH = range(0xD800, 0xDC00)
_LOW = range(0xDC00, 0xE000)


class _Unexpected(Exception):
    """Not the well-formed JSON the fast walk handles: `json.loads` says what it is."""


def loads(raw: bytes, slice_bytes: int = SLICE) -> Any:
    """`json.loads(raw)`, reading each string at most `slice_bytes` bytes per C call."""
    if json.detect_encoding(raw) != "utf-8":
        return json.loads(raw)
    with _gc_waits():
        try:
            value, end = _Walk(raw, slice_bytes).value(_WS.match(raw, 0).end())  # type: ignore[union-attr]
            if _WS.match(raw, end).end() != len(raw):  # type: ignore[union-attr]
                raise _Unexpected
        except (_Unexpected, RecursionError, UnicodeDecodeError, ValueError):
            return json.loads(raw)
        return value


_gc_lock = threading.Lock()
_gc_holders = 0  # parses running now; the first turns the collector off, the last back on
_gc_was_on = False


@contextmanager
def _gc_waits() -> Iterator[None]:
    """No cyclic GC pass while parses run (JSON values hold no cycles); the values built are then frozen."""
    global _gc_holders, _gc_was_on
    with _gc_lock:
        if _gc_holders == 0:
            _gc_was_on = gc.isenabled()
            gc.disable()
        _gc_holders += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_holders -= 1
            if _gc_holders == 0 and _gc_was_on:
                gc.freeze()
                gc.enable()


class _Walk:
    def __init__(self, raw: bytes, size: int) -> None:
        self.raw = raw
        self.size = size

    def value(self, i: int) -> tuple[Any, int]:
        raw = self.raw
        c = raw[i : i + 1]
        if c == b'"':
            return self.string(i + 1)
        if c in (b"{", b"["):
            small = self.small(i)
            if small is not None:
                return small
            return self.obj(i + 1) if c == b"{" else self.array(i + 1)
        for word, literal in _LITERALS:
            if raw.startswith(word, i):
                return literal, i + len(word)
        number = _NUMBER.match(raw, i)
        if number is None:
            raise _Unexpected  # NaN, Infinity and broken input: json.loads decides
        whole, frac, exp = number.groups()
        if frac or exp:
            return float(whole + (frac or b"") + (exp or b"")), number.end()
        return int(whole), number.end()

    def obj(self, i: int) -> tuple[dict[str, Any], int]:
        raw, out = self.raw, {}
        i = self._ws(i)
        if raw[i : i + 1] == b"}":
            return out, i + 1
        while True:
            if raw[i : i + 1] != b'"':
                raise _Unexpected
            key, i = self.string(i + 1)
            i = self._ws(i)
            if raw[i : i + 1] != b":":
                raise _Unexpected
            out[key], i = self.value(self._ws(i + 1))
            i = self._ws(i)
            c = raw[i : i + 1]
            if c == b"}":
                return out, i + 1
            if c != b",":
                raise _Unexpected
            i = self._ws(i + 1)

    def array(self, i: int) -> tuple[list[Any], int]:
        raw, out = self.raw, []
        i = self._ws(i)
        if raw[i : i + 1] == b"]":
            return out, i + 1
        while True:
            item, i = self.value(i)
            out.append(item)
            i = self._ws(i)
            c = raw[i : i + 1]
            if c == b"]":
                return out, i + 1
            if c != b",":
                raise _Unexpected
            i = self._ws(i + 1)

    def small(self, i: int) -> tuple[Any, int] | None:
        """The object or array at `i` parsed by the C scanner when it ends within a window; else None
        (a container only parses when its closing bracket is inside the window, so no cut can fool it)."""
        raw = self.raw
        for window in WINDOWS:
            cut = min(len(raw), i + window)
            if cut < len(raw):
                cut = _clean_cut(raw, i, cut)
            text = raw[i:cut].decode("utf-8", "surrogatepass")
            try:
                value, got = _scan_once(text, 0)
            except (StopIteration, ValueError, RecursionError):
                if cut == len(raw):
                    return None
                continue
            ascii_only = len(text) == cut - i
            return value, i + (got if ascii_only else len(text[:got].encode("utf-8", "surrogatepass")))
        return None

    def _ws(self, i: int) -> int:
        return _WS.match(self.raw, i).end()  # type: ignore[union-attr]

    def string(self, i: int) -> tuple[str, int]:
        """The string whose body starts at byte `i`, and the byte after its closing quote."""
        raw, pieces = self.raw, []
        step = min(FIRST_SLICE, self.size)
        while True:
            cut = min(len(raw), i + step)
            if cut < len(raw):
                cut = _clean_cut(raw, i, cut)
                if cut <= i:
                    raise _Unexpected
            text = raw[i:cut].decode("utf-8", "surrogatepass")
            try:
                piece, got = scanstring(text + '"', 0, True)
            except json.JSONDecodeError:
                raise _Unexpected from None
            pieces.append(piece)
            if got <= len(text):  # the string's own closing quote fell inside this slice
                ascii_only = len(text) == cut - i
                end = i + (got if ascii_only else len(text[:got].encode("utf-8", "surrogatepass")))
                return (pieces[0] if len(pieces) == 1 else "".join(pieces)), end
            if cut == len(raw):
                raise _Unexpected  # unterminated
            i = cut
            step = min(step * 4, self.size)


def _clean_cut(raw: bytes, lo: int, hi: int) -> int:
    """A place at or before `hi` that cuts no UTF-8 sequence, escape, nor escaped surrogate pair."""
    while hi > lo and raw[hi] & 0xC0 == 0x80:  # a UTF-8 continuation byte: back to its lead byte
        hi -= 1
    slash = raw.rfind(b"\\", max(lo, hi - 16), hi)  # an escape is at most 6 bytes
    if slash == -1:
        return hi
    run = slash
    while run > lo and raw[run - 1] == 0x5C:
        run -= 1
    if (slash - run) % 2 == 1:  # an even run is whole pairs ("\\\\"): nothing open at `hi`
        return hi
    whole = slash + (6 if raw[slash + 1 : slash + 2] == b"u" else 2) <= hi
    if whole and not (_escaped_in(raw, slash, _HIGH) and _escaped_in(raw, hi, _LOW)):
        return hi  # the last escape ends before `hi`, and is not the first half of a pair cut in two
    if _escaped_in(raw, slash, _LOW) and slash - 6 >= lo and _escaped_in(raw, slash - 6, _HIGH):
        return slash - 6  # json joins "\\ud83d\\ude00" into one character: keep the pair in one slice
    return slash  # the last escape is open at `hi`: cut before it


def _escaped_in(raw: bytes, at: int, span: range) -> bool:
    """Whether `raw[at:]` starts with a \\uXXXX escape whose code is in `span`."""
    if raw[at : at + 2] != b"\\u":
        return False
    try:
        return int(raw[at + 2 : at + 6], 16) in span
    except ValueError:
        return False
