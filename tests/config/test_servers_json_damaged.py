"""A servers.json with one byte that is not UTF-8, written as UTF-16 or UTF-32, or cut, opens with what is
intact (outside tester's finding 5): the bad entry is named with its line, the original bytes are kept
beside the file before anything writes it, and a later save drops nothing that was read."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore

NAMES = [f"server {n}" for n in range(1, 9)] + ["memory"]


def saved(folder: Path) -> Path:
    """A servers.json as MCP Lens writes it, nine servers, one with a root (an x-mcp-lens extra)."""
    store = ProfileStore(folder / "servers.json")
    store.load()
    for name in NAMES:
        store.add(ServerProfile(name, command="node", args=[f"/srv/{name}.js"], roots=["/home/zoë"]))
    store.save()
    return store.path


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob("servers.json.corrupt-*"))


def test_one_bad_byte_spoils_only_its_entry_named_with_its_line(tmp_path: Path) -> None:
    path = saved(tmp_path)
    damaged = path.read_bytes().replace(b'"memory"', b'"me\xffmory"', 1)
    path.write_bytes(damaged)
    line = damaged[: damaged.index(b"\xff")].count(b"\n") + 1
    store = ProfileStore(path)
    assert [p.name for p in store.load()] == NAMES[:-1]
    assert store.profiles()[0].roots == ["/home/zoë"]
    assert store.damage is not None
    assert any(f"line {line}" in said and "0xFF" in said for said in store.damage.said), store.damage.said
    assert store.damage_backup is not None and store.damage_backup.read_bytes() == damaged
    assert path.read_bytes() == damaged  # nothing written yet


@pytest.mark.parametrize(("codec", "name"), [("utf-16", "UTF-16"), ("utf-32", "UTF-32")])
def test_a_utf16_or_utf32_file_reads_whole_and_is_saved_as_utf8_after_a_backup(
    tmp_path: Path, codec: str, name: str
) -> None:
    path = saved(tmp_path)
    wide = path.read_text(encoding="utf-8").encode(codec)  # with its byte-order mark
    path.write_bytes(wide)
    store = ProfileStore(path)
    assert [p.name for p in store.load()] == NAMES
    assert store.damage is not None and any(name in said for said in store.damage.said)
    store.add(ServerProfile("added", command="x"))
    store.save()
    assert [b.read_bytes() for b in backups(path)] == [wide]
    path.read_bytes().decode("utf-8")  # saved as UTF-8
    assert [p.name for p in ProfileStore(path).load()] == [*NAMES, "added"]


def test_a_cut_file_keeps_every_whole_entry_and_says_where_it_was_cut(tmp_path: Path) -> None:
    path = saved(tmp_path)
    whole = path.read_bytes()
    cut = whole[: whole.index(b'"server 6"') + 20]
    path.write_bytes(cut)
    store = ProfileStore(path)
    assert [p.name for p in store.load()] == NAMES[:5]
    assert store.damage is not None and any("server 'server 5'" in said for said in store.damage.said)
    store.add(ServerProfile("added", command="x"))
    store.save()
    assert [b.read_bytes() for b in backups(path)] == [cut]
    assert [p.name for p in ProfileStore(path).load()] == [*NAMES[:5], "added"]


def test_loading_the_same_damaged_file_again_keeps_one_backup(tmp_path: Path) -> None:
    path = saved(tmp_path)
    path.write_bytes(path.read_bytes().replace(b'"memory"', b'"me\xffmory"', 1))
    ProfileStore(path).load()
    ProfileStore(path).load()
    assert len(backups(path)) == 1
