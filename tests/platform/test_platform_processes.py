"""Starting and ending a child's group through the platform seam, with real processes (POSIX here; the
same tests run on Windows under `scripts/wine-test`)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from inspector.config.pids import pid_alive
from inspector.platform import processes

# A child that ignores the polite request to end, starts a grandchild and says both pids.
STUBBORN = """
import signal, subprocess, sys, time
for name in ("SIGTERM", "SIGBREAK", "SIGINT"):
    if hasattr(signal, name):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
print(grandchild.pid, flush=True)
time.sleep(120)
"""


def _wait_gone(pid: int, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while pid_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_kill_group_ends_a_child_that_ignores_termination_and_its_own_child() -> None:
    child = processes.popen([sys.executable, "-c", STUBBORN])
    try:
        assert child.stdout is not None
        grandchild = int(child.stdout.readline())
        processes.terminate_group(child)  # ignored
        processes.kill_group(child)
        assert child.wait(timeout=30) != 0
        assert _wait_gone(grandchild), "the grandchild outlived its group"
    finally:
        if child.poll() is None:
            child.kill()
        for pipe in (child.stdin, child.stdout, child.stderr):
            if pipe is not None:
                pipe.close()


def test_a_childs_pipes_carry_bytes_unchanged() -> None:
    echo = "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read())"
    child = processes.popen([sys.executable, "-c", echo])
    data = b'{"a": 1}\r\n\n\x00\xff line\n'
    out, _err = child.communicate(data, timeout=60)
    assert out == data


def test_signals_a_relay_forwards_exist_on_this_platform() -> None:
    names = {processes.signal.Signals(n).name for n in processes.forwardable_signals()}
    expected = {"SIGINT", "SIGBREAK"} if processes.WINDOWS else {"SIGINT", "SIGTERM", "SIGHUP"}
    assert names == expected


def test_exit_signal_names() -> None:
    assert processes.exit_signal_name(-int(processes.signal.SIGTERM)) == "SIGTERM"
    assert processes.exit_signal_name(1) is None
    assert processes.exit_signal_name(-200) == "signal 200"


def test_resolving_a_command_changes_nothing_off_windows_and_keeps_a_path_on_windows(tmp_path: Path) -> None:
    assert processes.resolve_command("npx", {"PATH": str(tmp_path)}, platform="linux") == "npx"
    spaced = str(tmp_path / "My Tools" / "server.exe")
    assert processes.resolve_command(spaced, {"PATH": ""}, platform="win32") == spaced
