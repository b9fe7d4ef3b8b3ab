"""The app starts its first stdio server before it builds the window (issue 23: start to connected), so the
server's own start-up overlaps Qt's and the window's; the connect adopts that process, never a second one.
`inspector.core.prestart` is the hand-off: a process offered for one command is claimed by that command only,
and one nobody claims is ended."""

from __future__ import annotations

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
