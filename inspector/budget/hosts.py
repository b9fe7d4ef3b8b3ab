"""A server's tool list as a host sends it: renamed, truncated, capped, deferred; and what that costs.

`host_view` applies a host's rules (`host_rules.HOSTS`) to a raw ``tools/list`` and counts the result
with the caller's `BudgetCounter` in the host's shape. A deferred tool costs its (host) name only; a
tool past the host's cap is not sent. Findings say which rule changed what, with the rule's source and
whether it is confirmed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from inspector.budget.breakdown import OVERHEAD_NOTES, BudgetCounter, BudgetReport, ToolCost
from inspector.budget.host_rules import (
    DEFER_THRESHOLD,
    DESCRIPTION_MAX,
    HOSTS,
    NAME_MAX,
    NAME_PATTERN,
    NAME_PREFIX,
    TOOL_CAP,
    TOOL_SEARCH,
    Host,
    HostRule,
    find_host,
)
from inspector.budget.snapshot import SnapshotDiff, diff_tools

TOOL_SEARCH_MODES = ("on", "auto", "off")
_UNSAFE_SERVER_CHARS = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class HostFinding:
    """One thing a host does to the list. `rule` is the rule behind it (None for the saved/added figure)."""

    kind: str  # name-too-long, name-pattern, description-truncated, over-tool-cap, deferral, host-delta
    severity: str  # error (the host rejects it), warning (the host changes it), info
    message: str
    tool: str | None = None
    rule: HostRule | None = None
    lost_text: str = ""
    lost_tokens: int = 0

    @property
    def status(self) -> str:
        return self.rule.status if self.rule is not None else "measured"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "severity": self.severity,
            "message": self.message,
            "tool": self.tool,
            "status": self.status,
        }
        if self.rule is not None:
            data["rule"] = self.rule.key
            data["source"] = self.rule.source
            data["checked"] = self.rule.checked
        if self.lost_text:
            data["lost_chars"] = len(self.lost_text)
            data["lost_tokens"] = self.lost_tokens
        return data


@dataclass(frozen=True)
class HostTool:
    """One tool of the raw list and what the host makes of it."""

    name: str  # as the server sent it
    host_name: str
    sent: bool  # False: past the host's tool cap
    deferred: bool
    truncated: bool
    cost: ToolCost  # as the host sends it (a deferred tool: its name only; not sent: zero)


@dataclass
class HostView:
    host: Host
    server_name: str
    window: int
    tool_search: str  # the mode applied (Claude Code), "" for hosts without tool search
    tools: list[HostTool]
    sent_tools: list[dict[str, Any]]  # the tools within the cap, renamed and truncated (MCP keys, host names)
    report: BudgetReport  # the host's figure, one row per raw tool
    raw_total: int  # the raw tools/list as sent on the wire
    findings: list[HostFinding] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.report.grand_total

    @property
    def delta(self) -> int:
        """Tokens the host adds (positive) or saves (negative) against the raw ``tools/list``."""
        return self.total - self.raw_total

    def to_json(self) -> dict[str, Any]:
        return {
            "host": self.host.name,
            "host_label": self.host.label,
            "shape": self.host.shape,
            "server": self.server_name,
            "window": self.window,
            "tool_search": self.tool_search or None,
            "total": self.total,
            "raw_total": self.raw_total,
            "delta": self.delta,
            "tools": [
                {
                    "name": t.name,
                    "host_name": t.host_name,
                    "sent": t.sent,
                    "deferred": t.deferred,
                    "truncated": t.truncated,
                    "tokens": t.cost.total,
                }
                for t in self.tools
            ],
            "findings": [f.to_json() for f in self.findings],
            "rules": [r.to_json() for r in self.host.rules],
        }


def host_prefix(host: Host, server_name: str) -> str:
    rule = host.rule(NAME_PREFIX)
    if rule is None:
        return ""
    return str(rule.value).format(server=_UNSAFE_SERVER_CHARS.sub("_", server_name))


def host_tool_name(host: Host, server_name: str, tool_name: Any) -> str:
    """The one name ``host`` gives a server's tool (the tool-name check, host acceptance and the Budget all
    use it): the host's prefix (Claude Code's ``mcp__<server>__``, the server's name cleaned as
    `host_prefix` says) and the tool's name as the server sent it (a host's name rule then judges it)."""
    return host_prefix(host, server_name) + (tool_name if isinstance(tool_name, str) else str(tool_name))


def truncate_utf16(text: str, units: int) -> str:
    """The first ``units`` UTF-16 code units of ``text``, never splitting a surrogate pair."""
    if len(text) <= units // 2:
        return text
    raw = text.encode("utf-16-le", "surrogatepass")  # a server's lone "\ud800" is one code unit, not an error
    if len(raw) <= units * 2:
        return text
    cut = raw[: units * 2]
    if len(cut) >= 2 and 0xD8 <= cut[-1] <= 0xDB:  # never end on the first half of a pair
        cut = cut[:-2]
    return cut.decode("utf-16-le", "surrogatepass")


def _qualifier(rule: HostRule) -> str:
    return "" if rule.confirmed else " (unconfirmed rule)"


def host_view(
    tools: list[dict[str, Any]],
    host: Host | str,
    server_name: str,
    *,
    counter: BudgetCounter,
    window: int = 200_000,
    tool_search: str | None = None,
) -> HostView:
    """The list as ``host`` sends it for a server configured as ``server_name``, counted with ``counter``.

    ``tool_search`` (Claude Code) overrides the host's default mode: ``on`` defers every tool, ``auto``
    loads tools while they fit within the threshold share of ``window``, ``off`` loads all.
    """
    if isinstance(host, str):
        host = HOSTS.get(host) or find_host(host)
    valid = [t for t in tools if isinstance(t, dict)]
    findings: list[HostFinding] = []
    shaped = [_shape_tool(tool, host, server_name, counter, findings) for tool in valid]
    cap_rule = host.rule(TOOL_CAP)
    cap = int(cap_rule.value) if cap_rule is not None else None
    if cap_rule is not None and cap is not None and len(shaped) > cap:
        findings.append(
            HostFinding(
                "over-tool-cap",
                "error" if cap_rule.confirmed else "warning",
                f"{len(shaped)} tools: over {host.label}'s cap of {cap} per request{_qualifier(cap_rule)}; "
                f"{len(shaped) - cap} are not sent here (the last in list order)",
                rule=cap_rule,
            )
        )
    sent_count = len(shaped) if cap is None else min(cap, len(shaped))
    sent = shaped[:sent_count]
    raw_total = counter.report(valid, "mcp").total
    full = counter.report(sent, host.shape)
    mode, loaded_count = _tool_search(host, tool_search, full, window, findings)
    loaded = sent[:loaded_count]
    report = full if loaded_count == len(sent) else (counter.report(loaded, host.shape) if loaded else None)
    costs: list[ToolCost] = []
    entries: list[HostTool] = []
    deferred_total = 0
    for index, (tool, original) in enumerate(zip(shaped, valid, strict=True)):
        truncated = tool.get("description") != original.get("description")
        if index < loaded_count:
            cost = report.tools[index] if report is not None else _zero(tool["name"])
            entries.append(HostTool(str(original.get("name")), tool["name"], True, False, truncated, cost))
        elif index < sent_count:
            tokens = counter.count(str(tool["name"]))
            deferred_total += tokens
            cost = ToolCost(tool["name"], tokens, {"name": tokens}, 0, 0, 0)
            entries.append(HostTool(str(original.get("name")), tool["name"], True, True, truncated, cost))
        else:
            cost = _zero(tool["name"])
            entries.append(HostTool(str(original.get("name")), tool["name"], False, False, truncated, cost))
        costs.append(cost)
    base = report if report is not None else full
    base_note = base.note
    if report is None:  # every tool deferred: no tool-use system prompt is counted, so none is said
        said = (OVERHEAD_NOTES[host.shape], f"+{full.overhead} tokens:")
        base_note = "; ".join(part for part in base.note.split("; ") if part and not part.startswith(said))
    host_report = replace(
        base,
        tools=costs,
        total=(report.total if report is not None else 0) + deferred_total,
        overhead=report.overhead if report is not None else 0,
        note=_note(host, deferred_total > 0, base_note),
    )
    view = HostView(host, server_name, window, mode, entries, sent, host_report, raw_total, findings)
    delta = view.delta
    findings.append(
        HostFinding(
            "host-delta",
            "info",
            f"{host.label} sends {view.total:,} tokens for this list: "
            + (f"{-delta:,} fewer than" if delta < 0 else f"{delta:,} more than" if delta else "the same as")
            + f" the raw tools/list ({raw_total:,})",
        )
    )
    return view


CLAUDE_COUNTER = "claude"  # the tokenizer key of Claude's counter (ctok, reconstructed offline)


def host_encoding(host: Host | str | None, chosen: str | None) -> str | None:
    """The tokenizer a host view counts with: the one ``chosen``, or Claude's counter for a host that sends
    the list to Claude when none is chosen or the chosen one would only be an estimate there (an OpenAI
    encoder, chars ÷ 4). The Budget tab applies it on choosing a host; ``mcp-lens tokens --host`` when no
    --encoding is given."""
    if isinstance(host, str):
        host = HOSTS.get(host) or find_host(host)
    if host is None or host.shape != "anthropic":
        return chosen
    return chosen if chosen in (CLAUDE_COUNTER, "anthropic") else CLAUDE_COUNTER


def host_diff(
    old: list[dict[str, Any]],
    new: list[dict[str, Any]],
    host: Host | str,
    server_name: str,
    *,
    counter: BudgetCounter,
    window: int = 200_000,
    tool_search: str | None = None,
) -> SnapshotDiff:
    """`snapshot.diff_tools` of two lists as ``host`` sends them (names, descriptions, cap applied); the
    totals are the host's figures (deferral included), the per-tool figures the full definitions."""
    before = host_view(old, host, server_name, counter=counter, window=window, tool_search=tool_search)
    after = host_view(new, host, server_name, counter=counter, window=window, tool_search=tool_search)
    diff = diff_tools(before.sent_tools, after.sent_tools, counter, after.host.shape)
    return replace(diff, old_total=before.total, new_total=after.total)


