"""One malloc arena for every thread (issue 21 point 4): glibc's per-thread arenas kept what one worker
freed from the next (the 50 MB result's case in tests/bench/bench_big_inputs.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from inspector.platform.allocator import one_malloc_arena

CHECK = "from inspector.platform.allocator import one_malloc_arena; print(one_malloc_arena())"


def run(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="requires glibc (mallopt); elsewhere nothing is asked")
def test_glibc_takes_one_arena_unless_the_user_chose() -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    assert run(env) == "True"
    assert run({**env, "MALLOC_ARENA_MAX": "4"}) == "False"  # the user's own setting stays


def test_elsewhere_nothing_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert one_malloc_arena() is False
