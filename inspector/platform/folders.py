"""The per-user folders MCP Lens keeps its data in, per platform."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path


def user_data_base(
    env: Mapping[str, str] | None = None, *, platform: str | None = None, home: Path | None = None
) -> Path:
    """Where per-user application data goes: ``$XDG_DATA_HOME`` when set to an absolute path (on every
    platform: tests and users point it elsewhere), else ``~/.local/share`` on Linux, ``~/Library/Application
    Support`` on macOS, ``%LOCALAPPDATA%`` (else ``~\\AppData\\Local``) on Windows."""
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    home = Path(env.get("HOME") or Path.home()) if home is None else home
    data = env.get("XDG_DATA_HOME", "")
    if data and os.path.isabs(data):
        return Path(data)
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform == "win32":
        local = env.get("LOCALAPPDATA", "")
        return Path(local) if local else home / "AppData" / "Local"
    return home / ".local/share"
