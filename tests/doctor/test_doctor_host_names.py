"""One name per tool and host: the ``tool-name`` check, ``host-acceptance`` and the Budget's host view
build a host's name for a tool the same way (`budget.hosts.host_tool_name`), on a server whose name and
tool names are hostile text (tests/servers/hostile_text.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from lens_support import REPO, run_lens

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.hosts import host_view
from inspector.budget.tokenizers import get_tokenizer

SERVER = [sys.executable, str(REPO / "tests/servers/hostile_text.py"), "/nonexistent/fifo"]


def test_tool_name_host_acceptance_and_budget_name_a_tool_alike(tmp_path: Path) -> None:
    home = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path)}
    done = run_lens(
        "doctor", "--timeout", "60", "--format", "json", "--no-budget", "--host", "claude-code", "--", *SERVER,
        env=home, timeout=180,
    )  # fmt: skip
    report = json.loads(done.stdout)
    [hosts] = report["hosts"]
    accepted = [tool["host_name"] for tool in hosts["tools"]]
    assert accepted and all(re.match(r"mcp__server_name__img_src__[A-Za-z0-9_-]+__", n) for n in accepted), accepted
    said = [f["message"] for f in report["findings"] if f["check"] == "tool-name"]
    for name in accepted:  # each over 64 characters: tool-name measures the same name
        assert any(m.startswith(f"{name!r} is {len(name)} characters") for m in said), (name, said)
    listed = report_tools()
    view = host_view(listed, "claude-code", hosts["server"], counter=BudgetCounter(get_tokenizer("o200k_base")))
    assert [tool.host_name for tool in view.tools] == accepted


def report_tools() -> list[dict]:
    """The hostile server's tools as tools/list gives them, through the CLI."""
    done = run_lens("--cli", *SERVER, "--method", "tools/list", "--format", "json", timeout=120)
    return json.loads(done.stdout)["tools"]
