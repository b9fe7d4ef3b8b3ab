"""Property-based: a collection file cut, corrupted and re-encoded at random is opened or refused with a
message naming the file (never a Traceback), and a save into a damaged file refuses and changes nothing."""

from __future__ import annotations

from pathlib import Path

from damage_support import apply_damage, damages
from hypothesis import HealthCheck, given, settings

from inspector.checks.collection import Collection, CollectionError, load, update

SETTINGS = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def a_collection() -> bytes:
    collection = Collection("smoke ✓")
    collection.add_step("tools/list", {}, server="Demo server", expect=[{"kind": "success"}])
    collection.add_step(
        "tools/call", {"name": "echo", "arguments": {"message": "café"}}, server="Demo server", name="écho"
    )
    collection.add_step(
        "resources/read", {"uri": "demo://zoë"}, expect=[{"kind": "contains", "path": "$", "value": "ü"}]
    )
    return collection.dumps().encode()


@SETTINGS
@given(ops=damages())
def test_a_damaged_collection_opens_or_is_refused_in_words_and_a_save_never_overwrites_it(tmp_path: Path, ops) -> None:
    damaged = apply_damage(a_collection(), ops)
    path = tmp_path / "smoke.json"
    path.write_bytes(damaged)
    try:
        opened = load(path)
    except CollectionError as exc:
        assert str(path) in str(exc) or path.name in str(exc)
        try:
            update(path, lambda c: c.add_step("ping", {}))
        except CollectionError:
            pass
        else:
            raise AssertionError("a save replaced a collection it could not read")
        assert path.read_bytes() == damaged
        return
    steps = len(opened.steps)
    merged, _ = update(path, lambda c: c.add_step("ping", {}))
    assert len(load(path).steps) == steps + 1 == len(merged.steps)
