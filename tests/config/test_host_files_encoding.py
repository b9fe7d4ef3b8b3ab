"""Host configs and env files that are not UTF-8: a message naming the byte, never a Traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.config.formats import load_servers
from inspector.config.profile import ProfileError
from inspector.tap.hosts import entries

LATIN1_CLAUDE = '{"mcpServers": {"café": {"command": "npx", "args": ["-y", "srv"]}}}\n'.encode("latin-1")


def test_importing_a_latin1_claude_desktop_config_is_a_profile_error(tmp_path: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_bytes(LATIN1_CLAUDE)
    with pytest.raises(ProfileError, match="not UTF-8 text: byte 0xE9 at line 1, column 21"):
        load_servers(path)


def test_an_env_file_that_is_not_utf8_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"TOKEN=caf\xe9\n")
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"s": {"command": "x", "envFile": str(tmp_path / ".env")}}}))
    result = load_servers(path)
    assert any("not UTF-8" in warning for warning in result.warnings)


def test_the_tap_finding_host_entries_skips_a_latin1_config(tmp_path: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_bytes(LATIN1_CLAUDE)
    assert entries(path, "npx", ["-y", "srv"]) == []
