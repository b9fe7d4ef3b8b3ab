"""A stdio server started before the window is built, so that its start-up overlaps the app's own.

`inspector.app.main` knows, before it imports Qt's widgets, which server the window will connect to
first. When that is a stdio server it starts the process at once (`offer`); the session's connect to
the same command adopts it (`claim`, in `core/session.py`) instead of starting a second one. Anything
else finds nothing to claim and starts its server as it always has. A process nobody claimed (the
first connect went elsewhere, or never happened) is ended by `drop`.

This is the one hand-off between the app's start and its first connection, which are built far apart
(the window's workspace makes the session): a single slot, filled once per process and emptied by the
first claim or drop.
"""

from __future__ import annotations

import subprocess
from contextlib import suppress
from dataclasses import dataclass

from inspector.transports.process import SpawnError, StdioCommand, spawn


@dataclass(slots=True)
class _Started:
    command: StdioCommand
    process: subprocess.Popen[bytes]


_slot: list[_Started] = []  # at most one: the process `offer` started, until claimed or dropped


def offer(command: StdioCommand) -> subprocess.Popen[bytes] | None:
    """Start `command` now for a later `claim`; None when it cannot start (the connect then says why)."""
    drop()
    try:
        process = spawn(command)
    except (SpawnError, ValueError):
        return None
    _slot.append(_Started(command, process))
    return process


def claim(command: StdioCommand) -> subprocess.Popen[bytes] | None:
    """The process started for exactly this command (argv, environment, folder), once; else None."""
    if not _slot or _slot[0].command != command:
        return None
    return _slot.pop().process  # even one that has exited: its stderr and exit code go in the record


def drop() -> None:
    """End the started process if nobody claimed it."""
    while _slot:
        process = _slot.pop().process
        if process.poll() is None:
            with suppress(OSError):
                process.kill()
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        for pipe in (process.stdin, process.stdout, process.stderr):
            if pipe is not None:
                with suppress(OSError):
                    pipe.close()
