"""Will host X accept this tool? A verdict per tool and host, each reason naming the rule it came from.

A tool is *accepted* as it is, *changed* (the host cuts it and sends the rest) or *refused* (the
host's request fails, or the host does not offer the tool). The rules are data (`host_rules.HOSTS`, each with its
source, the date checked and whether it is confirmed); `RULE_CHECKS` maps a rule's key to the one function that
applies it, so no host is special-cased here. A host's usual naming (Claude Code's ``mcp__server__`` prefix) is
said as the name the host gives the tool, not counted as a change. No Qt.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from inspector.budget.host_rules import (
    DESCRIPTION_LIMIT,
    DESCRIPTION_MAX,
    HOSTS,
    NAME_MAX,
    NAME_PATTERN,
    SCHEMA_FIELDS,
    SCHEMA_REFUSED,
    SCHEMA_ROOT,
    SCHEMA_SINGLE_TYPE,
    STRICT_CLOSED,
    STRICT_REQUIRED,
    TOOL_CAP,
    Host,
    HostRule,
    find_host,
)
from inspector.budget.hosts import host_tool_name, truncate_utf16
from inspector.words import counted

ACCEPTED, CHANGED, REFUSED = "accepted", "changed", "refused"
OUTCOMES = (ACCEPTED, CHANGED, REFUSED)
MAX_NODES = 5_000  # schema nodes walked per tool: a hostile schema costs no more than this
PATHS_SHOWN = 3


@dataclass(frozen=True)
class Reason:
    """One rule's effect on one tool: ``outcome`` is changed or refused; ``message`` says how or why."""

    outcome: str
    rule: HostRule
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "message": self.message,
            "rule": self.rule.key,
            "summary": self.rule.summary,
            "status": self.rule.status,
            "source": self.rule.source,
            "checked": self.rule.checked,
        }


@dataclass(frozen=True)
class Verdict:
    tool: str  # as the server names it
    host_name: str  # as the host names it
    reasons: tuple[Reason, ...]

    @property
    def outcome(self) -> str:
        found = {r.outcome for r in self.reasons}
        return REFUSED if REFUSED in found else CHANGED if CHANGED in found else ACCEPTED

    def summary(self) -> str:
        """One line: "accepted as is", "changed: …" or "refused: …" (the reasons of the verdict's outcome)."""
        outcome = self.outcome
        named = f" (named {self.host_name})" if self.host_name != self.tool else ""
        if outcome == ACCEPTED:
            return f"accepted as is{named}"
        told = "; ".join(
            r.message + ("" if r.rule.confirmed else " (unconfirmed rule)")
            for r in self.reasons
            if r.outcome == outcome
        )
        return f"{outcome}{named}: {told}"

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": self.tool,
            "host_name": self.host_name,
            "verdict": self.outcome,
            "summary": self.summary(),
            "reasons": [r.to_json() for r in self.reasons],
        }


@dataclass(frozen=True)
class HostAcceptance:
    host: Host
    server_name: str
    verdicts: tuple[Verdict, ...]

    def counts(self) -> dict[str, int]:
        return {o: sum(1 for v in self.verdicts if v.outcome == o) for o in OUTCOMES}

    def refused(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.outcome == REFUSED]

    def verdict(self, tool: str) -> Verdict | None:
        return next((v for v in self.verdicts if v.tool == tool), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "host": self.host.name,
            "host_label": self.host.label,
            "server": self.server_name,
            "counts": self.counts(),
            "tools": [v.to_json() for v in self.verdicts],
            "rules": [r.to_json() for r in self.host.rules if r.key in RULE_CHECKS],
        }


@dataclass
class ToolAt:
    """What a rule sees: the tool, the name the host gives it, its place in the list and the list's length."""

    tool: dict[str, Any]
    host_name: str
    index: int
    count: int
    host: Host

    @property
    def schema(self) -> Any:
        return self.tool.get("inputSchema")

    @cached_property
    def nodes(self) -> list[tuple[str, dict[str, Any]]]:
        """`schema_nodes` of the input schema, walked once for all the rules."""
        return list(schema_nodes(self.schema))


