"""`mcp-lens replay` at scale, each figure beside the same work in the same run.

A record of the demo server is made through `mcp-lens tap` (a raw client: the handshake, then echo calls
cycling through 1,000 messages, written at once): 100,000 messages (`--quick`: 10,000).
- mock: the record's requests written at once to `mcp-lens replay RECORD --fast` and every answer read:
  requests answered per second, against the same requests to the real demo server.
- memory: the mock's peak resident memory (VmHWM) serving the whole record, against serving a tenth of
  it: the record index keeps offsets and keys, not messages, so ten times the record is not ten times
  the memory.
- regression run: `mcp-lens replay RECORD --against <the demo>`, every answer compared, against the same
  requests sent one at a time to the demo by a raw client (a run waits for each answer before the next);
  its peak memory against the run of a tenth of the record.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

from common import DEMO, PYTHON, ROOT, Row, quick

TAP = [PYTHON, "-m", "inspector", "tap", "--name", "bench", "--"]
REPLAY = [PYTHON, "-m", "inspector", "replay"]
DISTINCT = 1000
HANDSHAKE = [
    {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


def requests(count: int) -> list[bytes]:
    """The handshake and `count` echo calls, one JSON line each."""
    calls = [
        {
            "jsonrpc": "2.0",
            "id": n + 1,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"message": f"message {n % DISTINCT}"}},
        }
        for n in range(count)
    ]
    return [json.dumps(m).encode() + b"\n" for m in (*HANDSHAKE, *calls)]


def _peak_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return int(next(line for line in status if line.startswith("VmHWM:")).split()[1])


def drive(
    argv: list[str], env: dict[str, str], lines: list[bytes], *, one_at_a_time: bool = False, window: int = 0
) -> tuple[float, int]:
    """Write `lines` to `argv` (all at once, `window` at a time, or each after the last answer) and read an
    answer per request: (seconds from the first call to the last answer, the process's peak memory in kB)."""
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, bufsize=0
    )
    assert proc.stdin is not None and proc.stdout is not None
    out_fd, in_fd = proc.stdin.fileno(), proc.stdout.fileno()
    try:
        os.write(out_fd, lines[0] + lines[1])  # the handshake (the process's start-up is not timed)
        got = os.read(in_fd, 1 << 16)
        while not got.endswith(b"\n"):
            got += os.read(in_fd, 1 << 16)
        calls = lines[2:]
        started = time.perf_counter()
        if one_at_a_time:
            for line in calls:
                os.write(out_fd, line)
                got = os.read(in_fd, 1 << 16)
                while not got.endswith(b"\n"):
                    got += os.read(in_fd, 1 << 16)
        else:
            os.set_blocking(out_fd, False)
            received, step = 0, window or len(calls)
            for start in range(0, len(calls), step):
                view = memoryview(b"".join(calls[start : start + step]))
                while received < min(start + step, len(calls)):
                    if view:
                        with contextlib.suppress(BlockingIOError):
                            view = view[os.write(out_fd, view) :]
                    received += os.read(in_fd, 1 << 20).count(b"\n")
        elapsed = time.perf_counter() - started
        peak = _peak_kb(proc.pid)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    return elapsed, peak


PEAK = """
import atexit, runpy, sys
def peak():
    hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")][0]
    sys.stderr.write("peak-kb %s\\n" % hwm.split()[1])
atexit.register(peak)
sys.argv = ["mcp-lens", *sys.argv[1:]]
runpy.run_module("inspector", run_name="__main__")
"""


def against(record: Path, env: dict[str, str], expected: int) -> tuple[float, int]:
    """`mcp-lens replay RECORD --against <the demo>`: (seconds, its peak memory in kB); every answer must pass."""
    started = time.perf_counter()
    argv = [PYTHON, "-c", PEAK, "replay", str(record), "--format", "json", "--against", *DEMO]
    done = subprocess.run(argv, capture_output=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    report = json.loads(done.stdout)
    if done.returncode != 0 or len(report["requests"]) != expected:
        raise RuntimeError(f"the regression run did not pass: {report['counts']}, {report['ended']}")
    peak = [line for line in done.stderr.decode(errors="replace").splitlines() if line.startswith("peak-kb ")]
    return elapsed, int(peak[-1].split()[1])


def make_record(folder: Path, env: dict[str, str], count: int) -> Path:
    # 1,000 in flight at most: a host never has more (and the tap pairs at most 10,000 waiting requests)
    drive([*TAP, *DEMO], {**env, "XDG_DATA_HOME": str(folder)}, requests(count), window=1000)
    (record,) = (folder / "mcp-lens/taps").glob("*.jsonl")
    return record


def run() -> list[Row]:
    messages = 10_000 if quick() else 100_000
    count = messages // 2 - 1  # requests and their answers, with the handshake
    with tempfile.TemporaryDirectory(prefix="bench-replay-") as work:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        full = make_record(Path(work) / "full", env, count)
        tenth = make_record(Path(work) / "tenth", env, count // 10)
        lines = requests(count)
        demo_s, _ = drive(DEMO, env, lines)
        mock_s, mock_kb = drive([*REPLAY, str(full), "--fast"], env, lines)
        small_s, small_kb = drive([*REPLAY, str(tenth), "--fast"], env, requests(count // 10))
        sequential_s, _ = drive(DEMO, env, lines, one_at_a_time=True)
        against_s, against_kb = against(full, env, count + 1)
        _, against_small_kb = against(tenth, env, count // 10 + 1)
        record_mb = full.stat().st_size / 1e6
    rows = [
        Row(f"replay mock: {count:,} requests answered, demo server", count / demo_s, "req/s", None, 1.0),
        Row(
            f"replay mock: {count:,} requests answered, mcp-lens replay --fast ({record_mb:.0f} MB record)",
            count / mock_s,
            "req/s",
            count / demo_s,
            mock_s / demo_s,
            "<= 1.0x (a mock no slower than the server)",
            mock_s <= demo_s,
        ),
        Row(
            f"replay mock: peak memory, {messages:,}-message record",
            mock_kb / 1024,
            "MB",
            small_kb / 1024,
            mock_kb / small_kb,
            "<= 1.5x the tenth's (flat with the record's size)",
            mock_kb <= 1.5 * small_kb,
        ),
        Row(
            f"replay --against the demo: {count + 1:,} requests compared",
            against_s,
            "s",
            sequential_s,
            against_s / sequential_s,
            "<= 3x a raw client's sequential requests (process starts included)",
            against_s <= 3 * sequential_s,
        ),
    ]
    rows.append(
        Row(
            f"replay --against: peak memory, {messages:,}-message record",
            against_kb / 1024,
            "MB",
            against_small_kb / 1024,
            against_kb / against_small_kb,
            "<= 1.5x the tenth's (flat with the record's size)",
            against_kb <= 1.5 * against_small_kb,
        )
    )
    del small_s
    return rows
