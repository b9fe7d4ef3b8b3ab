"""The command line as a user meets it (issue 11, point 11): `mcp-lens --help` lists every way to run
it, and starting the app or its self-test prints nothing alarming on stderr."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from lens_support import REPO, run_lens, without_webengine_machine_notes


def fresh_home(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    return {
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }


def test_help_lists_every_way_to_run_it() -> None:
    done = run_lens("--help")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    for way in (
        "mcp-lens tokens",
        "--cli",
        "--demo-server",
        "--install-desktop-entry",
        "--uninstall-desktop-entry",
        "--self-test",
        "--config FILE",
    ):
        assert way in done.stdout, f"--help does not mention {way!r}:\n{done.stdout}"


def test_the_self_test_prints_nothing_on_stderr(tmp_path: Path) -> None:
    done = run_lens("--self-test", env=fresh_home(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "self-test: all steps passed" in done.stdout
    assert without_webengine_machine_notes(done.stderr) == "", f"--self-test printed on stderr:\n{done.stderr}"
    assert "block.wav" not in done.stdout


def test_a_start_prints_nothing_on_stderr(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen", "MCP_LENS_STARTUP_MARKERS": "1"}
    env |= fresh_home(tmp_path)
    env.pop("QT_LOGGING_RULES", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("connected "):
                break
        else:
            raise AssertionError(f"the app never connected; stderr:\n{process.communicate(timeout=10)[1]}")
        process.send_signal(signal.SIGTERM)  # as a desktop session ends the app
        _out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert err == "", f"starting mcp-lens printed on stderr:\n{err}"
    assert list(tmp_path.iterdir()) == [tmp_path / "home"], "the app wrote into its working directory"


def test_asking_for_help_with_the_desktop_entry_option_installs_nothing(tmp_path: Path) -> None:
    env = fresh_home(tmp_path)
    done = run_lens("--install-desktop-entry", "--help", env=env)
    assert done.returncode == 0, done.stderr
    assert "--install-desktop-entry" in done.stdout and "wrote" not in done.stdout
    assert not (tmp_path / "home/.local/share/applications").exists()
