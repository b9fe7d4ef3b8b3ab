"""How to start the embedded demo server as a child process (stdlib only, imports nothing heavy)."""

from __future__ import annotations

import sys


def demo_argv() -> list[str]:
    """The demo server's command line: via ``python -m``, or the bundled app's hidden flag when frozen."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "--demo-server"]
    return [sys.executable, "-m", "inspector.demo"]
