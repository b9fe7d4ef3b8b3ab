"""Run every benchmark and print one table: ``python tests/bench/run.py [--quick] [NAME…]``.

It reports and never asserts: a missed target still exits 0; a benchmark that crashes exits 1.
NAME picks benchmarks by module name (e.g. ``roundtrip``).
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path

from common import Row

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
    wanted = [a for a in argv if not a.startswith("-")]
    rows: list[Row] = []
    crashed: list[str] = []
    for name in MODULES:
        if wanted and not any(w in name for w in wanted):
            continue
        started = time.perf_counter()
        try:
            rows.extend(importlib.import_module(name).run())
        except Exception:
            traceback.print_exc()
            crashed.append(name)
        print(f"[{name}: {time.perf_counter() - started:.1f} s]", file=sys.stderr, flush=True)
    print_table(rows)
    sys.stdout.flush()
    if crashed:
        print(f"crashed: {', '.join(crashed)}", file=sys.stderr)
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(BENCH))
    sys.exit(main(sys.argv[1:]))
