"""A SKILL.md's YAML frontmatter, read without a YAML library: the subset skills use, or a reason.

Agent Skills frontmatter is a small block mapping: `name`, `description`, `license`, `compatibility`,
`allowed-tools`, a `metadata` mapping of strings. This reads block mappings (nested by indentation),
block sequences (`- item`), flow sequences (`[a, b]`), plain, single- and double-quoted scalars and
`|`/`>` block scalars, with YAML 1.2 core-schema plain values (null, booleans, integers, floats).
Anything else (anchors, tags, flow mappings, documents, duplicate keys) is not guessed at: `parse`
says what and where, and a skill whose frontmatter cannot be read is never verified.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # what YAML calls a line break (U+2028 and U+0085 are text)

_BLOCK = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n(.*?)(?:\r?\n)?^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)
_KEY = re.compile(r"^([^\s#'\"\[\]{}&*!|>%@`,:-][^:#]*?|-[^\s:#][^:#]*?|'[^']*'|\"[^\"]*\")[ \t]*:(?:[ \t]+|$)(.*)$")
_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")


class FrontmatterError(ValueError):
    """Frontmatter this reader does not take: `line` counts from the first line of SKILL.md."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True, slots=True)
class Frontmatter:
    fields: dict[str, Any] | None  # None: no frontmatter block, or one that could not be read
    problem: str | None = None  # why `fields` is None
    body: str = ""  # the Markdown after the closing ---


def split(text: str) -> Frontmatter:
    """The frontmatter of a SKILL.md's text, and its body."""
    match = _BLOCK.match(text)
    if match is None:
        return Frontmatter(None, "SKILL.md does not begin with a --- delimited YAML frontmatter block", text)
    body = text[match.end() :]
    try:
        fields = parse(match.group(1), first_line=2)
    except FrontmatterError as exc:
        return Frontmatter(None, f"its frontmatter is not YAML this reader takes ({exc})", body)
    if not isinstance(fields, dict):
        return Frontmatter(None, "its frontmatter is not a mapping of fields", body)
    return Frontmatter(fields, None, body)


def parse(source: str, *, first_line: int = 1) -> Any:
    """The value of a YAML block (see the module's subset); raises `FrontmatterError`."""
    lines = []
    for number, raw in enumerate(_LINE_BREAK.split(source), first_line):  # YAML's breaks: not U+2028, U+0085
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise FrontmatterError("a tab in the indentation", number)
        stripped = _strip_comment(raw).rstrip()
        lines.append((number, len(raw) - len(raw.lstrip(" ")), stripped.strip(), raw))
    reader = _Reader(lines)
    value = reader.block(0)
    if reader.index < len(reader.lines):
        number = reader.lines[reader.index][0]
        raise FrontmatterError("indentation does not match the lines above", number)
    return value if value is not None else {}


def _strip_comment(line: str) -> str:
    quote = ""
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"" and (index == 0 or line[index - 1] in " :[,-"):
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


