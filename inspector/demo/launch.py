"""How to start the embedded demo server as a child process (stdlib only, imports nothing heavy)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.config.profile import ServerProfile


def demo_argv() -> list[str]:
    """The demo server's command line: via ``python -m``, or the bundled app's hidden flag when frozen."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "--demo-server"]
    return [sys.executable, "-m", "inspector.demo"]


def demo_profile() -> ServerProfile:
    """The built-in "Demo server" entry: this installation's demo server over stdio."""
    from inspector.config.profile import ServerProfile

    command, *args = demo_argv()
    return ServerProfile(name="Demo server", transport="stdio", command=command, args=args)
