"""Start-up markers for benchmarks: ``MCP_LENS_STARTUP_MARKERS=1`` prints ``<name> <seconds>`` lines.

The seconds count from the process's start as the kernel recorded it (Linux ``/proc``), so the
interpreter's own start-up is included; elsewhere they count from this module's first import.
"""

from __future__ import annotations

import os
import sys
import time

ENV = "MCP_LENS_STARTUP_MARKERS"
_IMPORTED_AT = time.time()


def _process_start() -> float:
    """The process start as a `time.time()` value (best effort; this module's import time otherwise)."""
    from inspector.platform.procfs import own_start_time

    started = own_start_time()
    return _IMPORTED_AT if started is None else started


PROCESS_START = _process_start()


def enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def elapsed() -> float:
    """Seconds since the process started."""
    return time.time() - PROCESS_START


def mark(name: str) -> None:
    """Print ``name seconds`` (flushed) when markers are enabled."""
    if enabled():
        print(f"{name} {elapsed():.3f}", file=sys.stdout, flush=True)
