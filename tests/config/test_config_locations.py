"""Where Import… opens: the folder of the first MCP client config that exists."""

from __future__ import annotations

from pathlib import Path

from inspector.config.locations import client_config_folders, host_config_files, import_start_folder


def test_client_folders_per_platform(tmp_path: Path) -> None:
    linux = dict(client_config_folders(home=tmp_path, platform="linux", environ={}))
    assert linux["Claude Desktop"] == tmp_path / ".config" / "Claude"
    assert linux["VS Code"] == tmp_path / ".config" / "Code" / "User"
    mac = dict(client_config_folders(home=tmp_path, platform="darwin", environ={}))
    assert mac["Claude Desktop"] == tmp_path / "Library" / "Application Support" / "Claude"
    win = dict(client_config_folders(home=tmp_path, platform="win32", environ={"APPDATA": str(tmp_path / "R")}))
    assert win["Claude Desktop"] == tmp_path / "R" / "Claude" and win["Cursor"] == tmp_path / ".cursor"


def test_start_folder_is_the_first_that_exists(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    assert import_start_folder(home=tmp_path, platform="linux", environ=env) == tmp_path
    (tmp_path / ".cursor").mkdir()
    assert import_start_folder(home=tmp_path, platform="linux", environ=env) == tmp_path / ".cursor"
    (tmp_path / "xdg" / "Claude").mkdir(parents=True)
    assert import_start_folder(home=tmp_path, platform="linux", environ=env) == tmp_path / "xdg" / "Claude"


def test_host_config_files_name_each_hosts_file(tmp_path: Path) -> None:
    files = host_config_files(home=tmp_path / "h", platform="linux", environ={}, cwd=tmp_path / "p")
    assert ("Claude Desktop", tmp_path / "h/.config/Claude/claude_desktop_config.json") in files
    assert ("Cursor", tmp_path / "h/.cursor/mcp.json") in files
    assert ("VS Code", tmp_path / "h/.config/Code/User/mcp.json") in files
    assert ("Claude Code", tmp_path / "h/.claude.json") in files
    assert ("Claude Code", tmp_path / "p/.mcp.json") in files and ("VS Code", tmp_path / "p/.vscode/mcp.json") in files
