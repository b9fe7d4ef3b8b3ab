"""Run every benchmark and print one table: ``python tests/bench/run.py [--quick] [--save] [--compare] [NAME…]``.

It reports and never asserts: a missed target still exits 0; a benchmark that crashes exits 1.
NAME picks benchmarks by module name (e.g. ``roundtrip``).

- ``--save``: write this run's rows, per module, with date, load average and machine to
  ``tests/bench/baseline.json`` (committed; modules not run keep their saved run) — see `memory.py`.
- ``--compare``: print each figure against the saved one; a ratio that moved by more than 25 % is marked.
- ``--readme``: rewrite the README's Performance table from the saved file (alone: without running
  anything; with ``--save``: after saving this run).
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path

import memory
from common import Row, quick

BENCH = Path(__file__).resolve().parent
MODULES = (
    "bench_roundtrip",
    "bench_cli_startup",
    "bench_eras",
    "bench_forms",
    "bench_flood",
    "bench_isolation",
    "bench_tokens",
    "bench_startup",
    "bench_tap",
    "bench_records",
    "bench_big_inputs",
    "bench_http_official",
    "bench_cli_memory",
    "bench_tokens_tools",
    "bench_replay",
)
HEADERS = ("name", "figure", "unit", "baseline", "ratio", "target", "verdict")


def _num(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3g}" if abs(value) < 100 else f"{value:,.0f}"


def print_table(rows: list[Row]) -> None:
    cells = [HEADERS] + [
        (r.name, _num(r.figure), r.unit, _num(r.baseline), _num(r.ratio), r.target or "-", r.verdict) for r in rows
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(HEADERS))]
    for n, row in enumerate(cells):
        print(
            "  ".join(
                c.ljust(w) if i in (0, 2, 5, 6) else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
        if n == 0:
            print("  ".join("-" * w for w in widths))


def main(argv: list[str]) -> int:
    if "-h" in argv or "--help" in argv:  # before: taken as no NAME, so every benchmark ran (~10 min)
        print(__doc__)
        return 0
    wanted = [a for a in argv if not a.startswith("-")]
    if "--readme" in argv and "--save" not in argv:
        memory.write_readme(MODULES)
        return 0
    rows: list[Row] = []
    by_module: dict[str, list[Row]] = {}
    saved: set[str] = set()
    before = memory.read()  # --compare: against the run saved before this one
    crashed: list[str] = []
    for name in MODULES:
        if wanted and not any(w in name for w in wanted):
            continue
        started, load_before = time.perf_counter(), memory.load()
        try:
            got = importlib.import_module(name).run()
        except Exception:
            traceback.print_exc()
            crashed.append(name)
            continue
        finally:
            print(f"[{name}: {time.perf_counter() - started:.1f} s]", file=sys.stderr, flush=True)
        rows.extend(got)
        by_module[name] = got
        loads = [load_before, memory.load()]
        if got and "--save" in argv:  # saved as each finishes; one that skipped keeps its last saved run
            memory.save({name: memory.entry(got, loads, time.perf_counter() - started, quick())})
            saved.add(name)
    print_table(rows)
    sys.stdout.flush()
    if "--compare" in argv:
        memory.compare(by_module, before)
    if "--readme" in argv and saved:
        memory.write_readme(MODULES)
    if crashed:
        print(f"crashed: {', '.join(crashed)}", file=sys.stderr)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(BENCH))
    sys.exit(main(sys.argv[1:]))
