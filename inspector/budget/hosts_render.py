"""Host views and the host rules table as text, JSON, CSV and Markdown (``mcp-lens tokens --host …``).

Server strings are printed through `render.safe` (control characters escaped), Markdown cells with their
pipes escaped.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from inspector.budget.host_rules import HOSTS, Host
from inspector.budget.hosts import HostTool, HostView
from inspector.budget.render import change_lines, safe
from inspector.budget.snapshot import SnapshotDiff
from inspector.budget.tokenizers import describe_figure


def tool_state(tool: HostTool) -> str:
    """``loaded``, ``deferred`` or ``not sent`` (past the cap), plus ``, truncated``."""
    state = "not sent" if not tool.sent else "deferred" if tool.deferred else "loaded"
    return state + (", truncated" if tool.truncated else "")


def _delta(view: HostView) -> str:
    delta = view.delta
    if delta == 0:
        return "the same as the raw tools/list"
    return f"{abs(delta):,} {'fewer' if delta < 0 else 'more'} than the raw tools/list ({view.raw_total:,})"


def render_host_text(
    view: HostView, *, window_label: str, tokenizer_label: str, diff: SnapshotDiff | None = None, baseline: str = ""
) -> str:
    count = len(view.tools)
    search = f" · tool search {view.tool_search}" if view.tool_search else ""
    lines = [
        f"{safe(view.server_name)} — {count} tool{'s' if count != 1 else ''} as {view.host.label} sends them · "
        f"{view.host.shape} shape · {describe_figure(view.report)[1]}{search}",
        f"  {'tokens':>8}  {'state':<20} host name",
    ]
    for tool in view.tools:
        lines.append(f"  {tool.cost.total:>8,}  {tool_state(tool):<20} {safe(tool.host_name)}")
    report = view.report
    overhead = f" + {report.overhead:,} overhead = {view.total:,}" if report.overhead else ""
    lines.append(
        f"  total {report.total:,} tokens{overhead} · "
        f"{report.share(view.window) * 100:.1f}% of {window_label} · {_delta(view)}"
    )
    if report.note:
        lines.append(f"  note: {report.note}")
    lines.append("")
    lines.append(f"findings ({len(view.findings)}):")
    for finding in view.findings:
        lines.append(f"  {finding.severity:<7} {finding.kind:<22} [{finding.status}] {safe(finding.message)}")
    lines.append("")
    lines.extend(_rules_text(view.host))
    if diff is not None:
        lines.append("")
        lines.append(
            f"diff against {safe(baseline)} ({view.host.label} view): {diff.old_total:,} → {diff.new_total:,} "
            f"tokens ({diff.new_total - diff.old_total:+,})" + (" · BREAKING" if diff.breaking else "")
        )
        lines.extend(change_lines(diff))
    return "\n".join(lines).rstrip("\n") + "\n"


def _rules_text(host: Host) -> list[str]:
    lines = [f"{host.label} rules (checked {host.rules[0].checked if host.rules else '-'}):"]
    for rule in host.rules:
        lines.append(f"  {rule.key:<16} {rule.value!s:<24} {rule.status:<11} {rule.summary}")
        lines.append(f"  {'':<16} source: {rule.source}")
        if rule.note:
            lines.append(f"  {'':<16} note: {rule.note}")
    if host.note:
        lines.append(f"  ({host.note})")
    return lines


def render_host_json(
    view: HostView, *, window_label: str, tokenizer_label: str, diff: SnapshotDiff | None = None, baseline: str = ""
) -> str:
    out: dict[str, Any] = view.to_json()
    out["tokenizer"] = view.report.tokenizer
    out["tokenizer_label"] = tokenizer_label
    out["exact"], out["figure_words"] = describe_figure(view.report)  # the Budget tab's words, the same rule
    out["figure"] = view.report.figure
    out["note"] = view.report.note
    out["share"] = view.report.share(view.window)
    if diff is not None:
        out["diff"] = {"baseline": baseline, **diff.to_json()}
    return json.dumps(out, ensure_ascii=False, indent=2) + "\n"


def render_host_csv(view: HostView, **_: Any) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["host", "tool", "host_name", "state", "tokens"])
    for tool in view.tools:
        writer.writerow([view.host.name, tool.name, tool.host_name, tool_state(tool), tool.cost.total])
    writer.writerow([view.host.name, "", "", "total", view.total])
    return buffer.getvalue()


def _cell(text: Any) -> str:
    return safe(text).replace("|", "\\|")


def render_host_markdown(view: HostView, *, window_label: str, tokenizer_label: str, **_: Any) -> str:
    lines = [
        f"**{_cell(view.server_name)}** as {view.host.label} sends it: {view.total:,} tokens "
        f"({_delta(view)}) · {describe_figure(view.report)[1]}",
        "",
        "| tokens | state | host name |",
        "| ---: | --- | --- |",
    ]
    lines.extend(f"| {t.cost.total:,} | {tool_state(t)} | `{_cell(t.host_name)}` |" for t in view.tools)
    lines.append("")
    lines.extend(f"- {f.severity} ({f.status}): {_cell(f.message)}" for f in view.findings)
    return "\n".join(lines) + "\n"


HOST_RENDERERS = {
    "text": render_host_text,
    "json": render_host_json,
    "csv": render_host_csv,
    "markdown": render_host_markdown,
}


def render_host_table(fmt: str) -> str:
    """``--host list``: every host and its rules with their sources."""
    if fmt == "json":
        return json.dumps([h.to_json() for h in HOSTS.values()], ensure_ascii=False, indent=2) + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["host", "label", "shape", "rule", "value", "status", "summary", "source", "checked", "note"])
        for host in HOSTS.values():
            for r in host.rules:
                row = [host.name, host.label, host.shape, r.key, r.value, r.status, r.summary, r.source, r.checked]
                writer.writerow([*row, r.note])
        return buffer.getvalue()
    lines: list[str] = []
    for host in HOSTS.values():
        lines.append(f"{host.name} ({host.label}, {host.shape} shape)")
        lines.extend(_rules_text(host)[1:])
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
