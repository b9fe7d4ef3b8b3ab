"""Real clients as hosts talking through `mcp-lens tap` to server-everything: the SDK client, and the
official Inspector CLI from npm. The tap's record must hold exactly the bytes each side wrote."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tap_support import TAP, load_entries, only_record, stream_bytes, tap_env

from inspector.tap.paths import list_records
from inspector.traffic.entry import Direction, Kind

pytestmark = [pytest.mark.npm, pytest.mark.skipif(shutil.which("node") is None, reason="requires Node.js")]

INSPECTOR_CLI = Path(__file__).resolve().parents[1] / "servers/node_modules/@modelcontextprotocol/inspector-cli/build"

# Sits between the client and the tap and keeps its own copy of the bytes each way: what the client
# wrote (host.out) and what it was given (host.in). Independent of the code under test: raw fds only.
TEE = r"""
import os, subprocess, sys, threading
folder, argv = sys.argv[1], sys.argv[2:]
child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
def copy(src, dst, log, close):
    with open(os.path.join(folder, log), "wb", buffering=0) as keep:
        while data := os.read(src, 65536):
            keep.write(data)
            os.write(dst, data)
    if close:
        os.close(dst)
threading.Thread(target=copy, args=(0, child.stdin.fileno(), "host.out", True), daemon=True).start()
copy(child.stdout.fileno(), 1, "host.in", False)
sys.exit(child.wait())
"""


def _tee(tmp_path: Path) -> list[str]:
    script = tmp_path / "tee.py"
    script.write_text(TEE)
    return [sys.executable, str(script), str(tmp_path)]


def test_sdk_client_lists_and_calls_tools_through_the_tap(tmp_path: Path, everything: str) -> None:
    argv = [*_tee(tmp_path), *TAP, "--name", "everything", "--", "node", everything]
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=tap_env(tmp_path))

    async def use() -> tuple[list[str], Any]:
        async with Client(params, mode="legacy", read_timeout_seconds=30) as client:
            tools = await client.list_tools()
            echoed = await client.call_tool("echo", {"message": "through the tap ✓"})
            return [tool.name for tool in tools.tools], echoed

    names, echoed = anyio.run(use)
    assert "echo" in names
    assert "through the tap ✓" in echoed.content[0].text

    path = only_record(tmp_path)
    entries, meta = load_entries(path)
    assert meta["tap"]["name"] == "everything" and meta["tap"]["command"] == ["node", everything]
    assert stream_bytes(entries, Direction.OUT) == (tmp_path / "host.out").read_bytes()
    assert stream_bytes(entries, Direction.IN) == (tmp_path / "host.in").read_bytes()
    methods = {e.method for e in entries if e.kind is Kind.REQUEST and e.direction is Direction.OUT}
    assert {"initialize", "tools/list", "tools/call"} <= methods
    listed = next(e for e in entries if e.kind is Kind.RESPONSE and e.method == "tools/list")
    assert listed.latency_ms is not None and listed.peer_seq is not None
    assert any(e.kind is Kind.STDERR for e in entries)  # server-everything announces itself on stderr
    assert entries[-1].text().startswith("process exited")
    assert [r.live for r in list_records(path.parent)] == [False]


def test_official_inspector_cli_lists_tools_through_the_tap(tmp_path: Path, everything: str) -> None:
    if not (INSPECTOR_CLI / "index.js").exists():
        pytest.fail(f"{INSPECTOR_CLI} is missing: run scripts/test, which installs the npm test servers")
    # The CLI mode's own entry (what `mcp-inspector-cli --cli` runs). Its target is split at its first
    # `--`, so the tap's own `--` goes after it. It looks for ../package.json from the working folder.
    command = [
        "node",
        str(INSPECTOR_CLI / "index.js"),
        sys.executable,
        "--method",
        "tools/list",
        "--",
        *_tee(tmp_path)[1:],
        *TAP,
        "--name",
        "via-inspector",
        "--",
        "node",
        everything,
    ]
    done = subprocess.run(
        command, capture_output=True, cwd=INSPECTOR_CLI, env=tap_env(tmp_path), timeout=90, check=False
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    assert "echo" in [tool["name"] for tool in json.loads(done.stdout)["tools"]]

    entries, meta = load_entries(only_record(tmp_path))
    assert meta["tap"]["name"] == "via-inspector"
    assert stream_bytes(entries, Direction.OUT) == (tmp_path / "host.out").read_bytes()
    assert stream_bytes(entries, Direction.IN) == (tmp_path / "host.in").read_bytes()
    sent = [e for e in entries if e.direction is Direction.OUT and e.kind is Kind.REQUEST]
    assert [e.method for e in sent][:1] == ["initialize"] and "tools/list" in [e.method for e in sent]
    assert json.loads(sent[0].raw)["params"]["clientInfo"]["name"] == "inspector-cli"
    answered = next(e for e in entries if e.kind is Kind.RESPONSE and e.method == "tools/list")
    assert b'"name":"echo"' in answered.raw
