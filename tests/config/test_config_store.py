"""ProfileStore: editing, atomic saves with the right file mode, corrupt files, concurrent writers."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.config.formats import load_servers
from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore, default_path

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.fixture
def store(tmp_path: Path) -> ProfileStore:
    s = ProfileStore(tmp_path / "cfg" / "servers.json")
    assert s.load() == []
    return s


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_default_path_per_platform(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert default_path(environ={}, platform="linux", home=home) == home / ".config/mcp-lens/servers.json"
    assert default_path(environ={"XDG_CONFIG_HOME": "/x/cfg"}, platform="linux", home=home) == Path(
        "/x/cfg/mcp-lens/servers.json"
    )
    # a relative XDG_CONFIG_HOME is invalid per the XDG spec and ignored
    assert default_path(environ={"XDG_CONFIG_HOME": "rel"}, platform="linux", home=home).parent.parent == (
        home / ".config"
    )
    assert default_path(environ={}, platform="darwin", home=home) == (
        home / "Library/Application Support/mcp-lens/servers.json"
    )
    assert default_path(environ={"APPDATA": "/c/AppData/Roaming"}, platform="win32", home=home) == Path(
        "/c/AppData/Roaming/mcp-lens/servers.json"
    )


def test_edit_save_reload_keeps_order_and_extras(store: ProfileStore) -> None:
    store.add(ServerProfile("everything", command="npx", args=["-y", "@modelcontextprotocol/server-everything"]))
    store.add(ServerProfile("remote", "http", url="https://x.test/mcp", secret_headers=["X-Sig"], roots=["/src"]))
    store.add(ServerProfile("zeta", command="uvx", args=["mcp-server-time"]))
    store.rename("everything", "demo")
    copy = store.duplicate("zeta")
    copy2 = store.duplicate("zeta")
    assert (copy.name, copy2.name) == ("zeta (copy)", "zeta (copy 2)")
    store.delete("zeta (copy)")
    store.update(ServerProfile("zeta", command="uvx", args=["mcp-server-time", "--local-timezone=UTC"]))
    store.save()

    data = json.loads(store.path.read_text())
    assert list(data["mcpServers"]) == ["demo", "remote", "zeta", "zeta (copy 2)"]
    assert data["mcpServers"]["remote"] == {"type": "http", "url": "https://x.test/mcp"}
    assert data["x-mcp-lens"] == {"version": 1, "servers": {"remote": {"secretHeaders": ["X-Sig"], "roots": ["/src"]}}}

    again = ProfileStore(store.path)
    assert again.load() == store.profiles()
    assert again.get("remote").roots == ["/src"]
    assert again.get("zeta").args[-1] == "--local-timezone=UTC"
    # our own file also imports through the generic loader, extras included
    imported = load_servers(store.path, environ={})
    assert imported.format == "mcp-lens"
    assert imported.profiles == store.profiles()


def test_edit_errors(store: ProfileStore) -> None:
    store.add(ServerProfile("a", command="x"))
    store.add(ServerProfile("b", command="x"))
    with pytest.raises(ProfileError, match="server 'a': a server with this name already exists"):
        store.add(ServerProfile("a", command="y"))
    with pytest.raises(ProfileError, match="server 'b': a server with this name already exists"):
        store.rename("a", "b")
    with pytest.raises(ProfileError, match="no server named 'c'; available: 'a', 'b'"):
        store.update(ServerProfile("c", command="x"))
    with pytest.raises(ProfileError, match="needs a 'command'"):
        store.add(ServerProfile("d"))
    with pytest.raises(ProfileError, match="no server named 'zz'"):
        store.delete("zz")
    assert store.names() == ["a", "b"]


@posix_only
def test_save_with_token_is_0600_from_creation(
    store: ProfileStore, umask_022: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[tuple[str, int]] = []
    real_open = os.open

    def spy_open(path: str | os.PathLike[str], flags: int, mode: int = 0o777, **kw: object) -> int:
        opened.append((os.fspath(path), mode))
        return real_open(path, flags, mode, **kw)  # type: ignore[arg-type]

    real_fchmod = os.fchmod

    def narrowing_fchmod(fd: int, new_mode: int) -> None:
        assert new_mode == 0o600, "the mode is set at creation and only ever narrowed to user-only"
        real_fchmod(fd, new_mode)

    monkeypatch.setattr(os, "open", spy_open)
    monkeypatch.setattr(os, "fchmod", narrowing_fchmod)
    store.add(ServerProfile("remote", "http", url="https://x.test/mcp", bearer_token="s3cr3t"))
    store.save()
    assert os.stat(store.path).st_mode & 0o777 == 0o600
    [(tmp_name, tmp_mode)] = [(p, m) for p, m in opened if p.endswith(".tmp")]
    assert tmp_mode == 0o600 and Path(tmp_name).parent == store.path.parent
    assert "Bearer s3cr3t" in store.path.read_text()
    assert sorted(os.listdir(store.path.parent)) == ["servers.json"]  # no temp file left


@posix_only
def test_file_is_user_only_with_or_without_secrets(store: ProfileStore, umask_022: None) -> None:
    store.add(ServerProfile("local", command="npx", env={"LOG_LEVEL": "debug", "API_KEY": "${API_KEY}"}))
    store.save()
    assert mode(store.path) == 0o600 and mode(store.path.parent) == 0o700
    store.update(ServerProfile("local", command="npx", env={"API_KEY": "sk-live"}))
    store.save()
    assert mode(store.path) == 0o600
    store.delete("local")
    store.save()
    assert mode(store.path) == 0o600


def test_failed_replace_keeps_the_old_file(store: ProfileStore, monkeypatch: pytest.MonkeyPatch) -> None:
    store.add(ServerProfile("a", command="x"))
    store.save()
    before = store.path.read_bytes()
    store.add(ServerProfile("b", command="y"))

    def boom(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        store.save()
    assert store.path.read_bytes() == before
    assert sorted(os.listdir(store.path.parent)) == ["servers.json"]


def test_corrupt_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    broken = '{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}\n'
    path.write_text(broken)
    store = ProfileStore(path)
    with pytest.raises(ProfileError) as info:
        store.load()
    assert str(path) in str(info.value)
    assert "line 3, column 26" in str(info.value)
    store.add(ServerProfile("new", command="y"))
    with pytest.raises(ProfileError, match="not saved"):
        store.save()
    assert path.read_text() == broken

    backup = store.backup_corrupt()
    assert backup is not None and backup.name.startswith("servers.json.corrupt-")
    assert backup.read_text() == broken and not path.exists()
    assert store.profiles() == []
    store.add(ServerProfile("new", command="y"))
    store.save()
    assert ProfileStore(path).load()[0].name == "new"


def test_invalid_entry_in_store_names_server_and_field(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": {"ok": {"command": "x"}, "bad": {"command": "x", "env": {"N": 1}}}}))
    store = ProfileStore(path)
    with pytest.raises(ProfileError, match=r"servers\.json, server 'bad', field 'env\.N': expected a string"):
        store.load()
    with pytest.raises(ProfileError, match="not saved"):
        store.save()


def test_save_without_load_refuses(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    path.write_text('{"mcpServers": {"keep": {"command": "x"}}}')
    with pytest.raises(ProfileError, match="not saved"):
        ProfileStore(path).save()
    assert "keep" in path.read_text()


WRITER = """
import sys
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
path, ident = sys.argv[1], sys.argv[2]
for i in range(40):
    store = ProfileStore(path)
    store.load()
    store.add(ServerProfile(f"{ident}-{i}", command="x", args=["a" * 2000]))
    store.save()
