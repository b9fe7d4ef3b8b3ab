"""The headless CLI as a user runs it: a real process, real servers, exit codes, stderr JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lens_support import HOSTILE, REPO, run_lens

from inspector.traffic import jsonl
from inspector.traffic.entry import Direction


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return run_lens("--cli", *args, env=env, timeout=timeout)


def error_line(proc: subprocess.CompletedProcess[str]) -> dict:
    lines = [line for line in proc.stderr.splitlines() if line.startswith("{")]
    assert lines, proc.stderr
    return json.loads(lines[-1])


def test_demo_tools_list_json() -> None:
    proc = cli("--demo", "--method", "tools/list", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    names = {tool["name"] for tool in json.loads(proc.stdout)["tools"]}
    assert {"echo", "slow_task", "schedule_meeting"} <= names


def test_everything_echo(everything: str) -> None:
    proc = cli("node", everything, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["content"][0]["text"] == "Echo: hi"


def test_tool_args_are_json_coerced(everything: str) -> None:
    proc = cli(
        "node", everything, "--method", "tools/call", "--tool-name", "get-sum",
        "--tool-arg", "a=2", "--tool-arg", "b=3.5", "--format", "text",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "5.5" in proc.stdout


def test_everything_over_http_with_url_target(everything_http: str) -> None:
    proc = cli(everything_http, "--transport", "http", "--method", "tools/list", "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("echo")


def test_record_holds_the_servers_bytes_exactly(tmp_path: Path) -> None:
    server_log = tmp_path / "server-wrote.txt"
    record = tmp_path / "run.jsonl"
    proc = cli(
        sys.executable, str(HOSTILE), "unknown-id", "--method", "tools/call", "--tool-name", "work",
        "--record", str(record), env={"HOSTILE_LOG": str(server_log)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    written = server_log.read_bytes().splitlines()
    assert len(written) >= 3
    record_lines = record.read_bytes().splitlines()
    for line in written:
        assert any(line in rec for rec in record_lines), line
    store, _ = jsonl.load(record)
    assert [e.raw for e in store if e.direction is Direction.IN and e.kind.value != "stderr"] == written


HOSTILE_CMD = [sys.executable, str(HOSTILE)]
CALL_WORK = ["--method", "tools/call", "--tool-name", "work"]
CALL_DEMO_ERROR = ["--demo", "--method", "tools/call", "--tool-name", "simulate_error", "--tool-arg"]


@pytest.mark.parametrize(
    "args,code,kind",
    [
        (["no-such-server-binary-xyz", "--method", "tools/list"], 3, "connection"),
        ([*HOSTILE_CMD, "exit-mid-call", *CALL_WORK], 3, "connection"),
        ([*HOSTILE_CMD, "bad-tools", "--method", "tools/call", "--tool-name", "nope"], 6, "unknown-tool"),
        ([*HOSTILE_CMD, "never-answer", *CALL_WORK, "--request-timeout", "0.5"], 7, "timeout"),
        ([*CALL_DEMO_ERROR, "mode=result"], 5, "tool-error"),
        ([*CALL_DEMO_ERROR, "mode=protocol"], 4, "protocol"),
        (["--method", "tools/list"], 2, "usage"),
    ],
)
def test_exit_codes_and_error_line(args: list[str], code: int, kind: str) -> None:
    proc = cli(*args)
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    error = error_line(proc)
    assert error["error"] == kind and error["message"]


def test_config_file_and_server_name(tmp_path: Path) -> None:
    config = tmp_path / "claude_desktop_config.json"
    entry = {"command": sys.executable, "args": ["-m", "inspector.demo"], "env": {"PYTHONPATH": str(REPO)}}
    config.write_text(json.dumps({"mcpServers": {"demo": entry, "other": {"command": "false"}}}))
    legacy = ("--protocol-era", "legacy")
    proc = cli("--config", str(config), "--server", "demo", *legacy, "--method", "ping", "--format", "text")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("pong in")
    modern = cli("--config", str(config), "--server", "demo", "--method", "ping")
    assert modern.returncode == 1 and "ping is removed in 2026-07-28" in error_line(modern)["message"]
    missing = cli("--config", str(config), "--server", "nope", "--method", "ping")
    assert missing.returncode == 2 and "demo" in error_line(missing)["message"]


def test_initialize_reports_negotiation() -> None:
    proc = cli("--demo", "--method", "initialize")
    assert proc.returncode == 0, proc.stderr
    init = json.loads(proc.stdout)
    assert init["serverInfo"]["name"] == "mcp-lens-demo" and init["protocolVersion"]
