"""What `mcp-lens tap` costs a host, each figure beside the same work without the tap in the same run.

- start-up: process start to the `tools/list` answer from server-everything (the raw stdlib client of
  `clients/raw_list_tools.py`), direct vs through the tap (`python -m inspector tap -- …`).
- per message: a minimal echo server (answers each line at once) driven by a raw client: N sequential
  ping round trips (µs per round trip: two messages, both recorded), and N pings written at once then
  their N answers read (µs per message pair, throughput); and the same through a tap that cannot
  record (its folder is a file), which separates the relay's cost from the recorder's.
Records go to a temporary data folder. Runs are interleaved; medians count.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import BENCH, EVERYTHING, PYTHON, ROOT, Row, median, quick

SERVER = ["node", str(EVERYTHING), "stdio"]
TAP = [PYTHON, "-m", "inspector", "tap", "--name", "bench", "--"]
RAW_CLIENT = [PYTHON, str(BENCH / "clients/raw_list_tools.py")]
ECHO = r"""
import os
rest = b""
while data := os.read(0, 1 << 16):
    lines = (rest + data).split(b"\n")
    rest = lines.pop()
    out = b"".join(b'{"jsonrpc":"2.0","id":' + l[l.index(b'"id":') + 5 : l.index(b',"method"')] + b',"result":{}}\n'
                   for l in lines if l)
    os.write(1, out)
"""


def _time(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, timeout=60, check=False, env=env)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, -9) or not done.stdout.strip():
        raise RuntimeError(f"{argv[:4]} exited {done.returncode}: {done.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def _pings(argv: list[str], env: dict[str, str], count: int) -> tuple[float, float]:
    """(µs per sequential round trip, µs per pipelined message pair)."""
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0
    )
    assert proc.stdin is not None and proc.stdout is not None
    out_fd, in_fd = proc.stdin.fileno(), proc.stdout.fileno()
    lines = [b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % n for n in range(count)]
    try:
        os.write(out_fd, lines[0])  # warm up (the tap's start, the server's start)
        os.read(in_fd, 1 << 16)
        started = time.perf_counter()
        for line in lines:
            os.write(out_fd, line)
            got = os.read(in_fd, 1 << 16)
            while not got.endswith(b"\n"):
                got += os.read(in_fd, 1 << 16)
        sequential = (time.perf_counter() - started) / count * 1e6
        started = time.perf_counter()
        payload = b"".join(lines)
        received = 0
        view = memoryview(payload)
        os.set_blocking(out_fd, False)
        while received < count:
            if view:
                with contextlib.suppress(BlockingIOError):
                    view = view[os.write(out_fd, view) :]
            received += os.read(in_fd, 1 << 16).count(b"\n")
        pipelined = (time.perf_counter() - started) / count * 1e6
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    return sequential, pipelined


def run() -> list[Row]:
    if not EVERYTHING.is_file():
        raise FileNotFoundError(f"{EVERYTHING} is missing: run `npm ci` in tests/servers")
    with tempfile.TemporaryDirectory(prefix="bench-tap-") as data_home:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": data_home}
        echo = Path(data_home) / "echo.py"
        echo.write_text(ECHO)
        runs, count = (3, 2000) if quick() else (7, 10_000)
        variants = {"direct": [*RAW_CLIENT, *SERVER], "through the tap": [*RAW_CLIENT, *TAP, *SERVER]}
        starts: dict[str, list[float]] = {name: [] for name in variants}
        for argv in variants.values():
            _time(argv, env)  # untimed: page cache, .pyc files
        for _ in range(runs):
            for name, argv in variants.items():
                starts[name].append(_time(argv, env))
        server = [PYTHON, str(echo)]
        blocked = Path(data_home) / "not-a-folder"  # the tap cannot record here: the relay alone
        blocked.write_text("")
        no_record = {**env, "XDG_DATA_HOME": str(blocked)}
        seq: dict[str, list[float]] = {"direct": [], "tap": [], "relay": []}
        pipe: dict[str, list[float]] = {"direct": [], "tap": [], "relay": []}
        for _ in range(3):
            for name, argv, environ in (
                ("direct", server, env),
                ("tap", [*TAP, *server], env),
                ("relay", [*TAP, *server], no_record),
            ):
                s, p = _pings(argv, environ, count)
                seq[name].append(s)
                pipe[name].append(p)
        recorded = sum(f.stat().st_size for f in (Path(data_home) / "mcp-lens/taps").glob("*.jsonl"))
    direct, tapped = median(starts["direct"]), median(starts["through the tap"])
    rows = [
        Row("tap start-up: tools/list from process start, direct", direct, "s", direct, 1.0),
        Row("tap start-up: tools/list from process start, tapped", tapped, "s", direct, tapped / direct),
        Row("tap start-up: added by the tap", (tapped - direct) * 1000, "ms"),
    ]
    for label, table, unit in (("sequential round trip", seq, "µs/rt"), ("pipelined message pair", pipe, "µs/pair")):
        base, ours = median(table["direct"]), median(table["tap"])
        rows.append(Row(f"tap {count:,} pings, {label}, direct", base, unit, base, 1.0))
        rows.append(Row(f"tap {count:,} pings, {label}, tapped", ours, unit, base, ours / base))
        rows.append(Row(f"tap {count:,} pings, {label}, added by the tap", ours - base, unit))
        relay = median(table["relay"])
        rows.append(Row(f"tap {count:,} pings, {label}, tap not recording", relay, unit, base, relay / base))
    rows.append(Row("tap record written in this run", recorded / 1e6, "MB"))
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(BENCH))
    from run import print_table

    print_table(run())