"""


def test_concurrent_writers_never_leave_a_torn_file(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    root = Path(__file__).resolve().parents[2]
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"w{n}"], cwd=root, stderr=subprocess.PIPE)
        for n in range(4)
    ]
    reads = 0
    while any(p.poll() is None for p in procs):
        if path.exists():
            json.loads(path.read_text())  # every version on disk is complete JSON
            reads += 1
    errors = [p.stderr.read().decode() for p in procs if p.stderr]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
    final = ProfileStore(path).load()
    assert final and all(p.args == ["a" * 2000] for p in final)
    assert sorted(os.listdir(tmp_path)) == ["servers.json"]
    assert reads > 0


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (b'{"mcpServers": {"a": {"command": "x\xff"}}}\n', "line 1, column 36"),
        ('{\n "mcpServers": {"caf\u00e9": {"command": "x"}}\n}\n'.encode("latin-1"), "line 2, column 21"),
    ],
)
def test_a_file_that_is_not_utf8_is_a_profile_error_never_overwritten(tmp_path: Path, raw: bytes, where: str) -> None:
    path = tmp_path / "servers.json"
    path.write_bytes(raw)
    store = ProfileStore(path)
    with pytest.raises(ProfileError) as info:
        store.load()
    assert "not UTF-8" in str(info.value) and where in str(info.value) and str(path) in str(info.value)
    store.add(ServerProfile("new", command="y"))
    with pytest.raises(ProfileError, match="not saved"):
        store.save()
    assert path.read_bytes() == raw
    backup = store.backup_corrupt()
    assert backup is not None and backup.read_bytes() == raw


def test_a_file_turned_non_utf8_by_another_program_is_not_overwritten(store: ProfileStore) -> None:
    store.add(ServerProfile("a", command="x"))
    store.save()
    damaged = store.path.read_bytes().replace(b'"x"', b'"x\xe9"')
    store.path.write_bytes(damaged)
    store.add(ServerProfile("b", command="y"))
    with pytest.raises(ProfileError, match=r"not saved.*not UTF-8"):
        store.save()
    assert store.path.read_bytes() == damaged
