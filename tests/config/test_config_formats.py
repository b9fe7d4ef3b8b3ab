"""Importing each client's real file format, expansion, and export → import round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.config.expand import expand_vars, parse_env_file
from inspector.config.formats import detect_format, export_entry, export_file, load_server, load_servers
from inspector.config.profile import ProfileError, ServerProfile

EXAMPLES = Path(__file__).parent / "examples"
DESKTOP = EXAMPLES / "claude_desktop_config.json"
CLAUDE_CODE = EXAMPLES / "claude-code" / ".mcp.json"
CURSOR = EXAMPLES / "cursor" / ".cursor" / "mcp.json"
VSCODE = EXAMPLES / "vscode" / ".vscode" / "mcp.json"
ENV = {"HOME": "/home/ada", "GITHUB_TOKEN": "ghp_live", "API_KEY": "k-123", "MY_API_KEY": "my-key"}


def by_name(profiles: list[ServerProfile]) -> dict[str, ServerProfile]:
    return {p.name: p for p in profiles}


def test_claude_desktop() -> None:
    result = load_servers(DESKTOP, environ=ENV)
    assert result.format == "claude-desktop"
    assert result.warnings == []
    fs, sentry = result.profiles
    assert (fs.name, fs.transport, fs.command) == ("filesystem", "stdio", "npx")
    assert fs.args[-2:] == ["/Users/username/Desktop", "/Users/username/Downloads"]
    assert sentry.command == "uvx"
    assert sentry.env == {"SENTRY_AUTH_TOKEN": "sntrys_example_0000000000000000", "PYTHONUNBUFFERED": "1"}
    assert sentry.args[-1] == "${SENTRY_TOKEN}"  # kept as written: a reference, resolved when connecting
    assert sentry.has_secrets() and not fs.has_secrets()


def test_claude_code_keeps_references() -> None:
    result = load_servers(CLAUDE_CODE, environ=ENV)
    assert result.format == "claude-code"
    servers = by_name(result.profiles)
    assert list(servers) == ["github", "api-server", "asana", "local-db"]
    assert servers["github"].env == {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}  # never the token itself
    api = servers["api-server"]
    assert (api.transport, api.url) == ("http", "${API_BASE_URL:-https://api.example.com}/mcp")
    assert api.bearer_token == "${API_KEY}"
    assert api.headers == {"X-Team": "${TEAM:-platform}"}
    assert (servers["asana"].transport, servers["asana"].url) == ("sse", "https://mcp.asana.com/sse")
    db = servers["local-db"]
    assert db.command == "${HOME}/bin/db-server"
    assert db.args == ["--db", "${DB_PATH:-./data/app.db}", "--region", "${AWS_REGION}"]
    assert not any(p.has_secrets() for p in result.profiles)
    assert len(result.warnings) == 1
    assert "local-db" in result.warnings[0] and "args[3]" in result.warnings[0]
    assert "${AWS_REGION} is not set here" in result.warnings[0]


def test_claude_code_set_variable_is_not_noted() -> None:
    env = {**ENV, "API_BASE_URL": "http://127.0.0.1:9000", "AWS_REGION": "eu-west-1", "TEAM": ""}
    result = load_servers(CLAUDE_CODE, environ=env)
    assert by_name(result.profiles)["local-db"].args[-1] == "${AWS_REGION}"
    assert result.warnings == []


def test_expand_vars() -> None:
    env = {"A": "1", "EMPTY": ""}
    assert expand_vars("${A}-${B:-two}-${C}-$A-${EMPTY:-x}", env) == ("1-two-${C}-$A-", ["C"])
    assert expand_vars("${A:-}", {}) == ("", [])
    assert expand_vars("${not-a-name}", env) == ("${not-a-name}", [])


def test_cursor() -> None:
    result = load_servers(CURSOR, environ=ENV)
    assert result.format == "cursor"
    servers = by_name(result.profiles)
    assert servers["playwright"].args == ["@playwright/mcp@latest"]
    tools = servers["local-tools"]
    assert tools.args == [str((EXAMPLES / "cursor").resolve() / "tools" / "server.py")]  # the file's folder
    assert tools.env == {"API_KEY": "${env:MY_API_KEY}"}  # resolved when connecting
    assert (servers["context7"].transport, servers["linear"].transport) == ("http", "sse")
    assert servers["context7"].headers == {"CONTEXT7_API_KEY": "${env:CONTEXT7_API_KEY}"}
    assert any("CONTEXT7_API_KEY" in w and "not set" in w for w in result.warnings)


def test_vscode_jsonc_inputs_workspace_and_env_file() -> None:
    result = load_servers(VSCODE, environ=ENV)
    assert result.format == "vscode"
    servers = by_name(result.profiles)
    assert list(servers) == ["Perplexity", "fetch", "github", "legacy-sse"]
    assert servers["Perplexity"].env == {"PERPLEXITY_API_KEY": "${input:perplexity-key}"}
    assert servers["Perplexity"].inputs == [
        {"id": "perplexity-key", "type": "promptString", "description": "Perplexity API Key", "password": True}
    ]
    assert servers["fetch"].inputs == []  # only the inputs a server uses go with it
    [input_warning] = [w for w in result.warnings if "${input:perplexity-key}" in w]
    assert "Perplexity API Key" in input_warning and "'env.PERPLEXITY_API_KEY'" in input_warning
    assert "asked for when connecting" in input_warning
    fetch = servers["fetch"]
    workspace = (EXAMPLES / "vscode").resolve()
    assert fetch.cwd == str(workspace)
    assert fetch.env == {
        "FETCH_USER_AGENT": "ModelContextProtocol/1.0 (+https://example.com)",
        "FETCH_TIMEOUT": "30",  # explicit env wins over envFile
    }
    assert (servers["github"].transport, servers["github"].url) == ("http", "https://api.githubcopilot.com/mcp/")
    assert servers["legacy-sse"].headers == {"X-Note": "a // b /* not a comment */ , }"}


def test_vscode_settings_json_and_missing_env_file(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text(
        '{"editor.fontSize": 13, "mcp": {"servers": {"t": {"type": "stdio", "command": "x",'
        ' "envFile": "missing.env", "sandboxEnabled": true}}}}'
    )
    result = load_servers(settings, environ={})
    assert result.format == "vscode"
    assert result.profiles[0].command == "x"
    assert any("cannot read" in w and "missing.env" in w for w in result.warnings)
    assert any("ignored field sandboxEnabled" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("claude_desktop_config.json", {"mcpServers": {}}, "claude-desktop"),
        (".mcp.json", {"mcpServers": {}}, "claude-code"),
        ("servers.json", {"mcpServers": {"a": {"type": "stdio", "command": "x"}}}, "claude-code"),
        ("servers.json", {"mcpServers": {"a": {"url": "https://x.test"}}}, "cursor"),
        ("servers.json", {"mcpServers": {"a": {"command": "x"}}}, "generic"),
        ("mcp.json", {"servers": {}}, "vscode"),
        ("servers.json", {"mcpServers": {}, "x-mcp-lens": {}}, "mcp-lens"),
    ],
)
def test_detect_format(name: str, data: dict, expected: str) -> None:
    assert detect_format(Path("/p") / name, data) == expected


def test_bad_entries_are_skipped_with_a_warning_or_raised_when_strict(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"ok": {"command": "x"}, "bad": {"command": "x", "args": [1]}}}))
    result = load_servers(path)
    assert [p.name for p in result.profiles] == ["ok"]
    assert result.names == ["ok", "bad"]
    assert result.warnings == [f"skipped: {path}, server 'bad', field 'args[0]': expected a string, got int"]
    with pytest.raises(ProfileError, match="'args\\[0\\]'"):
        load_servers(path, strict=True)


def test_file_level_errors(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="cannot read file"):
        load_servers(tmp_path / "absent.json")
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(ProfileError, match="top level, got list"):
        load_servers(tmp_path / "list.json")
    (tmp_path / "none.json").write_text('{"other": 1}')
    with pytest.raises(ProfileError, match="no 'mcpServers'"):
        load_servers(tmp_path / "none.json")
    (tmp_path / "broken.json").write_text('{"mcpServers": {\n  "a": {"command": }\n}}')
    with pytest.raises(ProfileError, match=r"broken\.json: invalid JSON at line 2, column 20"):
        load_servers(tmp_path / "broken.json")


def test_load_server_by_name() -> None:
    profile = load_server(CLAUDE_CODE, "asana", environ=ENV)
    assert profile.url == "https://mcp.asana.com/sse"
    with pytest.raises(ProfileError) as info:
        load_server(CLAUDE_CODE, "gitlab", environ=ENV)
    message = str(info.value)
    assert str(CLAUDE_CODE) in message
    assert "no server named 'gitlab'; available: 'github', 'api-server', 'asana', 'local-db'" in message


@pytest.mark.parametrize("example", [DESKTOP, CLAUDE_CODE, CURSOR, VSCODE], ids=lambda p: p.parent.name)
def test_round_trip_export_import(example: Path, tmp_path: Path) -> None:
    original = load_servers(example, environ=ENV).profiles
    out = tmp_path / "exported.json"
    out.write_text(json.dumps(export_file(original)))
    again = load_servers(out, environ={})
    assert again.profiles == original
    assert [p.name for p in again.profiles] == [p.name for p in original]


def test_export_vscode_shape(tmp_path: Path) -> None:
    profiles = load_servers(CLAUDE_CODE, environ=ENV).profiles
    data = export_file(profiles, format="vscode")
    assert data["servers"]["github"]["type"] == "stdio"
    assert data["servers"]["api-server"]["headers"]["Authorization"] == "Bearer ${API_KEY}"
    vscode_dir = tmp_path / ".vscode"
    vscode_dir.mkdir()
    (vscode_dir / "mcp.json").write_text(json.dumps(data))
    assert load_servers(vscode_dir / "mcp.json", environ={}).profiles == profiles


def test_export_entry_and_duplicates() -> None:
    profile = ServerProfile("r", "sse", url="https://x.test/sse", bearer_token="t")
    assert export_entry(profile) == {
        "type": "sse",
        "url": "https://x.test/sse",
        "headers": {"Authorization": "Bearer t"},
    }
    with pytest.raises(ProfileError, match=r"server 'r'.*duplicate"):
        export_file([profile, profile.clone()])
    with pytest.raises(ProfileError, match="needs a 'command'"):
        export_entry(ServerProfile("s"))


def test_parse_env_file() -> None:
    text = "# c\nA=1\nexport B='two words'\nC=\"x=y\"\nD=val # note\n\nnot a line\n"
    assert parse_env_file(text) == {"A": "1", "B": "two words", "C": "x=y", "D": "val"}
