"""Where MCP hosts keep their server config files on each OS (one table, `HOST_FILES`): Import… offers
the ones that exist, "Tap this server…" and `mcp-lens tap --install HOST` find them here."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


def app_data_dir(
    *, home: Path | None = None, platform: str | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """The per-user application data folder: `$XDG_CONFIG_HOME` (or `~/.config`), `~/Library/Application
    Support` on macOS, `%APPDATA%` on Windows."""
    home = Path.home() if home is None else home
    platform = sys.platform if platform is None else platform
    environ = os.environ if environ is None else environ
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform == "win32":
        return Path(environ["APPDATA"]) if environ.get("APPDATA") else home / "AppData" / "Roaming"
    xdg = environ.get("XDG_CONFIG_HOME", "")
    return Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".config"


@dataclass(frozen=True)
class HostFile:
    """One place a host keeps its MCP servers: under the per-user application data folder (`app_data`),
    the home folder (`home`) or the current project (`project`)."""

    host: str  # as the app shows it
    key: str  # as `mcp-lens tap --install KEY` takes it
    base: str  # "app_data", "home" or "project"
    parts: tuple[str, ...]

    def path(self, *, home: Path, app_data: Path, cwd: Path) -> Path:
        return {"app_data": app_data, "home": home, "project": cwd}[self.base].joinpath(*self.parts)


# Every host MCP Lens imports from or taps, in the order they are offered: user-wide files, then the
# current project's. Claude Desktop and VS Code keep theirs in the platform's application data folder
# (`app_data_dir`: ~/Library/Application Support on macOS, %APPDATA% on Windows); the others under the
# home folder on every OS (on Windows %USERPROFILE%).
HOST_FILES = (
    HostFile("Claude Desktop", "claude-desktop", "app_data", ("Claude", "claude_desktop_config.json")),
    HostFile("Cursor", "cursor", "home", (".cursor", "mcp.json")),
    HostFile("VS Code", "vscode", "app_data", ("Code", "User", "mcp.json")),
    HostFile("Windsurf", "windsurf", "home", (".codeium", "windsurf", "mcp_config.json")),
    HostFile("Claude Code", "claude-code", "home", (".claude.json",)),
    HostFile("Claude Code", "claude-code-project", "project", (".mcp.json",)),
    HostFile("Cursor", "cursor-project", "project", (".cursor", "mcp.json")),
    HostFile("VS Code", "vscode-project", "project", (".vscode", "mcp.json")),
)


def client_config_folders(
    *, home: Path | None = None, platform: str | None = None, environ: Mapping[str, str] | None = None
) -> list[tuple[str, Path]]:
    """(client, folder) of each host's user-wide file, in `HOST_FILES` order, Claude Code's (the home
    folder) last (existing or not)."""
    home = Path.home() if home is None else home
    app_data = app_data_dir(home=home, platform=platform, environ=environ)
    folders = [
        (f.host, f.path(home=home, app_data=app_data, cwd=home).parent) for f in HOST_FILES if f.base != "project"
    ]
    return sorted(folders, key=lambda pair: pair[1] == home)


def import_start_folder(
    *, home: Path | None = None, platform: str | None = None, environ: Mapping[str, str] | None = None
) -> Path:
    """The first client folder that exists (Claude Desktop's first), else the home folder."""
    folders = client_config_folders(home=home, platform=platform, environ=environ)
    return next((folder for _client, folder in folders if folder.is_dir()), folders[-1][1])


def host_config_files(
    *,
    home: Path | None = None,
    platform: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> list[tuple[str, Path]]:
    """(client, file) for each place a host keeps its servers: user-wide files, then the current project's."""
    home = Path.home() if home is None else home
    cwd = Path.cwd() if cwd is None else cwd
    app_data = app_data_dir(home=home, platform=platform, environ=environ)
    return [(f.host, f.path(home=home, app_data=app_data, cwd=cwd)) for f in HOST_FILES]


def host_file(
    key: str,
    *,
    home: Path | None = None,
    platform: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> Path | None:
    """The config file of the host `key` names (`HOST_FILES`' keys, e.g. ``claude-desktop``), or None."""
    found = next((f for f in HOST_FILES if f.key == key.lower()), None)
    if found is None:
        return None
    home = Path.home() if home is None else home
    app_data = app_data_dir(home=home, platform=platform, environ=environ)
    return found.path(home=home, app_data=app_data, cwd=Path.cwd() if cwd is None else cwd)
