"""Open as mock server: a record added to the workspace as a stdio server that answers from it.

The profile runs ``mcp-lens replay RECORD [--server NAME]`` through the launcher a host would use for
the tap (`tap/install.tap_launcher`: the bundle, the venv's `mcp-lens`, or ``python -m inspector``), as
an argument list, never a shell string: the traffic log, forms and Budget then work on it as on any server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.config.profile import ServerProfile
from inspector.core.history import CallRecord
from inspector.replay.from_history import write_history_record
from inspector.tap.install import tap_launcher
from inspector.words import counted

MOCK_SUFFIX = " (mock)"


def mock_command(record: str | Path, server: str | None = None) -> list[str]:
    """The argv of the mock: the app's own launcher, ``replay``, the record, and the server it holds."""
    return [*tap_launcher(), "replay", str(Path(record).absolute()), *(["--server", server] if server else [])]


def mock_profile(record: str | Path, server: str | None = None, name: str | None = None) -> ServerProfile:
    """An unsaved stdio profile serving `record` (named after the record's server, marked as a mock)."""
    program, *args = mock_command(record, server)
    base = name or server or Path(record).stem
    return ServerProfile(name=f"{base}{MOCK_SUFFIX}", command=program, args=args)


def open_as_mock(window: Any, record: str | Path, server: str | None = None, name: str | None = None) -> ServerProfile:
    """Add the mock to `window`'s servers sidebar (an unsaved entry) and connect it; returns the entry."""
    entry = window.servers.show_unsaved(mock_profile(record, server, name))
    if window.servers.state(entry.name) not in ("connected", "connecting"):
        window.connect_profile(entry)
    return entry


def open_history_as_mock(window: Any, server: str, calls: list[CallRecord], tools: list[Any] | None) -> str:
    """History's Open as mock server: `server`'s kept calls written as a record (`replay/from_history`),
    added and connected as "SERVER History (mock)"; returns what the status bar says."""
    try:
        made = write_history_record(server, calls, tools)
    except OSError as exc:
        return f"Could not write the record of {server}'s History: {exc.strerror or exc}"
    entry = open_as_mock(window, made.path, None, f"{server} History")
    said = f"Added {entry.name} to the servers: {counted(made.served, 'call')} from History answered as recorded"
    if made.left_out:
        said += f" ({counted(made.left_out, 'call')} without a kept result left out)"
    if not made.listed:
        said += "; its tools are the names History called (no listing to copy)"
    return said + "."
