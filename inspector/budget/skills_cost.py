"""What a server's skills cost in a host's context before any is loaded (Skills, SEP-2640).

A host lists the skills it may load by name and description (the model chooses by them, and reads a
skill's SKILL.md only when it loads it), so that text is what every turn carries: one line per skill,
``- name: description``. Counted with the Budget tab's tokenizer and said with its figure's words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from inspector.budget.host_rules import HOSTS, SKILLS_LISTING, HostRule
from inspector.words import counted


def listed_text(entries: Iterable[Any], description_chars: int | None = None) -> str:
    """The skills as a host lists them: ``- name: description`` per entry with a name; each description cut at
    `description_chars` characters when the host cuts them."""
    lines = []
    for entry in entries:
        front = entry.get("frontmatter") if isinstance(entry, dict) else None
        if not isinstance(front, dict) or not isinstance(front.get("name"), str):
            continue
        description = front.get("description") if isinstance(front.get("description"), str) else ""
        description = " ".join(description.split())
        if description_chars is not None:
            description = description[:description_chars]
        lines.append(f"- {front['name']}: {description}")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class SkillsCost:
    skills: int
    tokens: int
    dropped: int = 0  # entries whose URI was listed before: a host lists each skill once


def _distinct(entries: list[Any]) -> list[Any]:
    seen: set[str] = set()
    distinct = []
    for entry in entries:
        uri = entry.get("uri") if isinstance(entry, dict) else None
        if isinstance(uri, str) and uri:
            if uri in seen:
                continue
            seen.add(uri)
        distinct.append(entry)
    return distinct


def skills_cost(entries: list[Any], count: Callable[[str], int]) -> SkillsCost:
    """Each distinct skill (by its SKILL.md URI) counted once."""
    distinct = _distinct(entries)
    text = listed_text(distinct)
    return SkillsCost(text.count("\n") + 1 if text else 0, count(text) if text else 0, len(entries) - len(distinct))


def skills_words(cost: SkillsCost, how: str) -> str:
    """``skills: 2 listed, 41 tokens (names and descriptions as a host lists them; exact (…))``."""
    dropped = f" ({counted(cost.dropped, 'duplicate')} dropped)" if cost.dropped else ""
    return (
        f"skills: {counted(cost.skills, 'skill')} listed{dropped}, {counted(cost.tokens, 'token', grouped=True)} "
        f"(names and descriptions as a host lists them; {how})"
    )


@dataclass(frozen=True, slots=True)
class HostSkillsCost:
    """What the skills cost in one host's view, by its `host_rules.SKILLS_LISTING` rule (None: not known)."""

    host_label: str
    skills: int
    tokens: int
    rule: HostRule | None
    cut: int = 0  # descriptions the host cuts to its cap
    over_budget: int = 0  # tokens past the host's listing budget (a share of the window)
    budget: int = 0

    @property
    def known(self) -> bool:
        return self.rule is not None


def host_skills_cost(entries: list[Any], count: Callable[[str], int], host: str, window: int) -> HostSkillsCost:
    """The skills as `host` loads them (its rule applied), counted; a host whose way is not known counts 0."""
    distinct = _distinct(entries)
    listed = listed_text(distinct)
    skills = listed.count("\n") + 1 if listed else 0  # one line per skill (a name's U+2028 is not a line)
    label = HOSTS[host].label if host in HOSTS else host
    rule = SKILLS_LISTING.get(host)
    if rule is None or not rule.value.get("loads", True):
        return HostSkillsCost(label, skills, 0, rule)
    cap = rule.value.get("description_chars")
    text = listed_text(distinct, cap)
    tokens = count(text) if text else 0
    cut = sum(1 for entry in distinct if cap is not None and len(_description(entry)) > cap)
    share = rule.value.get("window_share")
    budget = int(window * share) if share and window else 0
    return HostSkillsCost(label, skills, tokens, rule, cut, max(0, tokens - budget) if budget else 0, budget)


def _description(entry: Any) -> str:
    front = entry.get("frontmatter") if isinstance(entry, dict) else None
    text = front.get("description") if isinstance(front, dict) else None
    return " ".join(text.split()) if isinstance(text, str) else ""


def host_skills_words(cost: HostSkillsCost, how: str) -> str:
    """The skills figure of a host view, said like the host's tool figure: what, how counted, the rule's status."""
    listed = f"skills: {counted(cost.skills, 'skill')} listed"
    if cost.rule is None:
        return f"{listed}; not known how {cost.host_label} loads a server's skills"
    if not cost.rule.value.get("loads", True):
        status = cost.rule.status
        return f"{listed}, 0 tokens as {cost.host_label} loads them (it loads no skills from a server; {status})"
    notes = []
    if cost.cut:
        notes.append(f"{counted(cost.cut, 'description')} cut at {cost.rule.value['description_chars']:,} characters")
    if cost.over_budget:
        share = f"{cost.rule.value['window_share']:.0%}"
        notes.append(
            f"{counted(cost.over_budget, 'token', grouped=True)} over {cost.host_label}'s listing budget of "
            f"{cost.budget:,} tokens ({share} of the window): it drops descriptions past it"
        )
    notes.extend([how, cost.rule.status])
    tokens = counted(cost.tokens, "token", grouped=True)
    return f"{listed}, {tokens} as {cost.host_label} lists them ({'; '.join(notes)})"