def _zero(name: str) -> ToolCost:
    return ToolCost(name, 0, {}, 0, 0, 0)


def _note(host: Host, deferred: bool, base: str) -> str:
    parts = [f"{host.label} view ({host.shape} shape)"]
    if deferred:
        parts.append("a deferred tool counts its name only")
    base = base.strip("; ")
    if base:
        parts.append(base)
    return "; ".join(parts)


def _shape_tool(
    tool: dict[str, Any], host: Host, server_name: str, counter: BudgetCounter, findings: list[HostFinding]
) -> dict[str, Any]:
    """The tool with the host's name and description; findings for the name and the description."""
    original = tool.get("name")
    name = host_tool_name(host, server_name, original)
    prefix = host_prefix(host, server_name)
    out = dict(tool)
    out["name"] = name
    max_rule = host.rule(NAME_MAX)
    if max_rule is not None and len(name) > int(max_rule.value):
        findings.append(
            HostFinding(
                "name-too-long",
                "error",
                f"{name!r} is {len(name)} characters: over {host.label}'s {max_rule.value}"
                + (f" once prefixed with {prefix!r}" if prefix else "")
                + f"; the host's request fails{_qualifier(max_rule)}",
                tool=str(original),
                rule=max_rule,
            )
        )
    pattern_rule = host.rule(NAME_PATTERN)
    if pattern_rule is not None and not re.match(str(pattern_rule.value), name):
        findings.append(
            HostFinding(
                "name-pattern",
                "error",
                f"{name!r} breaks {host.label}'s name rule {pattern_rule.value}{_qualifier(pattern_rule)}",
                tool=str(original),
                rule=pattern_rule,
            )
        )
    description = tool.get("description")
    cut_rule = host.rule(DESCRIPTION_MAX)
    if cut_rule is not None and isinstance(description, str):
        kept = truncate_utf16(description, int(cut_rule.value))
        if kept != description:
            lost = description[len(kept) :]
            lost_tokens = counter.count(lost)
            out["description"] = kept
            findings.append(
                HostFinding(
                    "description-truncated",
                    "warning",
                    f"{original!r}: {host.label} cuts the description at {int(cut_rule.value):,} characters"
                    f"{_qualifier(cut_rule)}; {len(lost):,} characters ({lost_tokens:,} tokens) are lost, "
                    f"from: {lost[:60]!r}",
                    tool=str(original),
                    rule=cut_rule,
                    lost_text=lost,
                    lost_tokens=lost_tokens,
                )
            )
    return out


