"""JSON with comments and trailing commas (JSONC, as VS Code reads it)."""

from __future__ import annotations

import json
from typing import Any

from inspector.config.profile import ProfileError


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def strip_jsonc(text: str) -> str:
    """Blank out `//` and `/* */` comments outside strings, and trailing commas.

    Every removed character becomes a space (newlines are kept), so line and column numbers in
    a later JSON error still point into the original text. Raises `ValueError` for an
    unterminated block comment.
    """
    out = list(text)
    n = len(text)
    i = 0
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif c == "/" and text.startswith("//", i):
            while i < n and text[i] not in "\r\n":
                out[i] = " "
                i += 1
            continue
        elif c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                line, col = _line_col(text, i)
                raise ValueError(f"unterminated /* comment starting at line {line}, column {col}")
            for j in range(i, end + 2):
                if text[j] not in "\r\n":
                    out[j] = " "
            i = end + 2
            continue
        i += 1
    return _strip_trailing_commas("".join(out))


def _strip_trailing_commas(text: str) -> str:
    """Blank a comma that is followed (after whitespace) by `}` or `]`, outside strings."""
    out = list(text)
    n = len(text)
    i = 0
    in_string = False
    last = ""  # last significant character outside strings
    while i < n:
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif c == "," and last not in ("[", "{", ","):
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "}]":
                out[i] = " "
        if not in_string and not c.isspace():
            last = c
        i += 1
    return "".join(out)


def loads(text: str, *, source: str | None = None, jsonc: bool = False) -> Any:
    """Parse JSON (or JSONC); errors become `ProfileError` naming `source` and the line/column."""
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        if jsonc:
            text = strip_jsonc(text)
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileError(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", source=source) from exc
    except ValueError as exc:
        raise ProfileError(f"invalid JSONC: {exc}", source=source) from exc


def has_jsonc_extras(text: str) -> bool:
    """True if the text only parses as JSONC (it has comments or trailing commas)."""
    try:
        json.loads(text.removeprefix("\ufeff"))
    except ValueError:
        return True
    return False
