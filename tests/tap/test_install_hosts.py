"""Which host configs run a server: the entries Tap this server… offers."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.tap import install
from inspector.tap.hosts import entries, matching_entries


def write(path: Path, servers: dict, key: str = "mcpServers") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({key: servers}, indent=2))
    return path


def test_matching_entries_run_the_same_command_directly_or_through_the_tap(tmp_path: Path) -> None:
    cursor = write(
        tmp_path / ".cursor/mcp.json",
        {
            "same": {"command": "/usr/bin/node", "args": ["srv.js"]},
            "same name elsewhere": {"command": "node", "args": ["srv.js"]},
            "other args": {"command": "node", "args": ["other.js"]},
            "remote": {"url": "https://example.com/mcp"},
        },
    )
    vscode = write(
        tmp_path / ".vscode/mcp.json", {"v": {"type": "stdio", "command": "node", "args": ["srv.js"]}}, "servers"
    )
    install.apply(install.plan_install(vscode, "v"))
    missing = tmp_path / "nope.json"
    files = [("Cursor", cursor), ("Cursor again", cursor), ("VS Code", vscode), ("Claude Desktop", missing)]
    found = matching_entries(files, "/usr/bin/node", ["srv.js"])
    assert [(e.client, e.server, e.tapped) for e in found] == [
        ("Cursor", "same", False),
        ("Cursor", "same name elsewhere", False),
        ("VS Code", "v", True),
    ]


def test_entries_list_every_server_of_a_file_and_none_of_a_broken_one(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {"a": {"command": "x"}, "b": {"url": "https://e.com"}, "c": "junk"})
    assert [(e.server, e.matches) for e in entries(path, "x", [])] == [("a", True), ("b", False)]
    broken = tmp_path / "broken.json"
    broken.write_text('{"mcpServers": {')
    assert entries(broken, "x", []) == []
