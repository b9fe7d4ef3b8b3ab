"""Budget reports as text, JSON, CSV and Markdown (``mcp-lens tokens --format …``).

Everything here is plain text built from untrusted server strings: names and descriptions are printed
as they are, with control characters escaped so a hostile name cannot move the terminal cursor, and
Markdown table cells have their pipes escaped.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from inspector.budget.breakdown import PARTS, BudgetReport
from inspector.budget.lints import Lint
from inspector.budget.snapshot import SnapshotDiff
from inspector.budget.tokenizers import figure_label

SHAPE_NAMES = {"mcp": "MCP tools/list", "openai": "OpenAI tools", "anthropic": "Anthropic tools"}


@dataclass
class RenderInput:
    server: str
    source: str
    reports: list[BudgetReport]
    window: int
    window_label: str
    lints: bool = True
    diff: SnapshotDiff | None = None
    baseline: str = ""  # a description of the baseline (file, server, date)
    comparison: Any = None  # calibration.Comparison: count_tokens beside ctok (--anthropic-api)


def figure(report: BudgetReport) -> str:
    """What the report's figures are: exact, reconstructed, estimate, count_tokens API or calibrated."""
    return report.figure or ("exact" if report.exact else "estimate")


def safe(text: Any) -> str:
    """Printable one-line text: control characters (ANSI escapes, newlines) shown escaped."""
    value = str(text)
    if value.isprintable():
        return value
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in value)


def _pct(value: float) -> str:
    return f"{value * 100:.1f}%" if value < 10 else f"{value * 100:,.0f}%"


def _signed(n: int) -> str:
    return f"{n:+,}"


def _growth(diff: SnapshotDiff) -> str:
    return "n/a" if diff.old_total == 0 else f"{diff.growth() * 100:+.1f}%"


def _lints(reports: list[BudgetReport]) -> list[Lint]:
    return reports[0].lints if reports else []


# --------------------------------------------------------------------------------------------- text


def render_text(data: RenderInput) -> str:
    lines: list[str] = []
    for report in data.reports:
        count = len(report.tools)
        lines.append(
            f"{safe(data.server)} — {count} tool{'s' if count != 1 else ''} · {SHAPE_NAMES[report.shape]} · "
            f"{figure_label(report)}"
        )
        width = max([4, *(len(safe(t.name)) for t in report.tools)])
        width = min(width, 48)
        tools = sorted(report.tools, key=lambda t: -t.total)
        figures = [
            (f"{t.total:,}", f"{t.description_tokens:,}", f"{t.schema_tokens:,}", f"{t.rest_tokens:,}") for t in tools
        ]
        titles = ("tokens", "descr", "schema", "rest")
        widths = [
            max([minimum, len(title), *(len(row[i]) for row in figures)])
            for i, (title, minimum) in enumerate(zip(titles, (8, 7, 7, 6), strict=True))
        ]  # each column as wide as its widest figure
        lines.append("  " + " ".join(f"{title:>{w}}" for title, w in zip(titles, widths, strict=True)) + "  tool")
        for tool, row in zip(tools, figures, strict=True):
            cells = " ".join(f"{cell:>{w}}" for cell, w in zip(row, widths, strict=True))
            lines.append(f"  {cells}  {safe(tool.name)[:width]}")
        overhead = f" + {report.overhead:,} overhead = {report.grand_total:,}" if report.overhead else ""
        lines.append(
            f"  total {report.total:,} tokens{overhead} · {_pct(report.share(data.window))} of {data.window_label}"
            f" · {figure(report)}"
        )
        if report.note:
            lines.append(f"  note: {report.note}")
        lines.append("")
    if data.comparison is not None:
        lines.append(f"Claude: {data.comparison.describe()}")
        lines.append("")
    if data.lints:
        lints = _lints(data.reports)
        lines.append(f"lints ({len(lints)})" + (":" if lints else ": none"))
        for lint in lints:
            where = f"{safe(lint.tool)}: " if lint.tool else ""
            lines.append(f"  {lint.severity:<7} {lint.code:<27} {where}{safe(lint.message)}")
        lines.append("")
    if data.diff is not None:
        lines.extend(_diff_text(data))
    return "\n".join(lines).rstrip("\n") + "\n"


def _diff_text(data: RenderInput) -> list[str]:
    diff = data.diff
    assert diff is not None
    lines = [
        f"diff against {safe(data.baseline)}: {diff.old_total:,} → {diff.new_total:,} tokens "
        f"({_signed(diff.new_total - diff.old_total)}, {_growth(diff)})" + (" · BREAKING" if diff.breaking else "")
    ]
    return lines + change_lines(diff)


