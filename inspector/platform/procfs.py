"""What Linux's ``/proc`` tells about a process; None where there is no ``/proc`` (macOS, Windows)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

PROC = Path("/proc")
LINUX = sys.platform.startswith("linux")  # under Wine "/proc" is the Linux one (drive Z:), not this process's


def own_start_time(proc: Path = PROC) -> float | None:
    """When this process started, as a `time.time()` value (the kernel's record), or None."""
    if not LINUX and proc == PROC:
        return None
    try:
        fields = (proc / "self" / "stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        uptime = float((proc / "uptime").read_text(encoding="ascii").split()[0])
        ticks = os.sysconf("SC_CLK_TCK")
        started_after_boot = int(fields[19]) / ticks  # field 22 of stat; [0] here is field 3
        return time.time() - uptime + started_after_boot
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def command_line(pid: int, proc: Path = PROC) -> list[bytes] | None:
    """The process's argv as the kernel keeps it, or None where that cannot be read."""
    if not LINUX and proc == PROC:
        return None
    try:
        return (proc / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
