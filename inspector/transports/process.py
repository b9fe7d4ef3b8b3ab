"""Spawning a stdio server process. Stdlib only, so the CLI can start the server before heavy imports."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any

from inspector.platform import processes


class SpawnError(OSError):
    """The server process could not be started. The message says what to check."""


@dataclass(slots=True)
class StdioCommand:
    command: str
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    # What the profile's `${…}` references resolved to: hidden in the record (`inspector.config.redact`)
    secret_values: tuple[str, ...] = ()

    @classmethod
    def from_profile(cls, profile: Any) -> StdioCommand:
        """From a `ServerProfile` (duck-typed: this module imports nothing of ours)."""
        secrets = tuple(getattr(profile, "secret_values", None) or ())
        return cls(profile.command, list(profile.args), dict(profile.env or {}), profile.cwd, secrets)

    def argv(self) -> list[str]:
        return [self.command, *self.args]


def spawn(cmd: StdioCommand) -> subprocess.Popen[bytes]:
    """Start the server with an argument list (never a shell), in its own process group, with pipes an
    asyncio loop can read on every platform (`platform.processes.popen`).

    The environment is ours with the profile's variables on top: a developer debugging their
    server expects it to see their PATH and tools.
    """
    env = {**os.environ, **cmd.env}
    if cmd.cwd is not None and not os.path.isdir(cmd.cwd):
        raise SpawnError(f"working directory does not exist: {cmd.cwd}")
    try:
        return processes.popen(cmd.argv(), env=env, cwd=cmd.cwd, for_loop=True)
    except FileNotFoundError as exc:
        found = shutil.which(cmd.command, path=env.get("PATH"))
        hint = "" if found else " Check the command name and that its folder is on PATH."
        raise SpawnError(f"command not found: {cmd.command!r}.{hint}") from exc
    except PermissionError as exc:
        raise SpawnError(f"command is not executable: {cmd.command!r} ({exc.strerror}).") from exc
    except OSError as exc:
        raise SpawnError(f"could not start {cmd.command!r}: {exc.strerror or exc}") from exc