def _tool_search(
    host: Host, override: str | None, full: BudgetReport, window: int, findings: list[HostFinding]
) -> tuple[str, int]:
    """The tool-search mode applied and how many of the sent tools load upfront."""
    count = len(full.tools)
    mode_rule = host.rule(TOOL_SEARCH)
    if mode_rule is None:
        return "", count
    mode = override or str(mode_rule.value)
    if mode not in TOOL_SEARCH_MODES:
        raise ValueError(f"tool search mode {mode!r}; choose one of {', '.join(TOOL_SEARCH_MODES)}")
    threshold_rule = host.rule(DEFER_THRESHOLD)
    share = float(threshold_rule.value) if threshold_rule is not None else 0.10
    limit = int(window * share)
    crosses = full.grand_total > limit
    share_text = f"{full.share(window) * 100:.1f}%"
    where = f"{full.grand_total:,} tokens of tool definitions = {share_text} of a {window:,}-token window"
    if threshold_rule is not None:
        findings.append(
            HostFinding(
                "deferral",
                "warning" if crosses else "info",
                f"{where}: {'over' if crosses else 'within'} the {share * 100:g}% threshold of ENABLE_TOOL_SEARCH=auto "
                f"({limit:,} tokens)"
                + (", so auto mode defers the overflow" if crosses else ", so auto mode loads them upfront"),
                rule=threshold_rule,
            )
        )
    if mode == "off":
        return mode, count
    if mode == "on":
        findings.append(
            HostFinding(
                "deferral",
                "info",
                f"tool search is on (the default): every tool is deferred and only its name loads; "
                f"the full definitions ({full.grand_total:,} tokens) load when Claude searches for them",
                rule=mode_rule,
            )
        )
        return mode, 0
    if not crosses:
        return mode, count
    running = full.overhead
    loaded = 0
    for cost in full.tools:
        if running + cost.total > limit:
            break
        running += cost.total
        loaded += 1
    return mode, loaded
