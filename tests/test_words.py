"""Counted nouns: no "1 tools", no "problem(s)"; and no "(s)" left in the app's own messages."""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

from inspector.words import counted

PACKAGE = Path(__file__).resolve().parents[1] / "inspector"
OPTIONAL_PLURAL = re.compile(r"[a-z]\(s\)(?!:)")  # "tool(s)", not "http(s)://"


def test_one_and_many() -> None:
    assert counted(1, "tool") == "1 tool"
    assert counted(0, "tool") == "0 tools"
    assert counted(2, "entry") == "2 entries"
    assert counted(3, "server change") == "3 server changes"
    assert counted(2, "day") == "2 days"
    assert counted(12345, "line", grouped=True) == "12,345 lines"
    assert counted(2, "child", "children") == "2 children"


def messages(path: Path) -> list[tuple[int, str]]:
    """The string literals of a source file (an f-string's text parts), docstrings left out."""
    found = []
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type in (tokenize.STRING, tokenize.FSTRING_MIDDLE) and not token.string.startswith('"""'):
                found.append((token.start[0], token.string))
    return found


def test_no_word_with_an_optional_plural_in_the_app() -> None:
    found = [
        f"{path.relative_to(PACKAGE)}:{number}: {text.strip()[:120]}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for number, text in messages(path)
        if OPTIONAL_PLURAL.search(text)
    ]
    assert not found, "\n".join(found)


COUNTED_NOUN = re.compile(r"^ (tools|entries|servers|calls|rows|items|findings|lines|checks|steps|roots|pages)\b")


def fstring_parts_after_a_value(path: Path) -> list[tuple[int, str]]:
    """The text parts of f-strings that follow a replacement field: "{n} tools" gives " tools"."""
    found, previous = [], None
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type == tokenize.FSTRING_MIDDLE and previous is not None and previous.string == "}":
                found.append((token.start[0], token.string))
            previous = token
    return found


def test_no_count_followed_by_a_fixed_plural() -> None:
    """ "{n} tools" reads "1 tools" for one: `counted(n, "tool")` says it."""
    found = [
        f"{path.relative_to(PACKAGE)}:{number}: {text.strip()[:80]}"
        for path in sorted((PACKAGE / "ui").rglob("*.py"))
        for number, text in fstring_parts_after_a_value(path)
        if COUNTED_NOUN.search(text)
    ]
    assert not found, "\n".join(found)
