"""Untrusted text made visible: control, bidi and invisible characters shown as escapes; no Qt.

A server's string may carry terminal escapes (screen clear, OSC 8 links), NUL, bidi overrides that
reorder what follows (``rtl\\u202eloot`` reads "rtltool") or invisible characters that make two names
look alike. Wherever MCP Lens shows server text, in the app or on a terminal, those characters are
written as the escapes the wire's JSON uses (``\\u202e``, ``\\x1b``, ``\\x00``): seen, never obeyed.
Newlines and tabs are kept unless the text must stay on one line.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

# C0 controls but tab, newline and CR (a lone CR is escaped), DEL and C1; lone surrogates; and every
# character Unicode calls default-ignorable (rendered as nothing): soft hyphen, combining grapheme joiner,
# Arabic letter mark, Hangul and Khmer fillers, Mongolian selectors, zero-width and directional marks, bidi
# embeddings, overrides and isolates, word joiner and invisible operators, the byte-order mark, the
# unassigned specials, shorthand format controls, musical format controls, tag characters (invisible
# look-alikes of ASCII); also line and paragraph separators, interlinear annotations and the braille blank.
_RANGES = (
    (0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C),
    (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x206F),
    (0x2800, 0x2800), (0x3164, 0x3164), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0xD800, 0xDFFF),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE00FF), (0xE01F0, 0xE0FFF),
)  # fmt: skip
# Variation selectors are default-ignorable too, but an emoji is written with one (❤️ is U+2764 U+FE0F): they
# are shown as escapes only after a letter, digit or underscore, where they would make two names look alike.
_SELECTORS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_SPOOF = f"[{_SELECTORS}](?<=\\w[{_SELECTORS}])"
_INVISIBLE = "".join(chr(low) if low == high else f"{chr(low)}-{chr(high)}" for low, high in _RANGES)
_MULTI_LINE = re.compile(f"[{_INVISIBLE}]|\r(?!\n)|{_SPOOF}")
_ONE_LINE = re.compile(f"[{_INVISIBLE}\t\n\r]|{_SPOOF}")
_IN_JSON = re.compile(f"[{_INVISIBLE}\r]|{_SPOOF}")  # what json.dumps(ensure_ascii=False) leaves raw: C1, bidi, …
_SELECTOR_AFTER_WORD = re.compile(_SPOOF)
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape_char(ch: str) -> str:
    """The escape shown for one character: ``\\n``, ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _json_char(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


# str.translate tables (C speed however many characters match; a lone CR goes through the regex instead)
_HIDDEN = [chr(code) for low, high in _RANGES for code in range(low, high + 1)]
_SHOWN = {ord(ch): escape_char(ch) for ch in _HIDDEN}
_SHOWN_ONE_LINE = {**_SHOWN, **{ord(ch): escape for ch, escape in _NAMED.items()}}
_JSON = {ord(ch): _json_char(ch) for ch in [*_HIDDEN, "\r"]}


def visible(text: Any, *, one_line: bool = False) -> str:
    """`text` with every control, bidi and invisible character shown as its escape.

    Newlines and tabs (and CR before LF) are kept, unless `one_line`: then they are escaped too.
    """
    value = text if isinstance(text, str) else str(text)
    if one_line:
        return value if _ONE_LINE.search(value) is None else _selectors(value.translate(_SHOWN_ONE_LINE), escape_char)
    if _MULTI_LINE.search(value) is None:
        return value
    if "\r" in value:  # CR before LF is kept, a lone one escaped
        return _MULTI_LINE.sub(lambda match: escape_char(match.group()), value)
    return _selectors(value.translate(_SHOWN), escape_char)


def _selectors(text: str, escape: Any) -> str:
    """`text` with each variation selector that follows a word character escaped (the tables cannot say "after")."""
    if _SELECTOR_AFTER_WORD.search(text) is None:
        return text
    return _SELECTOR_AFTER_WORD.sub(lambda match: escape(match.group()), text)


def has_invisible(text: str) -> bool:
    """Whether `text` holds a character `visible` would escape (newlines and tabs excepted)."""
    return _MULTI_LINE.search(text) is not None


def terminal_safe(text: str) -> str:
    """`text` with every character a terminal would obey written as ``\\uXXXX`` (newlines, tabs and CRLF
    kept): the last guard on what a headless command prints. Inside a JSON string the result is still
    valid JSON for the same value."""
    if _MULTI_LINE.search(text) is None:
        return text
    if "\r" in text:  # CR before LF is kept, a lone one escaped
        return _MULTI_LINE.sub(lambda match: _json_char(match.group()), text)
    return _selectors(text.translate(_JSON), _json_char)


LONG_STRING = 1 << 20  # a string this long is encoded in slices of this length


def json_visible_pieces(value: Any, **dumps: Any) -> Iterator[str]:
    """`json_visible`'s text in pieces, never whole: a 50 MB result is printed without a second 50 MB
    string (and its encoded bytes) beside the value. A long string is encoded a slice at a time (JSON
    escapes each character on its own, so the slices' escapes join into the whole one's)."""
    long: list[str] = []
    token = os.urandom(8).hex()  # a server's own text cannot name a stand-in
    value = _stand_ins(value, long, token)
    stand_in = re.compile(r'"\\u0000' + token + r"-(\d+)\\u0000\"")
    for piece in json.JSONEncoder(ensure_ascii=False, **dumps).iterencode(value):
        if not long or token not in piece:
            yield _json_safe(piece)
            continue
        at = 0
        for found in stand_in.finditer(piece):
            yield _json_safe(piece[at : found.start()])
            yield from _long_string(long[int(found.group(1))])
            at = found.end()
        yield _json_safe(piece[at:])


def _json_safe(text: str) -> str:
    return text if _IN_JSON.search(text) is None else _selectors(text.translate(_JSON), _json_char)


def _long_string(text: str) -> Iterator[str]:
    yield '"'
    for start in range(0, len(text), LONG_STRING):
        yield _json_safe(json.dumps(text[start : start + LONG_STRING], ensure_ascii=False)[1:-1])
    yield '"'


def _stand_ins(value: Any, long: list[str], token: str) -> Any:
    """`value` with each string value of `LONG_STRING` characters or more replaced by a short stand-in
    naming its place in `long` (which holds it). Containers are copied, strings never."""
    if isinstance(value, str):
        if len(value) < LONG_STRING:
            return value
        long.append(value)
        return f"\x00{token}-{len(long) - 1}\x00"
    if isinstance(value, dict):
        return {key: _stand_ins(item, long, token) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_stand_ins(item, long, token) for item in value]
    return value


def json_visible(value: Any, **dumps: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **dumps)` with bidi, C1 and invisible characters escaped too.

    Still valid JSON for the same value: only characters inside strings are written as ``\\uXXXX``.
    """
    text = json.dumps(value, ensure_ascii=False, **dumps)
    return text if _IN_JSON.search(text) is None else _selectors(text.translate(_JSON), _json_char)
