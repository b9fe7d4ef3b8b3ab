"""`mcp-lens tap --install/--uninstall` as a real process, and the installed entry run as a host runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from factories import rpc
from lens_support import REPO, run_lens

from inspector.config import jsonc

CONFIG = """{
  // Claude Code project servers
  "mcpServers": {
    "demo": {
      "type": "stdio",
      "command": "%s",
      "args": ["-m", "inspector", "--demo-server"],
      "env": {"DEMO_SECRET": "s3cret"}
    },
    "other": {"command": "node", "args": ["x.js"]}
  }
}
"""


def host_config(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "project" / ".mcp.json"
    path.parent.mkdir(parents=True)
    text = CONFIG % json.dumps(sys.executable)[1:-1]  # a Windows path's backslashes escaped
    path.write_text(text, encoding="utf-8")
    return path, text


def test_install_and_uninstall_with_yes_round_trip(tmp_path: Path) -> None:
    config, text = host_config(tmp_path)
    done = run_lens("tap", "--install", str(config), "--server", "demo", "--yes")
    assert done.returncode == 0, done.stderr
    assert "(claude-code): tap server 'demo'" in done.stdout and "+" in done.stdout
    assert "mcp-lens tap --uninstall" in done.stdout
    assert "--demo-server" in config.read_text()
    assert jsonc.loads(config.read_text(), jsonc=True)["mcpServers"]["demo"]["args"][-4:] == [
        sys.executable,
        "-m",
        "inspector",
        "--demo-server",
    ]
    done = run_lens("tap", "--uninstall", str(config), "--server", "demo", "--yes")
    assert done.returncode == 0, done.stderr
    assert config.read_text() == text


def test_without_a_terminal_it_asks_for_yes_and_changes_nothing(tmp_path: Path) -> None:
    config, text = host_config(tmp_path)
    done = run_lens("tap", "--install", str(config), "--server", "demo")
    assert done.returncode == 2 and "pass --yes" in done.stderr
    assert "@@" in done.stdout
    assert config.read_text() == text
    done = run_lens("tap", "--install", str(config), "--server", "nope", "--yes")
    assert done.returncode == 1 and "'demo', 'other'" in done.stderr


def _converse(argv: list[str], answer: bytes) -> tuple[int, str]:
    """Run `argv` on a pseudo-terminal, answer its question with `answer`; (exit code, what it printed)."""
    pty = pytest.importorskip("pty", reason="a pseudo-terminal is POSIX's")
    import select

    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(argv, stdin=follower, stdout=follower, stderr=follower, cwd=REPO, env=env)
    os.close(follower)
    shown, answered, deadline = b"", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break  # the process closed the terminal
            if not chunk:
                break
            shown += chunk
        if not answered and b"[y/N]" in shown:
            os.write(leader, answer)
            answered = True
        if process.poll() is not None and not ready:
            break
    os.close(leader)
    return process.wait(timeout=10), shown.decode("utf-8", "replace")


def test_on_a_terminal_it_asks_and_only_yes_applies(tmp_path: Path) -> None:
    config, text = host_config(tmp_path)
    argv = [sys.executable, "-m", "inspector", "tap", "--install", str(config), "--server", "demo"]
    code, shown = _converse(argv, b"n\n")
    assert code == 1 and "Not changed." in shown and config.read_text() == text
    code, shown = _converse(argv, b"y\n")
    assert code == 0 and "Changed" in shown and config.read_text() != text


def test_the_installed_entry_runs_the_server_through_the_tap(tmp_path: Path) -> None:
    config, _text = host_config(tmp_path)
    assert run_lens("tap", "--install", str(config), "--server", "demo", "--yes").returncode == 0
    entry = jsonc.loads(config.read_text(), jsonc=True)["mcpServers"]["demo"]
    data_home = tmp_path / "data"
    env = {**os.environ, **entry["env"], "XDG_DATA_HOME": str(data_home)}
    env.pop("PYTHONPATH", None)  # as a host starts it: the installed command finds MCP Lens by itself
    host = subprocess.Popen(
        [entry["command"], *entry["args"]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
        env=env,
    )
    initialize = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "a host", "version": "1"}}
    line = rpc(id=1, method="initialize", params=initialize) + b"\n"
    try:
        assert host.stdin is not None and host.stdout is not None
        host.stdin.write(line)
        host.stdin.flush()
        answer = json.loads(host.stdout.readline())
        assert answer["id"] == 1 and "serverInfo" in answer["result"]
    finally:
        host.stdin.close()
        host.wait(timeout=30)
    (record,) = (data_home / "mcp-lens" / "taps").glob("*.jsonl")
    assert b'"initialize"' in record.read_bytes() and b"s3cret" not in record.read_bytes()
