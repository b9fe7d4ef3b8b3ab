"""Whole-process wall time of `mcp-lens --cli node <server-everything> stdio --method tools/list`.

Beside it: a bare SDK client script doing the same, and a raw stdlib JSON-RPC script (the floor).
Runs are interleaved; the median of each counts.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from common import BENCH, EVERYTHING, PYTHON, Row, median, quick

TARGET_SECONDS = 0.8
SERVER = ["node", str(EVERYTHING), "stdio"]
SCRIPT = Path(PYTHON).parent / "mcp-lens"
CLI = ["--cli", *SERVER, "--method", "tools/list"]

VARIANTS: dict[str, list[str]] = {
    "mcp-lens --cli (python -m inspector)": [PYTHON, "-m", "inspector", *CLI],
    "mcp-lens --cli (.venv/bin/mcp-lens)": [str(SCRIPT), *CLI],
    "bare SDK client script": [PYTHON, str(BENCH / "clients/sdk_list_tools.py"), *SERVER],
    "raw stdlib JSON-RPC script (floor)": [PYTHON, str(BENCH / "clients/raw_list_tools.py"), *SERVER],
}
SDK = "bare SDK client script"


def _time(argv: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, timeout=60, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"{argv[:3]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def run() -> list[Row]:
    if not EVERYTHING.is_file():
        raise FileNotFoundError(f"{EVERYTHING} is missing: run `npm ci` in tests/servers")
    runs = 3 if quick() else 7
    times: dict[str, list[float]] = {name: [] for name in VARIANTS}
    for argv in VARIANTS.values():  # one untimed run each: page cache, .pyc files
        _time(argv)
    for _ in range(runs):
        for name, argv in VARIANTS.items():
            times[name].append(_time(argv))
    sdk = median(times[SDK])
    rows: list[Row] = []
    for name in VARIANTS:
        figure = median(times[name])
        ours = name.startswith("mcp-lens")
        target = f"<= {TARGET_SECONDS} s" if ours else ""
        rows.append(
            Row(
                f"cli tools/list: {name}",
                figure,
                "s",
                sdk,
                figure / sdk,
                target,
                figure <= TARGET_SECONDS if ours else None,
            )
        )
    return rows


if __name__ == "__main__":
    from run import print_table

    print_table(run())
