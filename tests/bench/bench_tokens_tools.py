"""`mcp-lens tokens` on lists of 10 / 100 / 1,000 / 5,000 tools, whole process, against the raw floor.

The server is `tests/servers/big.py tools N` (N tools, each with its own small valid schema). Ours:
`mcp-lens tokens --encoding o200k_base CMD` (the full report: three parts per tool, findings, lints).
The floor, in the same run, interleaved: `clients/raw_tokens.py` fetches the list with raw JSON-RPC and
encodes it once with tiktoken. Target (issue 23): 5,000 tools within 2× the floor.

Both sides may write bytecode (into a temporary `PYTHONPYCACHEPREFIX`, never the tree), as an installed
package has it: with `PYTHONDONTWRITEBYTECODE=1` in the environment every run of ours compiled the ~46
modules it imports again (~0.07–0.1 s of CPU here), against the floor's four.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time

from common import BENCH, PYTHON, ROOT, Row, median, quick

BIG = ROOT / "tests/servers/big.py"
SIZES = (10, 100, 1_000, 5_000)
TARGET = 2.0  # for 5,000 tools


def _time(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        argv, capture_output=True, timeout=300, check=False, cwd=ROOT, stdin=subprocess.DEVNULL, env=env
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(f"{argv[:4]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def run() -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="mcp-lens-pyc-") as pycache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        return _rows({**env, "PYTHONPYCACHEPREFIX": pycache})


def _rows(env: dict[str, str]) -> list[Row]:
    runs = 3 if quick() else 5
    rows: list[Row] = []
    for size in SIZES:
        server = [PYTHON, str(BIG), "tools", str(size)]
        variants = {
            "ours": [PYTHON, "-m", "inspector", "tokens", "--encoding", "o200k_base", *server],
            "floor": [PYTHON, str(BENCH / "clients/raw_tokens.py"), *server],
        }
        times: dict[str, list[float]] = {name: [] for name in variants}
        for argv in variants.values():  # one untimed run each: page cache, .pyc files
            _time(argv, env)
        for _ in range(runs):
            for name, argv in variants.items():
                times[name].append(_time(argv, env))
        ours, floor = median(times["ours"]), median(times["floor"])
        target = size == SIZES[-1]
        rows.append(
            Row(
                f"mcp-lens tokens, {size:,} tools, whole process (vs raw fetch + tiktoken encode)",
                ours,
                "s",
                floor,
                ours / floor,
                f"<= {TARGET:g}x floor" if target else "",
                ours / floor <= TARGET if target else None,
            )
        )
    return rows


if __name__ == "__main__":
    from run import print_table

    print_table(run())
