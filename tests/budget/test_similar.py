"""The near-duplicate index: stable answers, and in-place updates equal to a fresh build."""

from __future__ import annotations

import random
import subprocess
import sys

from lens_support import REPO

from inspector.budget.similar import MAX_BUCKET, NearIndex, resemblance, sketch


def vocabulary(rng: random.Random, size: int = 2000) -> list[str]:
    return [
        "".join(rng.choice("bcdfghklmnprst") + rng.choice("aeiou") for _ in range(rng.randint(2, 4)))
        for _ in range(size)
    ]


def test_updates_in_place_match_a_fresh_build() -> None:
    rng = random.Random(9)
    words = vocabulary(rng)
    base = " ".join(rng.choice(words) for _ in range(20))
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(8, 30))) for _ in range(300)]
    for n in range(0, 300, 7):  # a family bigger than a bucket, so the neighbour rule is exercised too
        texts[n] = base.replace(base.split()[n % 20], f"w{n}", 1)
    assert sum(1 for t in texts if t.startswith(base[:10])) > MAX_BUCKET // 2
    index = NearIndex()
    for step in range(120):
        n = rng.randrange(len(texts))
        action = rng.random()
        if action < 0.4:
            texts[n] = texts[rng.randrange(len(texts))] + " " + rng.choice(words)  # a near copy of another
        elif action < 0.7:
            texts[n] = " ".join(rng.choice(words) for _ in range(rng.randint(8, 30)))
        elif action < 0.8:
            texts[n] = "short"
        else:
            texts[n] = texts[n] + " " + rng.choice(words)
        incremental = index.find(list(texts), 0.9)
        fresh = NearIndex()
        fresh.sketches, fresh.ratios = index.sketches, index.ratios  # shared caches: the buckets are under test
        assert incremental == fresh.find(list(texts), 0.9), step


def test_answers_are_the_same_in_another_process() -> None:
    code = (
        "from inspector.budget.similar import sketch;"
        "print(sketch('search the customer database for orders placed in the last thirty days'))"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            cwd=REPO,
            env={"PYTHONPATH": str(REPO), "PYTHONHASHSEED": str(seed)},
            check=True,
        ).stdout
        for seed in (1, 2)
    }
    assert len(runs) == 1


def test_resemblance_estimates_jaccard() -> None:
    a = "return the current temperature reading from the sensor network in si units for one room today"
    b = a.replace("temperature", "humidity")
    c = "open the garage door after checking the camera and the weather forecast for the evening"
    assert resemblance(sketch(a), sketch(b)) > 0.4
    assert resemblance(sketch(a), sketch(c)) < 0.4
    assert resemblance(sketch(a), sketch(a)) == 1.0
