"""`mcp-lens --self-test` as a user (or the .deb test) runs it: a real process, the real demo server."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from lens_support import REPO, without_webengine_machine_notes

STEPS = (
    "open main window",
    "connect to the embedded demo server",
    "call echo",
    "call generate_tone",
    "call generate_image",
    "render the result",
    "count tokens (o200k, Claude)",
    "check WebEngine (MCP Apps)",
    "close and stop the server",
)


def run_self_test(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}  # it must pick offscreen itself
    env |= {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "inspector", "--self-test", *extra],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_self_test_passes_and_reports_every_step(tmp_path: Path) -> None:
    done = run_self_test(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("self-test: ")]
    for step in STEPS:
        assert any(line.startswith(f"self-test: {step} ok (") for line in lines), (step, done.stdout)
    assert "Qt platform offscreen" in lines[0]
    assert "PNG decoded, 48x48 px" in done.stdout
    if importlib.util.find_spec("PySide6.QtWebEngineCore") is not None:  # the [apps] extra (the test extra has it)
        assert "— available: Chromium" in done.stdout, done.stdout
    assert lines[-1].startswith("self-test: all steps passed in ")
    assert without_webengine_machine_notes(done.stderr) == "", "Qt/FFmpeg noise on stderr:\n" + done.stderr
    assert not (tmp_path / "config" / "mcp-lens").exists(), "the self-test wrote into the user's config"


def test_self_test_reports_a_failure_and_exits_1(tmp_path: Path) -> None:
    done = run_self_test(tmp_path, "--self-test-timeout", "0.3")  # too short to start the demo server
    assert done.returncode == 1, done.stdout + done.stderr
    assert "self-test: FAILED" in done.stdout
    assert "all steps passed" not in done.stdout
