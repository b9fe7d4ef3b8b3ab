"""`mcp-lens tokens` text output: its columns line up whatever the figures (issue 21)."""

from __future__ import annotations

from inspector.budget.breakdown import BudgetReport, ToolCost
from inspector.budget.render import RenderInput, render_text


def _tool(name: str, total: int, description: int, schema: int, rest: int) -> ToolCost:
    return ToolCost(name, total, {}, description, schema, rest)


def test_columns_fit_the_widest_figure() -> None:
    big = _tool("bigdesc", 114_315_714, 100_000_000, 14_315_714, 14_315_714)
    small = _tool("echo", 12, 3, 4, 5)
    report = BudgetReport("o200k_base", True, "mcp", [big, small], big.total + small.total, 0)
    text = render_text(RenderInput("server", "test", [report], 128_000, "128K", lints=False))
    header, *rows = [line for line in text.splitlines() if line.endswith(("tool", "bigdesc", "echo"))]
    assert len(rows) == 2, text
    names_at = {line.rindex(" ") + 1 for line in (header, *rows)}
    assert len(names_at) == 1, f"the tool column moves:\n{text}"
    for title in ("tokens", "descr", "schema", "rest"):  # each figure ends where its title ends
        end = header.index(title) + len(title)
        for row in rows:
            assert row[end - 1].isdigit() and row[end] == " ", f"{title!r} does not line up:\n{text}"
