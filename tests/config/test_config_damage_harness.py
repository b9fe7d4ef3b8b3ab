"""Property-based: servers.json and a Claude Desktop config cut, corrupted and re-encoded at random are
either read or refused with a message naming the file, never a Traceback; a refused servers.json is never
overwritten; the tap's install refuses a damaged host config in words and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from damage_support import apply_damage, damages
from hypothesis import HealthCheck, given, settings

from inspector.config.formats import load_servers
from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore
from inspector.tap.install import InstallError, plan_install

SETTINGS = settings(
    max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def saved_servers(folder: Path) -> bytes:
    """A servers.json as MCP Lens writes it (non-ASCII names, env, extras)."""
    path = folder / "made" / "servers.json"
    path.unlink(missing_ok=True)
    store = ProfileStore(path)
    store.load()
    store.add(ServerProfile("café ✓", command="npx", args=["-y", "srv"], env={"MODE": "débug"}))
    store.add(ServerProfile("remote", "http", url="https://x.test/mcp", headers={"X-Team": "ünïcode"}))
    store.add(ServerProfile("local", command="python", args=["-m", "demo"], roots=["/home/zoë"]))
    store.save()
    return store.path.read_bytes()


CLAUDE_DESKTOP = json.dumps(
    {
        "globalShortcut": "Ctrl+Space",
        "mcpServers": {
            "weather": {"command": "npx", "args": ["-y", "@acme/weather"], "env": {"CITY": "São Paulo"}},
            "files": {"command": "uvx", "args": ["mcp-server-filesystem", "/home/zoë/Documents"]},
        },
    },
    indent=2,
    ensure_ascii=False,
).encode()


@SETTINGS
@given(ops=damages())
def test_a_damaged_servers_json_is_read_or_refused_in_words_and_never_overwritten(tmp_path: Path, ops) -> None:
    original = saved_servers(tmp_path)
    damaged = apply_damage(original, ops)
    path = tmp_path / "cfg" / "servers.json"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(damaged)
    store = ProfileStore(path)
    try:
        store.load()
    except ProfileError as exc:
        assert str(path) in str(exc) and exc.reason  # the user is told which file and why
        store.add(ServerProfile("new", command="x"))
        try:
            store.save()
        except ProfileError as refused:
            assert "not saved" in str(refused)
        else:
            raise AssertionError("saved over a file it could not read")
        assert path.read_bytes() == damaged
        return
    if store.damage is not None:  # read for what is intact: told why, and the bytes kept before any write
        assert store.damage.said and store.damage_backup is not None
        assert store.damage_backup.read_bytes() == damaged and path.read_bytes() == damaged
    store.add(ServerProfile("added by the test", command="x"))
    store.save()
    assert ProfileStore(path).load()[-1].name == "added by the test"


@SETTINGS
@given(ops=damages())
def test_a_damaged_claude_desktop_config_is_imported_or_refused_in_words(tmp_path: Path, ops) -> None:
    damaged = apply_damage(CLAUDE_DESKTOP, ops)
    path = tmp_path / "Claude" / "claude_desktop_config.json"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(damaged)
    try:
        result = load_servers(path)
    except ProfileError as exc:
        assert str(path) in str(exc)
    else:
        assert {p.name for p in result.profiles} <= set(result.names)
    try:
        plan = plan_install(path, "weather")
    except InstallError as exc:
        assert str(exc) and exc.reason
    else:
        assert plan.diff and plan.new_text != plan.old_text
    assert path.read_bytes() == damaged  # planning never writes
