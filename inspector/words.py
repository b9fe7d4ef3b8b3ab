"""Counted nouns said properly: "1 tool", "2 tools", "1 entry", "3 entries" (never "1 tools" or "tool(s)")."""

from __future__ import annotations

IRREGULAR = {"entry": "entries", "child": "children", "process": "processes", "match": "matches"}


def plural(noun: str) -> str:
    """The plural of `noun` (its last word): the irregular ones above, else -y → -ies, else + s."""
    head, _, last = noun.rpartition(" ")
    if last in IRREGULAR:
        word = IRREGULAR[last]
    elif last.endswith("y") and last[-2:-1] not in "aeiou":
        word = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        word = last + "es"
    else:
        word = last + "s"
    return f"{head} {word}" if head else word


def counted(count: int, noun: str, many: str | None = None, *, grouped: bool = False) -> str:
    """`count` and `noun`, plural unless the count is one: counted(1, "tool") == "1 tool"; `many` gives an
    irregular plural; `grouped` writes 12,345."""
    number = f"{count:,}" if grouped else str(count)
    return f"{number} {noun if count == 1 else many or plural(noun)}"


def noun(count: int, word: str, many: str | None = None) -> str:
    """`word` as `count` of it is said, without the number: noun(1, "field") == "field", noun(2, …) "fields"."""
    return word if count == 1 else many or plural(word)


def first_line(text: str) -> str:
    """The first line of a message MCP Lens wrote, cut at a newline only: ``str.splitlines`` also cuts at CR,
    U+2028, U+0085 and other separators, which inside a server's name or message are its text (shown as escapes),
    so ``GitHub\\r(anything)`` would read "GitHub"."""
    return text.split("\n", 1)[0]
