"""Property-based (issue 21 point 3): a servers.json as MCP Lens writes it, with one byte that is not UTF-8
put anywhere, re-encoded as UTF-16, or cut anywhere, loads every server entry the damage did not touch,
says what it left out, and keeps the file's bytes beside it before a save, which drops no server it read."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore

SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
NAMES = ["alpha", "café ✓", "gamma", "delta", "omega"]


def written(folder: Path) -> tuple[bytes, dict[str, tuple[int, int]]]:
    """The file, and each server entry's byte span in it (its name's quote to its closing brace)."""
    made = folder / "made" / "servers.json"
    made.unlink(missing_ok=True)  # hypothesis runs every example in one tmp_path
    store = ProfileStore(made)
    store.load()
    for name in NAMES:
        store.add(ServerProfile(name, command="node", args=[f"{name}.js"], env={"MODE": "débug"}))
    store.save()
    raw = store.path.read_bytes()
    table = raw[: raw.index(b'"x-mcp-lens"')]
    starts = [m.start() for m in re.finditer(rb'\n    "', table)] + [table.rindex(b"\n  }")]
    spans = {}
    for name, start, end in zip(NAMES, starts, starts[1:], strict=False):
        spans[name] = (start + 1, end)
    return raw, spans


@SETTINGS
@given(where=st.floats(0, 1), how=st.sampled_from(["bad byte", "cut"]))
def test_every_entry_the_damage_did_not_touch_is_loaded_and_the_loss_said(tmp_path: Path, where, how) -> None:
    raw, spans = written(tmp_path)
    table_end = raw.index(b'"x-mcp-lens"')
    at = int(where * table_end)
    damaged = raw[:at] + b"\xff" + raw[at:] if how == "bad byte" else raw[:at]
    path = tmp_path / "servers.json"
    path.write_bytes(damaged)
    intact = [n for n, (s, e) in spans.items() if (at < s or at > e) if how == "bad byte" or e < at]
    store = ProfileStore(path)
    try:
        loaded = [p.name for p in store.load()]
    except ValueError as exc:  # nothing intact: refused in words, as before
        assert not intact and str(path) in str(exc)
        return
    assert set(intact) <= set(loaded), (at, how)
    if loaded != NAMES:
        assert store.damage is not None and store.damage.said
    if store.damage is not None:
        assert store.damage_backup is not None and store.damage_backup.read_bytes() == damaged
    store.add(ServerProfile("added", command="x"))
    store.save()
    assert [p.name for p in ProfileStore(path).load()] == [*loaded, "added"]


def test_a_utf16_file_loads_every_entry(tmp_path: Path) -> None:
    raw, _ = written(tmp_path)
    path = tmp_path / "servers.json"
    path.write_bytes(raw.decode().encode("utf-16"))
    assert [p.name for p in ProfileStore(path).load()] == NAMES
