"""Started with no display (over SSH, say), `mcp-lens` says in one line what to do instead of Qt's
"no Qt platform plugin could be initialized" and its list of plugins (issue 22)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.display import NO_DISPLAY_EXIT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland: Linux")


def run_without_display(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env |= {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / ".config")}
    return subprocess.run(
        [sys.executable, "-m", "inspector", *argv], env=env, capture_output=True, text=True, timeout=120
    )


def test_no_display_says_what_to_do_in_one_line(tmp_path: Path) -> None:
    done = run_without_display(tmp_path)
    assert done.returncode == NO_DISPLAY_EXIT, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for advice in ("--cli", "doctor", "tokens", "DISPLAY", "QT_QPA_PLATFORM=offscreen mcp-lens --self-test"):
        assert advice in lines[0], lines[0]
    assert "platform plugin" not in done.stderr


def test_the_headless_commands_and_help_still_run_without_a_display(tmp_path: Path) -> None:
    assert run_without_display(tmp_path, "--help").returncode == 0
    tokens = run_without_display(tmp_path, "tokens", "--help")
    assert tokens.returncode == 0, tokens.stderr
