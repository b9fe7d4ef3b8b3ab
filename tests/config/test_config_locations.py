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


def test_every_hosts_file_on_macos_and_windows(tmp_path: Path) -> None:
    home = tmp_path / "Jane Doe"
    mac = host_config_files(home=home, platform="darwin", environ={}, cwd=tmp_path / "p")
    support = home / "Library" / "Application Support"
    assert ("Claude Desktop", support / "Claude" / "claude_desktop_config.json") in mac
    assert ("VS Code", support / "Code" / "User" / "mcp.json") in mac
    assert ("Windsurf", home / ".codeium" / "windsurf" / "mcp_config.json") in mac
    assert ("Cursor", home / ".cursor" / "mcp.json") in mac and ("Claude Code", home / ".claude.json") in mac
    roaming = tmp_path / "AppData" / "Roaming"
    win = host_config_files(home=home, platform="win32", environ={"APPDATA": str(roaming)}, cwd=tmp_path / "p")
    assert ("Claude Desktop", roaming / "Claude" / "claude_desktop_config.json") in win
    assert ("VS Code", roaming / "Code" / "User" / "mcp.json") in win
    assert ("Windsurf", home / ".codeium" / "windsurf" / "mcp_config.json") in win
    no_appdata = dict(host_config_files(home=home, platform="win32", environ={}, cwd=tmp_path / "p"))
    assert no_appdata["Claude Desktop"] == home / "AppData/Roaming/Claude/claude_desktop_config.json"


def test_a_host_key_names_its_file_on_each_os(tmp_path: Path) -> None:
    from inspector.config.locations import HOST_FILES, host_file

    roaming = {"APPDATA": str(tmp_path / "Roaming")}
    desktop = host_file("claude-desktop", home=tmp_path, platform="win32", environ=roaming)
    assert desktop == tmp_path / "Roaming" / "Claude" / "claude_desktop_config.json"
    assert host_file("Windsurf", home=tmp_path, platform="darwin") == tmp_path / ".codeium/windsurf/mcp_config.json"
    assert host_file("vscode-project", home=tmp_path, cwd=tmp_path / "p") == tmp_path / "p/.vscode/mcp.json"
    assert host_file("no-such-host", home=tmp_path) is None
    assert len({f.key for f in HOST_FILES}) == len(HOST_FILES)


def test_import_folders_include_windsurf_and_end_with_the_home_folder(tmp_path: Path) -> None:
    folders = client_config_folders(home=tmp_path, platform="darwin", environ={})
    assert ("Windsurf", tmp_path / ".codeium" / "windsurf") in folders
    assert folders[-1] == ("Claude Code", tmp_path)
