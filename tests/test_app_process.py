"""`mcp-lens` as a user starts it: it opens on the demo server, and a signal closes it cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lens_support import REPO


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the direct children of `pid`, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append((int(entry.name), cmdline))
    return found


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc to find the demo server process")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_app_starts_on_the_demo_and_closes_cleanly_on_a_signal(tmp_path: Path, sig: signal.Signals) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path), "PYTHONPATH": str(REPO)}
    env["MCP_LENS_STARTUP_MARKERS"] = "1"  # the demo server starts before the window: wait for the connect
    app = subprocess.Popen(
        [sys.executable, "-m", "inspector"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path
    )
    try:
        assert app.stdout is not None
        for line in app.stdout:
            if line.startswith(b"connected "):
                break
        else:
            raise AssertionError(app.stderr.read().decode(errors="replace") if app.stderr else "")
        demo = [pid for pid, cmd in _children(app.pid) if "inspector.demo" in cmd]
        assert demo, "the app did not start the embedded demo server"
        time.sleep(1.0)
        app.send_signal(sig)
        # 0 only through the clean path: window closed, server shut down, loop ended. Python's default
        # SIGTERM kills with -15; an unhandled Ctrl+C inside Qt's loop exits non-zero.
        assert app.wait(timeout=20) == 0
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