def change_lines(diff: SnapshotDiff) -> list[str]:
    """The tools added (+), removed (-) and changed (~), each with its token delta and what breaks."""
    lines: list[str] = []
    for mark, group in (("+", diff.added), ("-", diff.removed), ("~", diff.changed)):
        for change in group:
            lines.append(f"  {mark} {safe(change.name)}  {_signed(change.delta)} tokens")
            for text in change.breaking:
                lines.append(f"      BREAKING {safe(text)}")
            for text in change.changes:
                if mark == "~":
                    lines.append(f"      {safe(text)}")
    if diff.unchanged:
        lines.append("  no changes")
    return lines


# --------------------------------------------------------------------------------------------- json


def render_json(data: RenderInput) -> str:
    out: dict[str, Any] = {
        "server": data.server,
        "source": data.source,
        "window": data.window,
        "reports": [],
    }
    for report in data.reports:
        body = report.to_json()
        body["share"] = report.share(data.window)
        if not data.lints:
            body.pop("lints", None)
        out["reports"].append(body)
    if data.comparison is not None:
        c = data.comparison
        out["count_tokens"] = {
            "figure": "count_tokens API",
            "model": c.model,
            "family": c.family,
            "api": c.api,
            "reconstructed": c.reconstructed,
            "difference": c.difference,
            "ratio": c.ratio,
        }
    if data.diff is not None:
        out["diff"] = {"baseline": data.baseline, **data.diff.to_json()}
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------- csv


CSV_COLUMNS = ("shape", "tool", "total", *PARTS, "rest", "figure")


def render_csv(data: RenderInput) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for report in data.reports:
        for tool in report.tools:
            parts = (tool.parts[p] for p in PARTS)
            writer.writerow([report.shape, tool.name, tool.total, *parts, tool.rest_tokens, figure(report)])
        blanks = [""] * len(PARTS)
        writer.writerow([report.shape, "(overhead)", report.overhead, *blanks, "", "documented"])
        writer.writerow([report.shape, "(total)", report.grand_total, *blanks, "", figure(report)])
    return buffer.getvalue()


# ----------------------------------------------------------------------------------------- markdown


def _cell(text: Any) -> str:
    return safe(text).replace("|", "\\|")


def render_markdown(data: RenderInput) -> str:
    lines: list[str] = [f"## Token budget: {_cell(data.server)}", ""]
    for report in data.reports:
        lines.append(f"### {SHAPE_NAMES[report.shape]} — {_cell(figure_label(report))}")
        lines.append("")
        lines.append("| Tool | Tokens | Description | Schema | Rest |")
        lines.append("| --- | ---: | ---: | ---: | ---: |")
        for tool in sorted(report.tools, key=lambda t: -t.total):
            lines.append(
                f"| `{_cell(tool.name)}` | {tool.total:,} | {tool.description_tokens:,} | {tool.schema_tokens:,} "
                f"| {tool.rest_tokens:,} |"
            )
        overhead = f" + {report.overhead:,} fixed overhead" if report.overhead else ""
        lines.append("")
        lines.append(
            f"**Total: {report.total:,} tokens{overhead}** — {_pct(report.share(data.window))} of a "
            f"{data.window_label} window ({figure(report)})."
        )
        if report.note:
            lines.append(f"_{_cell(report.note)}_")
        lines.append("")
    if data.comparison is not None:
        lines.extend([f"Claude: {_cell(data.comparison.describe())}", ""])
    if data.lints:
        lints = _lints(data.reports)
        lines.append(f"### Lints ({len(lints)})")
        lines.append("")
        for lint in lints:
            where = f"`{_cell(lint.tool)}` " if lint.tool else ""
            lines.append(f"- **{lint.severity}** `{lint.code}` {where}— {_cell(lint.message)}")
        if not lints:
            lines.append("None.")
        lines.append("")
    if data.diff is not None:
        diff = data.diff
        lines.append(f"### Diff against {_cell(data.baseline)}")
        lines.append("")
        lines.append(
            f"{diff.old_total:,} → {diff.new_total:,} tokens ({_signed(diff.new_total - diff.old_total)}, "
            f"{_growth(diff)}){' — **breaking**' if diff.breaking else ''}"
        )
        lines.append("")
        rows = [("added", c) for c in diff.added] + [("removed", c) for c in diff.removed]
        rows += [("changed", c) for c in diff.changed]
        if rows:
            lines.append("| Tool | Change | Δ tokens | Details |")
            lines.append("| --- | --- | ---: | --- |")
            for kind, change in rows:
                details = "; ".join([*(f"**breaking:** {b}" for b in change.breaking), *change.changes])
                lines.append(f"| `{_cell(change.name)}` | {kind} | {_signed(change.delta)} | {_cell(details)} |")
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


RENDERERS = {"text": render_text, "json": render_json, "csv": render_csv, "markdown": render_markdown}
