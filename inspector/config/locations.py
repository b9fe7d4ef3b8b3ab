"""Where MCP clients keep their server config files, so Import… can open there."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
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


def client_config_folders(
    *, home: Path | None = None, platform: str | None = None, environ: Mapping[str, str] | None = None
) -> list[tuple[str, Path]]:
    """(client, folder) for Claude Desktop, Cursor, VS Code and Claude Code, in that order (existing or not)."""
    home = Path.home() if home is None else home
    platform = sys.platform if platform is None else platform
    app_data = app_data_dir(home=home, platform=platform, environ=environ)
    return [
        ("Claude Desktop", app_data / "Claude"),
        ("Cursor", home / ".cursor"),
        ("VS Code", app_data / "Code" / "User"),
        ("Claude Code", home),
    ]


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
    folders = dict(client_config_folders(home=home, platform=platform, environ=environ))
    return [
        ("Claude Desktop", folders["Claude Desktop"] / "claude_desktop_config.json"),
        ("Cursor", folders["Cursor"] / "mcp.json"),
        ("VS Code", folders["VS Code"] / "mcp.json"),
        ("Claude Code", home / ".claude.json"),
        ("Claude Code", cwd / ".mcp.json"),
        ("Cursor", cwd / ".cursor" / "mcp.json"),
        ("VS Code", cwd / ".vscode" / "mcp.json"),
    ]
