"""What a server's skills cost in a host's context before any is loaded (Skills, SEP-2640).

A host lists the skills it may load by name and description (the model chooses by them, and reads a
skill's SKILL.md only when it loads it), so that text is what every turn carries: one line per skill,
``- name: description``. Counted with the Budget tab's tokenizer and said with its figure's words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from inspector.words import counted


def listed_text(entries: Iterable[Any]) -> str:
    """The skills as a host lists them: ``- name: description`` per entry with a name."""
    lines = []
    for entry in entries:
        front = entry.get("frontmatter") if isinstance(entry, dict) else None
        if not isinstance(front, dict) or not isinstance(front.get("name"), str):
            continue
        description = front.get("description") if isinstance(front.get("description"), str) else ""
        lines.append(f"- {front['name']}: {' '.join(description.split())}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class SkillsCost:
    skills: int
    tokens: int
    dropped: int = 0  # entries whose URI was listed before: a host lists each skill once


def skills_cost(entries: list[Any], count: Callable[[str], int]) -> SkillsCost:
    """Each distinct skill (by its SKILL.md URI) counted once."""
    seen: set[str] = set()
    distinct = []
    for entry in entries:
        uri = entry.get("uri") if isinstance(entry, dict) else None
        if isinstance(uri, str) and uri:
            if uri in seen:
                continue
            seen.add(uri)
        distinct.append(entry)
    text = listed_text(distinct)
    return SkillsCost(text.count("\n") + 1 if text else 0, count(text) if text else 0, len(entries) - len(distinct))


def skills_words(cost: SkillsCost, how: str) -> str:
    """``skills: 2 listed, 41 tokens (names and descriptions as a host lists them; exact (…))``."""
    dropped = f" ({counted(cost.dropped, 'duplicate')} dropped)" if cost.dropped else ""
    return (
        f"skills: {counted(cost.skills, 'skill')} listed{dropped}, {counted(cost.tokens, 'token', grouped=True)} "
        f"(names and descriptions as a host lists them; {how})"
    )
