"""`mcp-lens --cli`: a tool called as a task (--as-task, both task forms), tasks/list|get|cancel."""

from __future__ import annotations

import json

import pytest
from lens_support import EVERYTHING, run_lens

QUICK = '{"steps": 2, "delay": 0.1}'


@pytest.mark.parametrize("era", ["legacy", "auto"])
def test_as_task_waits_and_prints_the_result(era: str) -> None:
    done = run_lens(
        "--cli",
        "--demo",
        "--protocol-era",
        era,
        "--method",
        "tools/call",
        "--tool-name",
        "research_topic",
        "--tool-args-json",
        QUICK,
        "--as-task",
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"][0]["text"].startswith("Research on 'MCP tasks' finished")


def test_task_methods_and_an_unknown_task() -> None:
    listed = run_lens("--cli", "--demo", "--protocol-era", "legacy", "--method", "tasks/list")
    assert listed.returncode == 0 and json.loads(listed.stdout) == {"tasks": []}
    missing = run_lens("--cli", "--demo", "--protocol-era", "legacy", "--method", "tasks/get", "--task-id", "nope")
    assert missing.returncode == 4 and "Unknown task" in missing.stderr
    usage = run_lens("--cli", "--demo", "--method", "tasks/cancel")
    assert usage.returncode != 0 and "--task-id" in usage.stderr


@pytest.mark.npm
def test_server_everything_research_query_as_a_task() -> None:
    done = run_lens(
        "--cli",
        "--method",
        "tools/call",
        "--tool-name",
        "simulate-research-query",
        "--tool-arg",
        "topic=cli",
        "--as-task",
        "--",
        "node",
        str(EVERYTHING),
        "stdio",
    )
    assert done.returncode == 0, done.stderr
    assert "Research Report: cli" in json.loads(done.stdout)["content"][0]["text"]
