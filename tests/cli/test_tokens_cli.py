"""``mcp-lens tokens`` as a user runs it: real processes, real servers, exit codes, formats, CI gates."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from factories import tool
from lens_support import REPO, run_lens

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.snapshot import load_snapshot
from inspector.budget.tokenizers import get_tokenizer

TOKENS = [sys.executable, "-m", "inspector", "tokens"]


def tokens(*args: str, env: dict[str, str] | None = None, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return run_lens("tokens", *args, env=env, timeout=timeout)


def error_line(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    lines = [line for line in proc.stderr.splitlines() if line.startswith('{"error"')]
    assert lines, proc.stderr
    return json.loads(lines[-1])


@pytest.fixture(scope="module")
def demo_snapshot(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One demo run in JSON with every shape, saving a snapshot: reused by several tests."""
    path = tmp_path_factory.mktemp("tokens") / "demo.json"
    proc = tokens("--demo", "--shape", "all", "--format", "json", "--save", str(path))
    assert proc.returncode == 0, proc.stderr
    return path, json.loads(proc.stdout)


def test_demo_json_agrees_with_the_engine_the_pane_uses(demo_snapshot: tuple[Path, dict[str, Any]]) -> None:
    path, out = demo_snapshot
    snapshot = load_snapshot(path)
    assert snapshot.server == out["server"] == "Demo server"  # the profile's name, as the Budget tab shows it
    assert snapshot.meta["serverInfo"]["name"] == "mcp-lens-demo"
    counter = BudgetCounter(get_tokenizer("o200k_base"))
    assert [r["shape"] for r in out["reports"]] == ["mcp", "openai", "anthropic"]
    for printed in out["reports"]:
        report = counter.report(snapshot.tools, printed["shape"])
        assert printed["total"] == report.total
        assert [t["total"] for t in printed["tools"]] == [t.total for t in report.tools]
        assert printed["share"] == pytest.approx(report.share(128_000))
    assert out["reports"][2]["overhead"] == 346 and "estimate" in out["reports"][2]["note"]


def test_everything_text_and_agreement(everything: str, tmp_path: Path) -> None:
    saved = tmp_path / "everything.json"
    proc = tokens("node", everything, "stdio", "--encoding", "cl100k_base", "--window", "200K", "--save", str(saved))
    assert proc.returncode == 0, proc.stderr
    report = BudgetCounter(get_tokenizer("cl100k_base")).report(load_snapshot(saved).tools, "mcp")
    assert f"total {report.total:,} tokens" in proc.stdout
    assert "of 200K" in proc.stdout and "cl100k_base" in proc.stdout
    assert "get-sum" in proc.stdout and "lints (" in proc.stdout
    assert load_snapshot(saved).source.startswith("node ")


def test_csv_is_a_pure_table_and_lints_go_to_stderr(demo_snapshot: tuple[Path, dict[str, Any]]) -> None:
    path, out = demo_snapshot
    proc = tokens("--tools-file", str(path), "--format", "csv", "--shape", "openai", "--max-tools", "3")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    tools = out["reports"][1]["tools"]
    assert len(rows) == len(tools) + 2
    assert rows[0]["tool"] == tools[0]["name"] and int(rows[0]["total"]) == tools[0]["total"]
    assert rows[-1]["tool"] == "(total)" and int(rows[-1]["total"]) == out["reports"][1]["grand_total"]
    lints = [json.loads(line)["lint"] for line in proc.stderr.splitlines() if line.startswith('{"lint"')]
    assert any(lint["code"] == "too-many-tools" for lint in lints)


def test_markdown(demo_snapshot: tuple[Path, dict[str, Any]]) -> None:
    path, _ = demo_snapshot
    proc = tokens("--tools-file", str(path), "--format", "markdown", "--shape", "anthropic", "--window", "1M")
    assert proc.returncode == 0, proc.stderr
    assert "| Tool | Tokens | Description | Schema | Rest |" in proc.stdout
    assert "346 fixed overhead" in proc.stdout and "1M window" in proc.stdout
    assert "### Lints" in proc.stdout


def test_max_tokens_gate(demo_snapshot: tuple[Path, dict[str, Any]]) -> None:
    path, out = demo_snapshot
    total = out["reports"][0]["grand_total"]
    assert tokens("--tools-file", str(path), "--max-tokens", str(total)).returncode == 0
    over = tokens("--tools-file", str(path), "--max-tokens", str(total - 1))
    assert over.returncode == 8
    error = error_line(over)
    assert error["error"] == "over-budget" and error["total"] == total and error["max_tokens"] == total - 1
    assert over.stdout  # the report is still printed


