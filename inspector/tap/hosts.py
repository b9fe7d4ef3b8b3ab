"""Which hosts' configs run a given server: the entries "Tap this server…" offers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath
from typing import Any

from inspector.config import jsonc
from inspector.config.formats import detect_format
from inspector.config.profile import ProfileError
from inspector.config.text_files import NotUtf8Error, read_utf8
from inspector.tap.install import untapped


@dataclass(frozen=True)
class HostEntry:
    """One stdio server entry in a host's config file."""

    client: str  # "Cursor", "VS Code", …, or "" for a file the user chose
    path: Path
    server: str
    tapped: bool
    matches: bool  # runs the same command and args as the server asked about


def _table(path: Path) -> dict[str, Any]:
    try:
        data = jsonc.loads(read_utf8(path), source=str(path), jsonc=True)
    except (OSError, ProfileError, NotUtf8Error):
        return {}
    if not isinstance(data, dict):
        return {}
    if detect_format(path, data) == "vscode":
        table = data.get("servers") if "servers" in data else (data.get("mcp") or {}).get("servers")
    else:
        table = data.get("mcpServers")
    return table if isinstance(table, dict) else {}


def _same(command: str, args: list[str], other: tuple[str, Any]) -> bool:
    return other[1] == args and (other[0] == command or PureWindowsPath(other[0]).name == PureWindowsPath(command).name)


def entries(path: Path, command: str, args: list[str], client: str = "") -> list[HostEntry]:
    """The server entries of one config file (unreadable: none), each saying if it runs `command args`
    (an HTTP entry never does; it is listed so that choosing it can say why it cannot be tapped)."""
    found = []
    for server, entry in _table(path).items():
        if not isinstance(entry, dict):
            continue
        raw_command, raw_args = entry.get("command"), entry.get("args", [])
        inner = untapped(raw_command, raw_args)
        own = inner or (raw_command, raw_args if isinstance(raw_args, list) else [])
        runs = isinstance(own[0], str) and "url" not in entry and _same(command, args, own)
        found.append(HostEntry(client, path, server, inner is not None, runs))
    return found


def matching_entries(files: Iterable[tuple[str, Path]], command: str, args: list[str]) -> list[HostEntry]:
    """Entries in the files that exist which run `command args` (directly or through the tap)."""
    seen: set[Path] = set()
    found: list[HostEntry] = []
    for client, path in files:
        if not path.is_file() or path.resolve() in seen:
            continue
        seen.add(path.resolve())
        found += [e for e in entries(path, command, args, client) if e.matches]
    return found
