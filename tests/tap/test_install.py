"""Installing the tap into hosts' configs and taking it out: the text edit, the refusals, the files kept."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

import pytest

from inspector.config import jsonc
from inspector.tap import install
from inspector.tap.install import InstallError, plan_install, plan_uninstall, run, tap_launcher

# Each host's file with what real files have: comments, CRLF, tabs, unicode, other entries, secrets in env.
CLAUDE_DESKTOP = """{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "weather": {
      "command": "npx",
      "args": ["-y", "@acme/weather-mcp", "--units=metric"],
      "env": {"WEATHER_API_KEY": "sk-secret-123"}
    },
    "files": {
      "command": "uvx",
      "args": [
        "mcp-server-filesystem",
        "/home/zoë/Documents"
      ]
    }
  }
}
"""

CLAUDE_CODE = (
    '{\r\n\t"mcpServers": {\r\n\t\t"files": {\r\n\t\t\t"type": "stdio",\r\n\t\t\t"command": "uvx",\r\n'
    '\t\t\t"args": ["mcp-server-filesystem", "/srv/données"],\r\n\t\t\t"env": {}\r\n\t\t},\r\n'
    '\t\t"weather": {\r\n\t\t\t"type": "stdio",\r\n\t\t\t"command": "npx",\r\n'
    '\t\t\t"args": ["-y", "@acme/weather-mcp"],\r\n\t\t\t"env": {"WEATHER_API_KEY": "sk-secret-123"}\r\n\t\t},\r\n'
    '\t\t"remote": {"type": "http", "url": "https://mcp.example.com/mcp"}\r\n\t}\r\n}\r\n'
)

CURSOR = """{
  // servers Cursor starts
  "mcpServers": {
    "weather": {
      /* the API key stays here */
      "env": { "WEATHER_API_KEY": "sk-secret-123" },
      "args": [ "-y",  "@acme/weather-mcp" ],   // odd spacing is kept
      "command": "npx"
    },
    "日本語": { "command": "node", "args": ["srv.js", "--greeting=こんにちは"] },
    "remote": { "url": "https://mcp.example.com/sse" },
  },
}"""

VSCODE = """// VS Code: .vscode/mcp.json
{
\t"inputs": [
\t\t{"type": "promptString", "id": "weather-key", "description": "Weather API key", "password": true},
\t],
\t"servers": {
\t\t"weather": {
\t\t\t"type": "stdio",
\t\t\t"command": "npx",
\t\t\t"args": ["-y", "@acme/weather-mcp"],
\t\t\t"env": {"WEATHER_API_KEY": "${input:weather-key}"},
\t\t\t"envFile": "${workspaceFolder}/.env",
\t\t},
\t\t"github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"},
\t},
}
"""

HOSTS = {
    "claude-desktop": ("Claude/claude_desktop_config.json", CLAUDE_DESKTOP),
    "claude-code": ("project/.mcp.json", CLAUDE_CODE),
    "cursor": (".cursor/mcp.json", CURSOR),
    "vscode": ("project/.vscode/mcp.json", VSCODE),
}


def write(tmp_path: Path, relative: str, text: str, mode: int = 0o640) -> Path:
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    path.chmod(mode)
    return path


def cli(config: Path, server: str, *, uninstall: bool = False, yes: bool = True, name: str | None = None):
    out, err = io.StringIO(), io.StringIO()
    code = run(config, server, uninstall=uninstall, name=name, yes=yes, out=out, err=err, stdin=io.StringIO())
    return code, out.getvalue(), err.getvalue()


def servers(path: Path) -> dict:
    data = jsonc.loads(path.read_text(encoding="utf-8"), jsonc=True)
    return data["servers"] if "servers" in data else data["mcpServers"]


@pytest.mark.parametrize("host", sorted(HOSTS))
def test_install_then_uninstall_leaves_each_host_file_byte_identical(tmp_path: Path, host: str) -> None:
    relative, text = HOSTS[host]
    config = write(tmp_path, relative, text)
    before = config.read_bytes()
    names = list(servers(config))

    for server in [n for n in names if "url" not in servers(config)[n]]:
        original = servers(config)[server]
        code, out, err = cli(config, server)
        assert code == 0, err
        assert f"({host})" in out and "-" in out and "+" in out  # the diff was shown
        tapped = servers(config)[server]
        launcher = tap_launcher()
        assert tapped["command"] == launcher[0]
        assert tapped["args"] == [*launcher[1:], "tap", "--name", server, "--", original["command"], *original["args"]]
        assert {k: v for k, v in tapped.items() if k not in ("command", "args")} == {
            k: v for k, v in original.items() if k not in ("command", "args")
        }  # env (secrets included), type, envFile: untouched

    after_install = config.read_text(encoding="utf-8")
    assert "sk-secret-123" not in json.dumps(install._read_sidecar(config))  # no secret copied into the sidecar
    for server in [n for n in names if "url" not in servers(config)[n]]:
        code, out, err = cli(config, server, uninstall=True)
        assert code == 0, err
    assert config.read_bytes() == before
    assert after_install != before.decode()
    assert not install.sidecar_path(config).exists()  # the last untap removes the sidecar
    assert os.name != "posix" or stat.S_IMODE(config.stat().st_mode) == 0o640  # Windows keeps no such mode


def test_other_text_is_untouched_and_only_the_two_values_change(tmp_path: Path) -> None:
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    plan = plan_install(config, "weather")
    changed = [line for line in plan.diff.splitlines() if line.startswith(("+", "-")) and line[1:2] not in "+-"]
    assert len(changed) == 4  # the args line and the command line, each once out and once in
    assert "// odd spacing is kept" in plan.new_text and "/* the API key stays here */" in plan.new_text
    assert plan.new_text.count("\n") == CURSOR.count("\n")


def test_an_entry_without_args_gets_them_after_command_and_loses_them_on_uninstall(tmp_path: Path) -> None:
    text = (
        '{\n  "mcpServers": {\n    "bare": {\n      "command": "my-server",\n      "env": {"A": "1"}\n    },\n'
        '    "inline": {"command": "x"}\n  }\n}\n'
    )
    config = write(tmp_path, "claude_desktop_config.json", text)
    for server in ("bare", "inline"):
        assert cli(config, server)[0] == 0
        assert servers(config)[server]["args"][-2:] == ["--", servers(config)[server]["args"][-1]]
    assert '\n      "args": [' in config.read_text()  # on its own line, indented like "command"
    for server in ("inline", "bare"):
        assert cli(config, server, uninstall=True)[0] == 0
    assert config.read_text() == text


def test_the_tap_name_can_differ_from_the_server_name(tmp_path: Path) -> None:
    config = write(tmp_path, "claude_desktop_config.json", CLAUDE_DESKTOP)
    assert cli(config, "weather", name="weather (Claude)")[0] == 0
    args = servers(config)["weather"]["args"]
    assert args[args.index("--name") + 1] == "weather (Claude)"


@pytest.mark.parametrize(
    ("server", "reason", "says"),
    [
        ("remote", "http", "stdio servers only"),
        ("nope", "unknown-server", "'weather', '日本語', 'remote'"),
    ],
)
def test_refusals_say_why(tmp_path: Path, server: str, reason: str, says: str) -> None:
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    with pytest.raises(InstallError) as caught:
        plan_install(config, server)
    assert caught.value.reason == reason and says in str(caught.value)
    code, _out, err = cli(config, server)
    assert code == 1 and says in err
    assert config.read_text() == CURSOR


def test_an_entry_already_tapped_is_refused_and_an_untapped_one_cannot_be_untapped(tmp_path: Path) -> None:
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    with pytest.raises(InstallError, match="does not run through the tap"):
        plan_uninstall(config, "weather")
    assert cli(config, "weather")[0] == 0
    code, _out, err = cli(config, "weather")
    assert code == 1 and "already runs through the tap" in err
    assert install.is_tapped(config, "weather") and not install.is_tapped(config, "日本語")


def test_a_file_that_is_not_json_is_refused_saying_where(tmp_path: Path) -> None:
    config = write(tmp_path, ".cursor/mcp.json", '{\n  "mcpServers": {\n    "a": {"command": "x",, }\n  }\n}\n')
    code, out, err = cli(config, "a")
    assert code == 2 and out == ""
    assert "not valid JSON/JSONC" in err and "line 3" in err


def test_without_a_terminal_or_yes_it_shows_the_diff_and_changes_nothing(tmp_path: Path) -> None:
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    code, out, err = cli(config, "weather", yes=False)
    assert code == 2 and "pass --yes" in err
    assert '+      "command": ' in out
    assert config.read_text() == CURSOR
    assert not list(config.parent.glob("*backup*")) and not install.sidecar_path(config).exists()


@pytest.mark.skipif(os.name != "posix", reason="requires POSIX file modes")
def test_backup_and_sidecar_permissions(tmp_path: Path) -> None:
    config = write(tmp_path, "Claude/claude_desktop_config.json", CLAUDE_DESKTOP, mode=0o600)
    code, out, _err = cli(config, "weather")
    assert code == 0
    (backup,) = config.parent.glob("claude_desktop_config.json.mcp-lens-backup-*")
    assert backup.read_text() == CLAUDE_DESKTOP and str(backup) in out
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    sidecar = install.sidecar_path(config)
    assert sidecar.name == ".claude_desktop_config.json.mcp-lens-tap.json"
    assert stat.S_IMODE(sidecar.stat().st_mode) == 0o600
    assert "mcp-lens tap --uninstall" in out
    assert not [p for p in config.parent.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(os.name != "posix", reason="requires a symlink (Windows asks for privileges)")
def test_a_symlinked_config_is_edited_where_it_points(tmp_path: Path) -> None:
    real = write(tmp_path, "dotfiles/mcp.json", CURSOR)
    link = tmp_path / ".cursor" / "mcp.json"
    link.parent.mkdir()
    link.symlink_to(real)
    assert cli(link, "weather")[0] == 0
    assert link.is_symlink() and install.is_tapped(real, "weather")
    assert cli(link, "weather", uninstall=True)[0] == 0
    assert real.read_text() == CURSOR


@pytest.mark.parametrize("damage", ["missing", "garbage", "other-record"])
def test_uninstall_without_a_usable_sidecar_restores_the_exact_backup(tmp_path: Path, damage: str) -> None:
    """The sidecar is gone or damaged, but the backup install took is the config as it was: byte-exact."""
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    assert cli(config, "weather")[0] == 0
    sidecar = install.sidecar_path(config)
    if damage == "missing":
        sidecar.unlink()
    elif damage == "garbage":
        sidecar.write_bytes(b"\xff{not json")
    else:
        sidecar.write_text(json.dumps({"version": 1, "servers": {"weather": {"command": {"installed": "x"}}}}))
    code, out, _err = cli(config, "weather", uninstall=True)
    assert code == 0 and "restored exactly from the backup" in out
    assert config.read_text() == CURSOR


def test_uninstall_rebuilds_from_the_tapped_command_when_no_backup_is_the_right_one(tmp_path: Path) -> None:
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    assert cli(config, "weather")[0] == 0
    install.sidecar_path(config).unlink()
    config.write_text(config.read_text().replace("odd", "even"))  # edited since: the backup is not what it was
    code, out, _err = cli(config, "weather", uninstall=True)
    assert code == 0 and "rebuilt from the tapped command line" in out
    assert servers(config)["weather"]["command"] == "npx"
    assert servers(config)["weather"]["args"] == ["-y", "@acme/weather-mcp"]
    assert "/* the API key stays here */" in config.read_text() and "even" in config.read_text()


def test_apply_refuses_when_the_file_changed_after_the_diff_was_shown(tmp_path: Path) -> None:
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    plan = plan_install(config, "weather")
    config.write_text(CURSOR.replace("odd", "even"))
    with pytest.raises(InstallError, match="changed since"):
        install.apply(plan)


def test_the_launcher_is_an_absolute_command() -> None:
    launcher = tap_launcher()
    assert os.path.isabs(launcher[0]) and Path(launcher[0]).exists()


def test_a_bom_and_vscode_settings_json_round_trip(tmp_path: Path) -> None:
    settings = (
        '\ufeff{\r\n  "editor.fontSize": 14, // mine\r\n  "mcp": {\r\n    "servers": {\r\n'
        '      "git": {"command": "uvx", "args": ["mcp-server-git"]},\r\n    },\r\n  },\r\n}\r\n'
    )
    config = write(tmp_path, "Code/User/settings.json", settings)
    plan = plan_install(config, "git")
    assert plan.format == "vscode"
    install.apply(plan)
    assert install.is_tapped(config, "git")
    install.apply(plan_uninstall(config, "git"))
    assert config.read_bytes() == settings.encode("utf-8")


def test_the_python_m_inspector_launcher_is_recognised_as_the_tap(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(install, "tap_launcher", lambda: ["/usr/bin/python3", "-m", "inspector"])
    config = write(tmp_path, "claude_desktop_config.json", CLAUDE_DESKTOP)
    assert cli(config, "files")[0] == 0
    assert servers(config)["files"]["args"][:3] == ["-m", "inspector", "tap"]
    assert install.is_tapped(config, "files")
    assert cli(config, "files")[0] == 1  # already tapped
    assert cli(config, "files", uninstall=True)[0] == 0
    assert config.read_text() == CLAUDE_DESKTOP


def test_edits_elsewhere_in_the_file_survive_the_untap(tmp_path: Path) -> None:
    config = write(tmp_path, ".cursor/mcp.json", CURSOR)
    assert cli(config, "weather")[0] == 0

    def edit(text: str) -> str:
        return text.replace('"srv.js"', '"server.js"').replace("// servers Cursor starts", "// edited")

    config.write_text(edit(config.read_text()))
    assert cli(config, "weather", uninstall=True)[0] == 0
    assert config.read_text() == edit(CURSOR)
