"""Big inputs in the app: 5,000 tools, a 1 MB description, a 50 MB result, a 20 MB icon (issue 21).

Each case is one run of `big_app_probe.py` in a fresh process: MCP Lens as launched (offscreen) on
`tests/servers/big.py MODE`, driven as a person would (connect, select the tool, resize the window,
press Call for the result, open the Budget tab). It reports the longest stall of the event loop over
those steps (a 5 ms timer's longest lateness) and the process's peak resident memory. The baseline,
in the same run, is the same steps against `big.py small` (three ordinary tools): the stall's target
is absolute (under 100 ms), the memory's is relative: what the big case adds over the baseline's peak,
at most twice the payload (the largest message the server sent). A list of small values costs several
times its JSON in any Python process that holds it parsed (5,000 tool dicts: ~12 MB for 1.8 MB of
JSON), so each case also runs the floor, `clients/raw_hold.py`: a stdlib client that fetches the same
answers and keeps each line and its parsed value (what an inspector holds at least), measured as the
memory it holds over the same client against `big.py small`. Where that floor is over twice the
payload, the target is twice the floor instead. The first opening of the Budget tab
builds tiktoken's encoder (`CoreBPE`, ~0.25 s holding the GIL, once per process, whatever the server's
size): it is its own row, from the baseline's run, and left out of each case's longest stall, which is
the window waiting on the server's size.

``python tests/bench/bench_big_inputs.py [--quick]`` prints the table on its own (``--quick``: a
2,000-tool list, a 10 MB result and a 5 MB icon).
"""

from __future__ import annotations

import json
import subprocess
import sys

from common import BENCH, PYTHON, Row, quick

PROBE = BENCH / "big_app_probe.py"
FLOOR = BENCH / "clients" / "raw_hold.py"
BIG = BENCH.parent / "servers" / "big.py"
TARGET_STALL_MS = 100.0
TARGET_MEMORY_RATIO = 2.0  # added peak memory ÷ payload
ONCE_PER_PROCESS = "budget tab"  # the probe's step that builds the tokenizer
CALLED = {"result": "big_result"}  # the tool the probe calls, per mode
CASES = (  # (name, mode, size, quick size)
    ("5,000 tools", "tools", 5_000, 2_000),
    ("1 MB description", "description", 1_000_000, 1_000_000),
    ("50 MB result", "result", 50_000_000, 10_000_000),
    ("20 MB icon", "icon", 20_000_000, 5_000_000),
)


def probe(mode: str, size: int) -> dict:
    proc = subprocess.run(
        [PYTHON, str(PROBE), mode, str(size)], capture_output=True, text=True, timeout=900, check=False
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"probe {mode} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return json.loads(lines[-1])


def floor(mode: str, size: int) -> float:
    """MB a stdlib client holds after fetching `big.py MODE SIZE`'s answers (lines and parsed values)."""
    argv = [PYTHON, str(FLOOR), CALLED.get(mode, "-"), PYTHON, str(BIG), mode, str(size)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=900, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"floor {mode} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return float(proc.stdout.split()[-1])


def _size_stall(outcome: dict) -> float:
    """The longest stall over the steps that depend on the server (all but the Budget tab's first build)."""
    return max(ms for step, ms in outcome["stalls_ms"].items() if step != ONCE_PER_PROCESS)


def run() -> list[Row]:
    base = probe("small", 0)
    base_stall = _size_stall(base)
    base_floor = floor("small", 0)
    rows: list[Row] = [
        Row(
            "Budget tab first opened (tokenizer built, once per process; small server)",
            base["stalls_ms"].get(ONCE_PER_PROCESS, 0.0),
            "ms",
        )
    ]
    for name, mode, size, small in CASES:
        if quick():
            name = f"{name} (quick: {small:,})"
        got = probe(mode, small if quick() else size)
        held = floor(mode, small if quick() else size) - base_floor
        steps = ", ".join(f"{step} {ms:.0f}" for step, ms in got["stalls_ms"].items())
        peaks = ", ".join(f"{step} {mb:.0f}" for step, mb in got.get("peaks_mb", {}).items())
        print(f"[big inputs: {name}: stalls {steps} ms; peak after each step {peaks} MB]", file=sys.stderr)
        stall = _size_stall(got)
        added = got["peak_mb"] - base["peak_mb"]
        payload = got["payload_mb"]
        by_floor = held > TARGET_MEMORY_RATIO * payload  # holding it parsed at all takes more than 2x
        reference = held if by_floor else payload
        rows.append(
            Row(
                f"{name}: longest UI stall (connect, select, resize, call)",
                stall,
                "ms",
                base_stall,
                stall / base_stall if base_stall else None,
                f"< {TARGET_STALL_MS:.0f}",
                stall < TARGET_STALL_MS,
            )
        )
        floor_name = f"  floor: a stdlib client holding the lines and values ({payload:.1f} MB payload)"
        rows.append(Row(floor_name, held, "MB"))
        rows.append(
            Row(
                f"  peak memory added (over {base['peak_mb']:.0f} MB; baseline = {'floor' if by_floor else 'payload'})",
                added,
                "MB",
                reference,
                added / reference if reference else None,
                f"<= {TARGET_MEMORY_RATIO:.0f}x {'floor (> 2x payload)' if by_floor else 'payload'}",
                added <= TARGET_MEMORY_RATIO * reference,
            )
        )
    return rows


if __name__ == "__main__":
    from run import print_table

    print_table(run())
