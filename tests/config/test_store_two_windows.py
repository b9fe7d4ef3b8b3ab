"""Two app windows (two processes, each with its own long-lived ProfileStore) saving at the same time.

Each window loads the file once, as the app does at start, then keeps editing and saving. Nothing
either of them saved may be lost, a deletion by one must stick, and the file must parse at every
moment a third process looks at it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lens_support import REPO

from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore

ROUNDS = 25

WINDOW = """
import sys, time
from pathlib import Path
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
path, ident, go, rounds = sys.argv[1], sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
store = ProfileStore(path)
store.load()                      # once, like a window at start-up
while not go.exists():
    time.sleep(0.001)
if ident == "a":
    store.delete("shared-0")
    store.save()
else:
    store.update(ServerProfile("shared-1", command="edited-by-b"))
    store.save()
for i in range(rounds):
    store.add(ServerProfile(f"{ident}-{i}", command="x", args=["a" * 500]))
    store.save()
"""


@pytest.mark.skipif(os.name != "posix", reason="the lock is POSIX flock; Windows saves stay atomic only")
def test_two_windows_saving_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    seed = ProfileStore(path)
    seed.load()
    for n in range(3):
        seed.add(ServerProfile(f"shared-{n}", command="x"))
    seed.save()
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    windows = [
        subprocess.Popen(
            [sys.executable, "-c", WINDOW, str(path), ident, str(go), str(ROUNDS)], env=env, stderr=subprocess.PIPE
        )
        for ident in ("a", "b")
    ]
    time.sleep(0.5)  # both have loaded
    go.touch()
    reads = 0
    while any(w.poll() is None for w in windows):
        json.loads(path.read_text())  # never a torn or half-merged file
        reads += 1
    errors = [w.stderr.read().decode() for w in windows if w.stderr]
    assert [w.returncode for w in windows] == [0, 0], errors

    final = ProfileStore(path)
    names = {p.name for p in final.load()}
    expected = {f"{ident}-{i}" for ident in "ab" for i in range(ROUNDS)} | {"shared-1", "shared-2"}
    assert names == expected, f"lost: {sorted(expected - names)}; unexpected: {sorted(names - expected)}"
    assert final.get("shared-1").command == "edited-by-b"
    assert reads > 0
    assert sorted(os.listdir(tmp_path)) == ["go", "servers.json"]  # no temp or lock files left behind


def test_a_save_keeps_what_another_store_saved_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "servers.json"
    first, second = ProfileStore(path), ProfileStore(path)
    first.load()
    second.load()
    first.add(ServerProfile("from-first", command="x"))
    first.save()
    second.add(ServerProfile("from-second", command="y"))
    second.rename("from-second", "renamed")
    second.save()
    # the saving store keeps its own order and now holds the other's profile too (after its own)
    assert [p.name for p in ProfileStore(path).load()] == ["renamed", "from-first"]
    assert second.names() == ["renamed", "from-first"]
    first.delete("from-first")
    first.save()
    assert [p.name for p in ProfileStore(path).load()] == ["renamed"]
