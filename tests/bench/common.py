"""Shared bits for the benchmarks: the result row, paths, and small statistics helpers."""

from __future__ import annotations

import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = Path(__file__).resolve().parent
PYTHON = sys.executable
EVERYTHING = ROOT / "tests/servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
DEMO = [PYTHON, "-m", "inspector.demo"]


@dataclass(frozen=True, slots=True)
class Row:
    """One measured figure. `target` is text for the table; `ok` is None when there is no target."""

    name: str
    figure: float
    unit: str
    baseline: float | None = None  # the same figure for the reference client
    ratio: float | None = None  # ours / reference, per unit of work (lower is better)
    target: str = ""
    ok: bool | None = None

    @property
    def verdict(self) -> str:
        return "-" if self.ok is None else ("ok" if self.ok else "MISS")


def median(values: list[float]) -> float:
    return statistics.median(values)


def quick() -> bool:
    return "--quick" in sys.argv[1:]
