"""Whether the window has a screen to open on, asked before Qt is loaded: started with no display (over
SSH, say), Qt prints "no Qt platform plugin could be initialized…" and its plugin list, then aborts.
`mcp-lens` says instead, in one line, what to do and exits with `NO_DISPLAY_EXIT`."""

from __future__ import annotations

import sys
from collections.abc import Mapping

NO_DISPLAY_EXIT = 2  # the window cannot open here (documented in the README, "Check an installation")

NO_DISPLAY = (
    "mcp-lens: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset, as over SSH): "
    "use the headless commands (mcp-lens --cli …, mcp-lens doctor …, mcp-lens tokens …), or set DISPLAY "
    "(ssh -X, or xvfb-run -a mcp-lens), or check the installation offscreen with "
    "QT_QPA_PLATFORM=offscreen mcp-lens --self-test"
)


def missing_display(environ: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """The one-line advice when the window has no screen, else None. Only where Qt needs X11 or Wayland
    (not macOS or Windows), and only when no Qt platform was chosen (QT_QPA_PLATFORM=offscreen, say)."""
    if platform.startswith(("darwin", "win", "cygwin")) or environ.get("QT_QPA_PLATFORM"):
        return None
    if environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return NO_DISPLAY