def acceptance(tools: list[Any], host: Host | str, server_name: str = "server") -> HostAcceptance:
    """Every tool of a raw ``tools/list`` judged by ``host``'s rules, for a server the host calls ``server_name``."""
    judge = Judge(tools, host, server_name)
    return HostAcceptance(judge.host, server_name, tuple(judge.verdict(i) for i in range(len(judge.tools))))


class Judge:
    """``host``'s verdicts on a list one tool at a time (`verdict(index)`), for callers that spread the work
    (the Tools tab judges a long list a slice per event-loop turn). ``tools`` keeps only the objects."""

    def __init__(self, tools: list[Any], host: Host | str, server_name: str = "server") -> None:
        self.host = host if isinstance(host, Host) else HOSTS.get(host) or find_host(host)
        self.tools = [t for t in tools if isinstance(t, dict)]
        self.server_name = server_name
        self.rules = [(rule, RULE_CHECKS[rule.key]) for rule in self.host.rules if rule.key in RULE_CHECKS]

    def verdict(self, index: int) -> Verdict:
        tool = self.tools[index]
        name = tool.get("name")
        name = name if isinstance(name, str) else str(name)
        at = ToolAt(tool, host_tool_name(self.host, self.server_name, name), index, len(self.tools), self.host)
        return Verdict(name, at.host_name, tuple(r for rule, check in self.rules for r in check(at, rule)))


# The rules, one function per key -------------------------------------------------------------------------------


def _name_pattern(at: ToolAt, rule: HostRule) -> list[Reason]:
    if not isinstance(at.tool.get("name"), str) or not at.tool["name"]:
        return [Reason(REFUSED, rule, "the tool has no name (a string)")]
    if re.match(str(rule.value), at.host_name):
        return []
    return [Reason(REFUSED, rule, f"the name {at.host_name!r} does not match {rule.value}")]


def _name_max(at: ToolAt, rule: HostRule) -> list[Reason]:
    if len(at.host_name) <= int(rule.value):
        return []
    return [Reason(REFUSED, rule, f"the name {at.host_name!r} is {len(at.host_name)} characters, over {rule.value}")]


def _description_cut(at: ToolAt, rule: HostRule) -> list[Reason]:
    text = at.tool.get("description")
    if not isinstance(text, str):
        return []
    kept = truncate_utf16(text, int(rule.value))
    if kept == text:
        return []
    lost = len(text) - len(kept)
    return [Reason(CHANGED, rule, f"description cut at {int(rule.value):,} characters ({lost:,} lost)")]


def _description_limit(at: ToolAt, rule: HostRule) -> list[Reason]:
    text = at.tool.get("description")
    if not isinstance(text, str) or len(text) <= int(rule.value):
        return []
    return [Reason(REFUSED, rule, f"description is {len(text):,} characters, over {int(rule.value):,}")]


def _tool_cap(at: ToolAt, rule: HostRule) -> list[Reason]:
    cap = int(rule.value)
    if at.index < cap:
        return []
    return [Reason(REFUSED, rule, f"tool {at.index + 1:,} of {at.count:,}: past the cap of {cap} tools, not sent")]


def _schema_root(at: ToolAt, rule: HostRule) -> list[Reason]:
    schema = at.schema
    if not isinstance(schema, dict):
        return [Reason(REFUSED, rule, "the input schema is not an object")]
    reasons = []
    if "type" not in schema:
        reasons.append(Reason(REFUSED, rule, "the input schema has no type at its root (it must be 'object')"))
    elif schema["type"] != "object":
        reasons.append(Reason(REFUSED, rule, f"the input schema's root type is {schema['type']!r}, not 'object'"))
    there = [k for k in rule.value if k in schema]
    if there:
        reasons.append(Reason(REFUSED, rule, f"{_words(there)} at the root of the input schema"))
    return reasons


def _schema_fields(at: ToolAt, rule: HostRule) -> list[Reason]:
    allowed = set(rule.value)
    return _keyword_reasons(at, rule, lambda key: key not in allowed, "outside the schema subset")


def _schema_refused(at: ToolAt, rule: HostRule) -> list[Reason]:
    refused = set(rule.value)
    return _keyword_reasons(at, rule, lambda key: key in refused, "not supported")