def test_baseline_round_trip_and_gates(demo_snapshot: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    path, _ = demo_snapshot
    same = tokens("--tools-file", str(path), "--baseline", str(path), "--max-growth", "0%")
    assert same.returncode == 0, same.stderr
    assert "no changes" in same.stdout

    data = json.loads(path.read_text())
    smaller = dict(data, tools=[t for t in data["tools"] if t["name"] != "echo"])
    (tmp_path / "smaller.json").write_text(json.dumps(smaller))
    grew = tokens("--tools-file", str(path), "--baseline", str(tmp_path / "smaller.json"), "--max-growth", "1%")
    assert grew.returncode == 9
    assert error_line(grew)["error"] == "growth"
    assert "+ echo" in grew.stdout
    assert tokens("--tools-file", str(path), "--baseline", str(tmp_path / "smaller.json")).returncode == 0

    bigger = dict(data, tools=[*data["tools"], tool("gone_tool", description=None)])
    (tmp_path / "bigger.json").write_text(json.dumps(bigger))
    broke = tokens("--tools-file", str(path), "--baseline", str(tmp_path / "bigger.json"), "--format", "json")
    assert broke.returncode == 9
    error = error_line(broke)
    assert error["error"] == "breaking-change" and "gone_tool" in error["breaking"][0]
    assert json.loads(broke.stdout)["diff"]["removed"][0]["name"] == "gone_tool"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "no server given"),
        (("--demo", "--server-url", "http://127.0.0.1:9/mcp"), "exactly one server"),
        (("--demo", "--window", "lots"), "--window"),
        (("--demo", "--max-growth", "5%"), "--max-growth needs --baseline"),
        (("--tools-file", "/nonexistent/tools.json"), "cannot read snapshot"),
    ],
)
def test_usage_errors(args: tuple[str, ...], message: str) -> None:
    proc = tokens(*args)
    assert proc.returncode == 2, proc.stderr
    error = error_line(proc)
    assert error["error"] == "usage" and message in error["message"]


def test_bad_baseline_is_a_usage_error(demo_snapshot: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    path, _ = demo_snapshot
    (tmp_path / "bad.json").write_text("{oops")
    proc = tokens("--tools-file", str(path), "--baseline", str(tmp_path / "bad.json"))
    assert proc.returncode == 2 and "is not JSON" in error_line(proc)["message"]


def test_anthropic_without_a_key(demo_snapshot: tuple[Path, dict[str, Any]]) -> None:
    path, _ = demo_snapshot
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    proc = subprocess.run(
        [*TOKENS, "--tools-file", str(path), "--encoding", "anthropic"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO)},
    )
    assert proc.returncode == 10
    error = error_line(proc)
    assert error["error"] == "tokenizer" and "ANTHROPIC_API_KEY" in error["message"]


def test_connection_failure_exit_code() -> None:
    proc = tokens("/nonexistent/server-binary")
    assert proc.returncode == 3
    assert error_line(proc)["error"] == "connection"


def test_hostile_names_cannot_drive_the_terminal(tmp_path: Path) -> None:
    tools = [tool("evil\x1b[2J\x1b[31mred\nnext", "x|y")]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}))
    for fmt in ("text", "markdown"):
        proc = tokens("--tools-file", str(tmp_path / "tools.json"), "--format", fmt)
        assert proc.returncode == 0, proc.stderr
        assert "\x1b" not in proc.stdout and "\\x1b[2J" in proc.stdout
    assert "invalid-name" in proc.stdout


def test_streamable_http_target(demo_http: str, demo_snapshot: tuple[Path, dict[str, Any]]) -> None:
    proc = tokens(demo_http, "--format", "json", "--shape", "all")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["source"] == demo_http
    _, over_stdio = demo_snapshot
    assert [r["total"] for r in out["reports"]] == [r["total"] for r in over_stdio["reports"]]


def test_config_file_target(tmp_path: Path, demo_snapshot: tuple[Path, dict[str, Any]]) -> None:
    config = tmp_path / "mcp.json"
    entry = {"command": sys.executable, "args": ["-m", "inspector.demo"], "env": {"PYTHONPATH": str(REPO)}}
    config.write_text(json.dumps({"mcpServers": {"demo": entry, "other": {"command": "false"}}}))
    proc = tokens("--config", str(config), "--server", "demo", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    _, over_demo = demo_snapshot
    assert json.loads(proc.stdout)["reports"][0]["total"] == over_demo["reports"][0]["total"]
    missing = tokens("--config", str(config), "--server", "nope")
    assert missing.returncode == 2 and "nope" in error_line(missing)["message"]
