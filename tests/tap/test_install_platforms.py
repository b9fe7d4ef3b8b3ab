"""The command line `tap --install` writes for a Windows or macOS host, the platform forced: the
launcher found as a user's install has it, paths with spaces kept whole, and read back as tapped."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from lens_support import run_lens

from inspector.tap import install
from inspector.tap.install import plan_install, shown_command, tap_launcher, untapped

PROGRAM_FILES = r"C:\Program Files\MCP Lens\mcp-lens.exe"
MAC_APP = "/Applications/MCP Lens.app/Contents/MacOS/mcp-lens"


def test_a_windows_venv_is_launched_by_its_mcp_lens_exe(tmp_path: Path) -> None:
    scripts = tmp_path / "My Tools" / "venv" / "Scripts"
    scripts.mkdir(parents=True)
    (scripts / "python.exe").write_bytes(b"")
    (scripts / "mcp-lens.exe").write_bytes(b"")
    launcher = tap_launcher(platform="win32", executable=str(scripts / "python.exe"), argv0="", frozen=False)
    assert launcher == [str(scripts / "mcp-lens.exe")]


def test_a_windows_python_without_the_script_runs_the_module(tmp_path: Path) -> None:
    python = str(tmp_path / "Python 3.13" / "python.exe")
    assert tap_launcher(platform="win32", executable=python, argv0="", frozen=False) == [python, "-m", "inspector"]


def test_a_bundle_is_launched_by_itself_on_windows_and_macos() -> None:
    assert tap_launcher(platform="win32", executable=PROGRAM_FILES, frozen=True) == [PROGRAM_FILES]
    assert tap_launcher(platform="darwin", executable=MAC_APP, frozen=True) == [MAC_APP]


@pytest.mark.parametrize(
    ("launcher", "folder"),
    [([PROGRAM_FILES], "AppData/Roaming/Claude"), ([MAC_APP], "Library/Application Support/Claude")],
    ids=["windows", "macos"],
)
def test_the_installed_entry_keeps_each_path_with_spaces_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, launcher: list[str], folder: str
) -> None:
    config = tmp_path / "Jane Doe" / folder / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    server = r"C:\Users\Jane Doe\servers\weather server.exe"
    config.write_text(json.dumps({"mcpServers": {"weather": {"command": server, "args": ["--city", "New York"]}}}))
    monkeypatch.setattr(install, "tap_launcher", lambda: launcher)
    plan = plan_install(config, "weather")
    entry = json.loads(plan.new_text)["mcpServers"]["weather"]
    assert entry["command"] == launcher[0]
    assert entry["args"] == ["tap", "--name", "weather", "--", server, "--city", "New York"]
    assert untapped(entry["command"], entry["args"]) == (server, ["--city", "New York"])


def test_a_command_line_shown_for_windows_quotes_spaces_the_windows_way() -> None:
    argv = [PROGRAM_FILES, "tap", "--uninstall", r"C:\Users\Jane Doe\AppData\Roaming\Claude\c.json"]
    shown = shown_command(argv, platform="win32")
    assert shown == rf'"{PROGRAM_FILES}" tap --uninstall "C:\Users\Jane Doe\AppData\Roaming\Claude\c.json"'
    assert shown_command([MAC_APP, "tap"], platform="darwin") == f"'{MAC_APP}' tap"


def test_tap_install_finds_a_host_by_its_name(tmp_path: Path) -> None:
    home = tmp_path / "home"
    config = home / ".codeium" / "windsurf" / "mcp_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"mcpServers": {"demo": {"command": sys.executable, "args": ["-V"]}}}))
    homes = {"HOME": str(home), "USERPROFILE": str(home)}  # Windows' Path.home() reads USERPROFILE
    done = run_lens("tap", "--install", "windsurf", "--server", "demo", "--yes", env=homes)
    assert done.returncode == 0, done.stderr
    assert str(config) in done.stdout
    assert untapped(*(lambda e: (e["command"], e["args"]))(json.loads(config.read_text())["mcpServers"]["demo"]))