def _single_type(at: ToolAt, rule: HostRule) -> list[Reason]:
    paths = [path for path, node in at.nodes if isinstance(node.get("type"), list)]
    if not paths:
        return []
    return [Reason(REFUSED, rule, f"a list of types at {_paths(paths)}")]


def _strict_closed(at: ToolAt, rule: HostRule) -> list[Reason]:
    paths = [p for p, node in at.nodes if _is_object(node) and node.get("additionalProperties") is not False]
    if not paths:
        return []
    return [Reason(REFUSED, rule, f"additionalProperties is not false at {_paths(paths)}")]


def _strict_required(at: ToolAt, rule: HostRule) -> list[Reason]:
    missing = []
    for path, node in at.nodes:
        props = node.get("properties")
        if not isinstance(props, dict):
            continue
        required = node.get("required") if isinstance(node.get("required"), list) else []
        missing += [f"{path}.properties.{name}" for name in props if name not in required]
    if not missing:
        return []
    return [Reason(REFUSED, rule, f"{counted(len(missing), 'optional property')}: {_paths(missing)} (not in required)")]


Check = Callable[[ToolAt, HostRule], list[Reason]]

RULE_CHECKS: dict[str, Check] = {
    NAME_PATTERN: _name_pattern,
    NAME_MAX: _name_max,
    DESCRIPTION_MAX: _description_cut,
    DESCRIPTION_LIMIT: _description_limit,
    TOOL_CAP: _tool_cap,
    SCHEMA_ROOT: _schema_root,
    SCHEMA_FIELDS: _schema_fields,
    SCHEMA_REFUSED: _schema_refused,
    SCHEMA_SINGLE_TYPE: _single_type,
    STRICT_CLOSED: _strict_closed,
    STRICT_REQUIRED: _strict_required,
}


# Walking a schema ----------------------------------------------------------------------------------------------

_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_ONE = (
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
)
_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
# keyword → how its value holds subschemas: a map of them, one, a list of them ("items": one or a list)
_CHILDREN = {
    **dict.fromkeys(_MAPS, "map"),
    **dict.fromkeys(_ONE, "one"),
    **dict.fromkeys(_LISTS, "list"),
    "items": "any",
}


def schema_nodes(schema: Any, path: str = "inputSchema") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in ``schema`` with its path, breadth first (at most `MAX_NODES`); ``$ref`` targets are
    reached through ``$defs``/``definitions``, where they live."""
    queue: deque[tuple[str, Any]] = deque([(path, schema)])
    seen = 0
    while queue and seen < MAX_NODES:
        where, node = queue.popleft()
        if not isinstance(node, dict):
            continue
        seen += 1
        yield where, node
        for key, value in node.items():  # a node's own keys: a few, where the keywords above are many
            kind = _CHILDREN.get(key)
            if kind is None:
                continue
            if isinstance(value, dict) and kind != "list":
                if kind == "map":
                    queue.extend((f"{where}.{key}.{name}", sub) for name, sub in value.items())
                else:
                    queue.append((f"{where}.{key}", value))
            elif isinstance(value, list) and kind in ("list", "any"):
                queue.extend((f"{where}.{key}[{i}]", sub) for i, sub in enumerate(value))


def _keyword_reasons(at: ToolAt, rule: HostRule, bad: Callable[[str], bool], why: str) -> list[Reason]:
    where: dict[str, list[str]] = {}
    for path, node in at.nodes:
        for key in node:
            if bad(key):
                where.setdefault(key, []).append(path)
    return [Reason(REFUSED, rule, f"{key!r} at {_paths(paths)} ({why})") for key, paths in where.items()]


def _is_object(node: dict[str, Any]) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or isinstance(node.get("properties"), dict)


def _paths(paths: list[str]) -> str:
    shown = ", ".join(paths[:PATHS_SHOWN])
    return shown + (f" and {len(paths) - PATHS_SHOWN:,} more" if len(paths) > PATHS_SHOWN else "")


def _words(keys: list[str]) -> str:
    return ", ".join(repr(k) for k in keys)
