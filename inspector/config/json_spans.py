"""Where each value of a JSON/JSONC text sits: a small scanner that keeps character offsets.

Editing a host's config by re-serialising it would lose its comments, key order and layout. This
scanner parses the text (comments and trailing commas allowed, as VS Code does) into `Node`s that
remember their `start`/`end` offsets, so a caller can replace one value's characters and nothing
else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

_WS = " \t\r\n"


@dataclass
class Node:
    """One JSON value: `text[start:end]` is exactly its source."""

    kind: str  # "object", "array", "string", "number" or "literal"
    start: int
    end: int
    members: list[Member] = field(default_factory=list)  # objects: in source order
    items: list[Node] = field(default_factory=list)  # arrays

    def get(self, key: str) -> Node | None:
        """The value of the last member named `key` (as `json.loads` keeps the last duplicate)."""
        found = [m.value for m in self.members if m.key == key]
        return found[-1] if found else None

    def member(self, key: str) -> Member | None:
        found = [m for m in self.members if m.key == key]
        return found[-1] if found else None

    def keys(self) -> Iterator[str]:
        return (m.key for m in self.members)


@dataclass
class Member:
    """`"key": value` inside an object; `key_start` is the offset of the key's opening quote."""

    key: str
    key_start: int
    value: Node


class SpanError(ValueError):
    """The text is not JSON/JSONC; the message says the line and column."""


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based line and column of offset `pos`."""
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def parse(text: str) -> Node:
    """Scan a whole JSON/JSONC document (a leading BOM is skipped); `SpanError` if it is not one."""
    scanner = _Scanner(text)
    scanner.pos = 1 if text.startswith("\ufeff") else 0
    node = scanner.value()
    scanner.skip()
    if scanner.pos != len(text):
        scanner.fail("unexpected text after the top-level value")
    return node


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, message: str, pos: int | None = None) -> None:
        line, col = line_col(self.text, self.pos if pos is None else pos)
        raise SpanError(f"{message} at line {line}, column {col}")

    def skip(self) -> None:
        """Whitespace and comments."""
        text, n = self.text, len(self.text)
        while self.pos < n:
            c = text[self.pos]
            if c in _WS:
                self.pos += 1
            elif text.startswith("//", self.pos):
                while self.pos < n and text[self.pos] not in "\r\n":
                    self.pos += 1
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                if end < 0:
                    self.fail("unterminated /* comment")
                self.pos = end + 2
            else:
                return

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def value(self) -> Node:
        c = self.peek()
        if c == "{":
            return self.object()
        if c == "[":
            return self.array()
        if c == '"':
            start = self.pos
            self.string()
            return Node("string", start, self.pos)
        return self.scalar()

    def string(self) -> str:
        start, text, n = self.pos, self.text, len(self.text)
        self.pos += 1
        while self.pos < n:
            c = text[self.pos]
            if c == "\\":
                self.pos += 2
            elif c == '"':
                self.pos += 1
                try:
                    return json.loads(text[start : self.pos])
                except ValueError:
                    self.fail("invalid string", start)
            elif c in "\r\n":
                break
            else:
                self.pos += 1
        self.fail("unterminated string", start)
        return ""  # unreachable

    def scalar(self) -> Node:
        start, text, n = self.pos, self.text, len(self.text)
        while self.pos < n and text[self.pos] not in _WS + ",]}/":
            self.pos += 1
        raw = text[start : self.pos]
        if not raw:
            self.fail("expected a value")
        if raw in ("true", "false", "null"):
            return Node("literal", start, self.pos)
        try:
            float(raw)
            json.loads(raw)
        except ValueError:
            self.fail(f"unexpected {raw[:20]!r}", start)
        return Node("number", start, self.pos)

    def object(self) -> Node:
        node = Node("object", self.pos, -1)
        self.pos += 1
        while True:
            c = self.peek()
            if c == "}":
                break
            if c != '"':
                self.fail("expected a key in quotes or '}'")
            key_start = self.pos
            key = self.string()
            if self.peek() != ":":
                self.fail("expected ':' after a key")
            self.pos += 1
            node.members.append(Member(key, key_start, self.value()))
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c != "}":
                self.fail("expected ',' or '}'")
        self.pos += 1
        node.end = self.pos
        return node

    def array(self) -> Node:
        node = Node("array", self.pos, -1)
        self.pos += 1
        while True:
            if self.peek() == "]":
                break
            node.items.append(self.value())
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c != "]":
                self.fail("expected ',' or ']'")
        self.pos += 1
        node.end = self.pos
        return node
