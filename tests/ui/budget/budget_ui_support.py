"""Helpers for the Budget tab tests (a uniquely named module: `conftest` names collide)."""

from __future__ import annotations

import json
import subprocess
import sys

from lens_support import REPO

from inspector.config.profile import ServerProfile

BUDGET_SERVER = REPO / "tests/servers/budget_server.py"
LINT_PROFILE = ServerProfile(name="Lint server", transport="stdio", command=sys.executable, args=[str(BUDGET_SERVER)])


def everything_profile(everything: str) -> ServerProfile:
    return ServerProfile(name="everything", transport="stdio", command="node", args=[everything, "stdio"])


def wait_report(qtbot, pane, names: set[str] | None = None, timeout: int = 20000):
    """Wait until the pane shows a finished report (holding `names`, when given) and return it."""

    def done() -> bool:
        report = pane.report
        if report is None or pane.runner.busy:
            return False
        return names is None or names <= {cost.name for cost in report.tools}

    qtbot.waitUntil(done, timeout=timeout)
    return pane.report


def show_budget(win) -> None:
    win.tabs.setCurrentWidget(win.budget)


def demo_budget(qtbot, win):
    """Connect the window to the demo, show the Budget tab at o200k_base / MCP shape; the finished report."""
    from ui_support import connect

    connect(qtbot, win)
    show_budget(win)
    win.budget.pickers.set_tokenizer("o200k_base")
    win.budget.pickers.set_shape("mcp")
    return wait_report(qtbot, win.budget)


def call_tool(qtbot, win, name: str, arguments: dict, timeout: int = 20000):
    record = win.session.call_tool(name, arguments, timeout=30, max_total=None)
    assert record is not None
    qtbot.waitUntil(lambda: record.done, timeout=timeout)
    return record


def cli_reports(target: list[str], encoding: str = "o200k_base") -> dict[str, dict]:
    """`mcp-lens tokens TARGET --format json --shape all` as a real subprocess: its reports by shape."""
    argv = [sys.executable, "-m", "inspector", "tokens", "--format", "json", "--encoding", encoding, "--shape", "all"]
    done = subprocess.run([*argv, *target], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return {report["shape"]: report for report in json.loads(done.stdout)["reports"]}
