"""Untrusted text made visible: control, bidi and invisible characters shown as escapes; no Qt.

A server's string may carry terminal escapes (screen clear, OSC 8 links), NUL, bidi overrides that
reorder what follows (``rtl\\u202eloot`` reads "rtltool") or invisible characters that make two names
look alike. Wherever MCP Lens shows server text, in the app or on a terminal, those characters are
written as the escapes the wire's JSON uses (``\\u202e``, ``\\x1b``, ``\\x00``): seen, never obeyed.
Newlines and tabs are kept unless the text must stay on one line.
"""

from __future__ import annotations

import json
import re
from typing import Any

# C0 controls but tab, newline and CR (a lone CR is escaped), DEL and C1; soft hyphen; Arabic letter
# mark; Mongolian vowel separator; zero-width and directional marks; line and paragraph separators; bidi
# embeddings, overrides and isolates; word joiner and invisible operators; deprecated format characters;
# Hangul fillers; the byte-order mark; interlinear annotations; lone surrogates; tag characters
# (invisible look-alikes of ASCII).
_INVISIBLE = (
    "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\u3164\ufeff\uffa0\ufff9-\ufffb\ud800-\udfff\U000e0000-\U000e007f"
)
_MULTI_LINE = re.compile(f"[{_INVISIBLE}]|\r(?!\n)")
_ONE_LINE = re.compile(f"[{_INVISIBLE}\t\n\r]")
_IN_JSON = re.compile(f"[{_INVISIBLE}\r]")  # what json.dumps(ensure_ascii=False) leaves raw: C1, bidi, …
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def escape_char(ch: str) -> str:
    """The escape shown for one character: ``\\n``, ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: Any, *, one_line: bool = False) -> str:
    """`text` with every control, bidi and invisible character shown as its escape.

    Newlines and tabs (and CR before LF) are kept, unless `one_line`: then they are escaped too.
    """
    value = text if isinstance(text, str) else str(text)
    pattern = _ONE_LINE if one_line else _MULTI_LINE
    if pattern.search(value) is None:
        return value
    return pattern.sub(lambda match: escape_char(match.group()), value)


def has_invisible(text: str) -> bool:
    """Whether `text` holds a character `visible` would escape (newlines and tabs excepted)."""
    return _MULTI_LINE.search(text) is not None


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def terminal_safe(text: str) -> str:
    """`text` with every character a terminal would obey written as ``\\uXXXX`` (newlines, tabs and CRLF
    kept): the last guard on what a headless command prints. Inside a JSON string the result is still
    valid JSON for the same value."""
    return text if _MULTI_LINE.search(text) is None else _MULTI_LINE.sub(_json_escape, text)


def json_visible(value: Any, **dumps: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **dumps)` with bidi, C1 and invisible characters escaped too.

    Still valid JSON for the same value: only characters inside strings are written as ``\\uXXXX``.
    """
    text = json.dumps(value, ensure_ascii=False, **dumps)
    return text if _IN_JSON.search(text) is None else _IN_JSON.sub(_json_escape, text)
