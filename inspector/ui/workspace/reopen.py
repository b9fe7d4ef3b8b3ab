"""The "reopen connected servers at start" setting (off by default) and the servers it reopens."""

from __future__ import annotations

from PySide6.QtCore import QSettings

REOPEN_KEY = "session/reopenAtStart"  # off by default
OPEN_SERVERS_KEY = "session/openServers"  # the servers connected when the window closed


def reopen_enabled(settings: QSettings) -> bool:
    return str(settings.value(REOPEN_KEY, False)).lower() in ("true", "1")


def servers_to_reopen(settings: QSettings) -> list[str]:
    """The servers that were connected at the last quit, when "reopen at start" is on."""
    if not reopen_enabled(settings):
        return []
    names = settings.value(OPEN_SERVERS_KEY) or []
    return [names] if isinstance(names, str) else [str(n) for n in names]