class _Reader:
    def __init__(self, lines: list[tuple[int, int, str, str]]) -> None:
        self.lines = lines
        self.index = 0

    def _skip_blank(self) -> None:
        while self.index < len(self.lines) and not self.lines[self.index][2]:
            self.index += 1

    def block(self, indent: int) -> Any:
        self._skip_blank()
        if self.index >= len(self.lines):
            return None
        _number, column, text, _ = self.lines[self.index]
        if column < indent:
            return None
        if text == "-" or text.startswith("- "):
            return self._sequence(column)
        return self._mapping(column)

    def _mapping(self, indent: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while True:
            self._skip_blank()
            if self.index >= len(self.lines):
                return out
            number, column, text, _raw = self.lines[self.index]
            if column < indent:
                return out
            if column > indent:
                raise FrontmatterError("indentation does not match the lines above", number)
            match = _KEY.match(text)
            if match is None:
                raise FrontmatterError(f"expected `key: value`, found {text[:40]!r}", number)
            key = _scalar(match.group(1), number)
            if not isinstance(key, str):
                key = str(key)
            if key in out:
                raise FrontmatterError(f"the key {key!r} appears twice", number)
            rest = match.group(2).strip()
            self.index += 1
            if rest in ("", "|", ">", "|-", ">-", "|+", ">+"):
                if rest:
                    out[key] = self._block_scalar(indent, rest, number)
                else:
                    value = self.block(indent + 1)
                    if value is None and self._sequence_at(indent):
                        value = self._sequence(indent)  # `key:` then `- item` at the key's own column
                    out[key] = value
            else:
                out[key] = _inline(rest, number)

    def _sequence_at(self, indent: int) -> bool:
        self._skip_blank()
        if self.index >= len(self.lines):
            return False
        _, column, text, _ = self.lines[self.index]
        return column == indent and (text == "-" or text.startswith("- "))

    def _sequence(self, indent: int) -> list[Any]:
        out: list[Any] = []
        while self._sequence_at(indent):
            number, _column, text, _ = self.lines[self.index]
            rest = text[1:].strip()
            self.index += 1
            if not rest:
                out.append(self.block(indent + 1))
            elif _KEY.match(rest):
                raise FrontmatterError("a mapping inside a sequence item", number)
            else:
                out.append(_inline(rest, number))
        self._skip_blank()
        if self.index < len(self.lines) and self.lines[self.index][1] > indent:
            raise FrontmatterError("indentation does not match the lines above", self.lines[self.index][0])
        return out

    def _block_scalar(self, indent: int, style: str, number: int) -> str:
        parts: list[str] = []
        own: int | None = None
        while self.index < len(self.lines):
            _, column, text, raw = self.lines[self.index]
            if text and column <= indent:
                break
            if text and own is None:
                own = column
            parts.append(raw[own:] if own is not None and text else "")
            self.index += 1
        while parts and not parts[-1]:
            parts.pop()
        if own is None:
            return ""
        if style[0] == "|":
            value = "\n".join(parts)
        else:
            value = ""
            for part in parts:
                value += ("\n" if not part else (" " if value and not value.endswith("\n") else "")) + part
        return value if style.endswith("-") else value + "\n"


def _inline(text: str, number: int) -> Any:
    if text[0] in "&*!%@`{":
        raise FrontmatterError(f"{text[0]!r} (anchors, tags, flow mappings) is not read", number)
    if text.startswith("["):
        if not text.endswith("]"):
            raise FrontmatterError("a flow sequence that does not end on its line", number)
        inner = text[1:-1].strip()
        return [_scalar(item.strip(), number) for item in _split_flow(inner, number)] if inner else []
    return _scalar(text, number)


def _split_flow(inner: str, number: int) -> list[str]:
    items, quote, current = [], "", ""
    for char in inner:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[]{}":
            raise FrontmatterError("nested flow collections are not read", number)
        elif char == ",":
            items.append(current)
            current = ""
            continue
        current += char
    items.append(current)
    return items


def _scalar(text: str, number: int) -> Any:
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return _double_quoted(text[1:-1], number)
    if text[:1] in ("'", '"'):
        raise FrontmatterError("a quoted value that does not end on its line", number)
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text) and any(c.isdigit() for c in text):
        return float(text)
    if ": " in text or text.endswith(":"):
        raise FrontmatterError(f"a plain value may not hold ': ' ({text[:40]!r}); quote it", number)
    return text


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "/": "/", "0": "\0", "r": "\r", " ": " "}


def _double_quoted(inner: str, number: int) -> str:
    out, index = [], 0
    while index < len(inner):
        char = inner[index]
        if char != "\\":
            out.append(char)
            index += 1
            continue
        code = inner[index + 1 : index + 2]
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
            index += 2
        elif code in ("x", "u", "U"):
            width = {"x": 2, "u": 4, "U": 8}[code]
            digits = inner[index + 2 : index + 2 + width]
            if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise FrontmatterError(f"a bad \\{code} escape", number)
            out.append(chr(int(digits, 16)))
            index += 2 + width
        else:
            raise FrontmatterError(f"an unknown escape \\{code}", number)
    return "".join(out)
