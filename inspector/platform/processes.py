"""Starting and ending a child process with three pipes, on POSIX and on Windows.

POSIX: the child gets its own session (or process group), is ended with SIGTERM then SIGKILL to the
whole group, and SIGINT/SIGTERM/SIGHUP are forwarded. Windows: the child gets its own process group
(CREATE_NEW_PROCESS_GROUP) and a kill-on-close job (`windows_job`: its whole tree ends when we end,
however we end); a child the asyncio loop reads gets asyncio's own overlapped pipes (the proactor loop
cannot read `subprocess.Popen`'s plain pipes: WinError 6); it is ended with CTRL_BREAK_EVENT (reaches
only a console child), then its job (or ``taskkill /F /T`` without one), then TerminateProcess. There
is no SIGKILL or SIGHUP there, and `os.kill` with any other number is TerminateProcess.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from contextlib import suppress

WINDOWS = sys.platform == "win32"
PIPE = subprocess.PIPE


def resolve_command(command: str, env: Mapping[str, str] | None = None, *, platform: str = sys.platform) -> str:
    """The program to start for `command`. On Windows a bare name is looked up on PATH with PATHEXT
    (``npx`` is ``npx.cmd`` there, which CreateProcess alone does not find); elsewhere it is unchanged."""
    if platform != "win32" or os.sep in command or "/" in command:
        return command
    import shutil  # lazily: the tap starts through this module

    path = (env or os.environ).get("PATH") or (env or os.environ).get("Path")
    return shutil.which(command, path=path) or command


def popen(
    argv: list[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    new_session: bool = True,
    for_loop: bool = False,
) -> subprocess.Popen[bytes]:
    """Start `argv` (never a shell) with stdin, stdout and stderr pipes, unbuffered, in its own group.

    `new_session`: its own session (no controlling terminal) rather than only its own process group.
    `for_loop`: its pipes are read by an asyncio loop (matters on Windows only: overlapped pipes)."""
    if not WINDOWS:
        group = {"start_new_session": True} if new_session else {"process_group": 0}
        return subprocess.Popen(argv, stdin=PIPE, stdout=PIPE, stderr=PIPE, env=env, cwd=cwd, bufsize=0, **group)  # type: ignore[call-overload]
    argv = [resolve_command(argv[0], env), *argv[1:]]
    flags = subprocess.CREATE_NEW_PROCESS_GROUP if new_session else 0  # type: ignore[attr-defined]
    if for_loop:
        from asyncio import windows_utils  # type: ignore[attr-defined]

        process: subprocess.Popen[bytes] = windows_utils.Popen(
            argv, stdin=PIPE, stdout=PIPE, stderr=PIPE, env=env, cwd=cwd, creationflags=flags
        )
    else:
        process = subprocess.Popen(
            argv, stdin=PIPE, stdout=PIPE, stderr=PIPE, env=env, cwd=cwd, bufsize=0, creationflags=flags
        )
    from inspector.platform import windows_job

    process.job = windows_job.kill_on_close(process)  # type: ignore[attr-defined]  # its tree, ended with us
    return process


def terminate_group(process: subprocess.Popen[bytes]) -> None:
    """Ask the child's group to end: SIGTERM (POSIX), CTRL_BREAK_EVENT (Windows, a console child only)."""
    if WINDOWS:
        with suppress(OSError, ValueError):
            os.kill(process.pid, signal.CTRL_BREAK_EVENT)  # type: ignore[attr-defined]
        return
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """End the child's group now: SIGKILL (POSIX); on Windows its job (the child and everything it
    started), else its tree by ``taskkill /F /T`` (which may take a moment: call this off the event loop),
    then the child itself (TerminateProcess)."""
    if not WINDOWS:
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        return
    from inspector.platform import windows_job

    job = getattr(process, "job", None)
    if process.poll() is None and not (job is not None and windows_job.terminate(job)):
        import shutil

        if taskkill := shutil.which("taskkill"):
            with suppress(OSError, subprocess.SubprocessError):
                subprocess.run(
                    [taskkill, "/F", "/T", "/PID", str(process.pid)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    timeout=10,
                    creationflags=subprocess.CREATE_NO_WINDOW,  # type: ignore[attr-defined]
                )
    with suppress(OSError):
        process.kill()


def forwardable_signals() -> tuple[int, ...]:
    """The signals a relay passes on to its child: SIGINT, SIGTERM, SIGHUP on POSIX; SIGINT and SIGBREAK
    on Windows (a console's Ctrl+C and Ctrl+Break; a host ends a Windows child by TerminateProcess,
    which no handler sees: the job `popen` puts the child in covers that)."""
    names = ("SIGINT", "SIGBREAK") if WINDOWS else ("SIGINT", "SIGTERM", "SIGHUP")
    return tuple(getattr(signal, name) for name in names if hasattr(signal, name))


def forward_signal(process: subprocess.Popen[bytes], signum: int) -> None:
    """Pass `signum` on to the child. On Windows as the console event it stands for (`os.kill` with a
    plain number would be TerminateProcess): Ctrl+Break to its group; Ctrl+C already reached it, since
    a console's Ctrl+C goes to every process attached to the console."""
    if WINDOWS:
        if signum == getattr(signal, "SIGBREAK", None):
            with suppress(OSError, ValueError):
                os.kill(process.pid, signal.CTRL_BREAK_EVENT)  # type: ignore[attr-defined]
        return
    with suppress(ProcessLookupError, PermissionError):
        os.kill(process.pid, signum)


def exit_signal_name(code: int) -> str | None:
    """The signal's name for a POSIX `returncode` below 0 ("SIGKILL"); None for any other code."""
    if code >= 0:
        return None
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"
