"""The app starts its first stdio server before it builds the window (issue 23: start to connected), so the
server's own start-up overlaps Qt's and the window's; the connect adopts that process, never a second one.
`inspector.core.prestart` is the hand-off: a process offered for one command is claimed by that command only,
and one nobody claims is ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lens_support import DEMO, REPO

from inspector.core import prestart
from inspector.transports.process import StdioCommand

# Stands in for a server: notes its pid (the kernel keeps its start time), then becomes the demo server.
WRAPPER = """
import os, sys
with open(sys.argv[1], "a") as log:
    log.write(f"{os.getpid()}\\n")
os.execv(sys.executable, [sys.executable, "-m", "inspector.demo"])
"""


def _started_after_boot(pid: int) -> float:
    """When the kernel started process `pid`, in seconds after boot (/proc: clock ticks, 10 ms here)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[19]) / os.sysconf("SC_CLK_TCK")


def _fresh_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM")}
    return env | {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
        "PYTHONPATH": str(REPO),
        "QT_QPA_PLATFORM": "offscreen",
        "MCP_LENS_STARTUP_MARKERS": "1",
    }


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc to see what the app had loaded")
def test_the_first_server_starts_before_the_window_and_is_started_once(tmp_path: Path) -> None:
    wrapper, log = tmp_path / "server.py", tmp_path / "starts.jsonl"
    wrapper.write_text(WRAPPER)
    app = subprocess.Popen(
        [sys.executable, "-m", "inspector", "--", sys.executable, str(wrapper), str(log)],
        env=_fresh_env(tmp_path),
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    marks: dict[str, float] = {}
    try:
        assert app.stdout is not None
        for line in app.stdout:
            name, _, seconds = line.strip().partition(" ")
            if name in ("window-exposed", "connected"):
                marks[name] = float(seconds)
            if name == "connected":
                break
        else:
            raise AssertionError(f"the app never connected; stderr:\n{app.communicate(timeout=30)[1]}")
        time.sleep(0.5)  # a second start, were there one, would have been logged by now (it precedes the connect)
        pids = [int(line) for line in log.read_text().split()]
        server_started = _started_after_boot(pids[0]) - _started_after_boot(app.pid)  # seconds after the app's start
        app.send_signal(signal.SIGTERM)
        _out, err = app.communicate(timeout=60)
    finally:
        if app.poll() is None:
            app.kill()
            app.communicate()
    assert app.returncode == 0, err
    assert len(pids) == 1, f"the server was started {len(pids)} times"
    assert server_started < marks["window-exposed"], (
        f"the server started {server_started:.2f} s after the app; the window showed at {marks['window-exposed']:.2f} s"
    )


def test_a_started_server_is_claimed_by_its_own_command_only() -> None:
    command = StdioCommand(DEMO[0], DEMO[1:], {"PYTHONPATH": str(REPO)})
    process = prestart.offer(command)
    assert process is not None
    try:
        assert prestart.claim(StdioCommand(DEMO[0], [*DEMO[1:], "--other"], {"PYTHONPATH": str(REPO)})) is None
        assert prestart.claim(StdioCommand(DEMO[0], DEMO[1:], {"PYTHONPATH": str(REPO)})) is process
        assert prestart.claim(command) is None, "claimed twice"
    finally:
        process.kill()
        process.communicate()


def test_a_started_server_nobody_claims_is_ended() -> None:
    process = prestart.offer(StdioCommand(DEMO[0], DEMO[1:], {"PYTHONPATH": str(REPO)}))
    assert process is not None
    prestart.drop()
    assert process.poll() is not None
    assert prestart.claim(StdioCommand(DEMO[0], DEMO[1:], {"PYTHONPATH": str(REPO)})) is None


CHOICE = """
import json, sys
from PySide6.QtCore import QSettings
from inspector.app import ORGANIZATION, parse_args, start_first_server
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.core import prestart
from inspector.transports.process import StdioCommand

profile = ServerProfile.from_entry("mine", json.loads(sys.argv[1]))
store = ProfileStore()
store.load()
store.add(profile)
store.save()
QSettings(ORGANIZATION, "mcp-lens").setValue("session/lastServer", "mine")
start_first_server(parse_args([]))
process = prestart.claim(StdioCommand.from_profile(profile)) if profile.transport == "stdio" else None
offered = bool(prestart._slot) or process is not None
prestart.drop()
if process is not None:
    process.kill()
    process.communicate()
print(json.dumps({"claimed": process is not None, "offered": offered}))
"""


def _first_choice(tmp_path: Path, entry: dict) -> dict:
    tmp_path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", CHOICE, json.dumps(entry)],
        env=_fresh_env(tmp_path),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_last_server_used_is_started_early_when_it_is_a_plain_stdio_one(tmp_path: Path) -> None:
    assert _first_choice(tmp_path, {"command": DEMO[0], "args": DEMO[1:]}) == {"claimed": True, "offered": True}


def test_a_server_with_references_or_a_url_is_not_started_early(tmp_path: Path) -> None:
    with_reference = {"command": DEMO[0], "args": DEMO[1:], "env": {"TOKEN": "${env:LENS_TEST_TOKEN}"}}
    assert _first_choice(tmp_path / "a", with_reference) == {"claimed": False, "offered": False}
    assert _first_choice(tmp_path / "b", {"url": "http://127.0.0.1:9/mcp"}) == {"claimed": False, "offered": False}
