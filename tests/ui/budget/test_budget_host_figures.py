"""One set of figures (issue 22): the Budget tab's host view and `mcp-lens tokens --host` count the demo's
list under the same server name (the profile's: "Demo server") to the same totals, and both call an OpenAI
encoder's count under a Claude host an estimate; a Claude host counts with Claude's counter by default."""

from __future__ import annotations

import json
import subprocess
import sys

from budget_ui_support import show_budget, wait_report
from lens_support import REPO
from ui_support import connect

from inspector.ui.budget.host_picker import HostReport
from inspector.ui.main_window import MainWindow


def tokens(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "inspector", "tokens", "--demo", *args]
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120)


def cli_host_view(host: str, *more: str) -> dict:
    done = tokens("--host", host, "--format", "json", "--window", "200K", *more)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_claude_code_view_agrees_with_the_cli(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    pane.pickers.set_tokenizer("o200k_base")
    pane.pickers.set_window(200_000)
    pane.host_picker.set_host("claude-code")
    pane.pickers.set_tokenizer("o200k_base")  # the user's pick, kept

    def host_done() -> bool:
        report = pane.report
        return isinstance(report, HostReport) and report.host == "claude-code" and report.tokenizer == "o200k_base"

    qtbot.waitUntil(lambda: host_done() and not pane.runner.busy, timeout=30000)
    report = wait_report(qtbot, pane)
    cli = cli_host_view("claude-code", "--encoding", "o200k_base")
    assert cli["server"] == "Demo server" == pane.server
    assert {t["host_name"] for t in cli["tools"]} == {c.name for c in report.tools}
    assert all(name.startswith("mcp__Demo_server__") for name in {c.name for c in report.tools})
    assert (report.grand_total, report.raw_total) == (cli["total"], cli["raw_total"])
    assert f"{report.grand_total:,} tokens" in pane.totals.text()
    assert "(named mcp__Demo_server__…)" in pane.totals.text()  # the table elides the prefix; the total says it
    # The same words for what the figure is: an OpenAI encoder under a Claude host is an estimate.
    assert "estimate" in pane.totals.text() and cli["exact"] is False and cli["figure"] == "estimate"
    text = tokens("--host", "claude-code", "--encoding", "o200k_base").stdout
    assert "estimate" in text.splitlines()[0] and "exact" not in text.splitlines()[0]


def test_a_claude_host_counts_with_claudes_counter_by_default(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    pane.pickers.set_tokenizer("o200k_base")
    pane.host_picker.set_host("claude-desktop")
    qtbot.waitUntil(lambda: pane.pickers.tokenizer_name() == "claude", timeout=30000)
    cli = cli_host_view("claude-desktop")
    assert cli["figure"] == "reconstructed" and cli["tokenizer"].startswith("claude")
