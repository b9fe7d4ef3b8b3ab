"""Mutable state of one demo server instance (never module-global)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import get_args

from mcp_types import LoggingLevel

LOG_LEVELS: tuple[LoggingLevel, ...] = get_args(LoggingLevel)
"""Syslog severities, least severe first."""

SESSION_HEADER = "mcp-session-id"

_SEED_NOTES = {
    "welcome": "# Welcome\n\nThis note lives in the demo server's memory. Read, summarise or delete it.\n",
    "ideas": "# Ideas\n\n- Render every content type\n- Show what each tool costs in tokens\n",
    "groceries": "# Groceries\n\n- coffee\n- oat milk\n- dark chocolate\n",
}


@dataclass
class DemoState:
    """Notes, the optional extra tool's switch and each connection's requested log level."""

    notes: dict[str, str] = field(default_factory=lambda: dict(_SEED_NOTES))
    extra_tool_enabled: bool = False
    log_levels: dict[str, LoggingLevel] = field(default_factory=dict)

    def min_log_level(self, headers: Mapping[str, str] | None) -> LoggingLevel:
        """The level the client asked for with ``logging/setLevel`` (``debug`` if it never did)."""
        return self.log_levels.get(connection_key(headers), "debug")


def connection_key(headers: Mapping[str, str] | None) -> str:
    """A key for per-connection state: the HTTP session id, or ``""`` for stdio (one per process)."""
    return (headers or {}).get(SESSION_HEADER, "")


def level_allows(minimum: LoggingLevel, level: LoggingLevel) -> bool:
    """Whether ``level`` is at least as severe as ``minimum``."""
    return LOG_LEVELS.index(level) >= LOG_LEVELS.index(minimum)
