"""The 2026-07-28 era against the handshake era, same machine, same run, interleaved.

- `mcp-lens --cli <demo> --method tools/list` as a whole process, `--protocol-era modern` against
  `legacy` (baseline): modern saves the initialize round trip and the initialized notification.
- connect + `tools/list` in process against the demo over Streamable HTTP (no process start-up in
  the figure), modern against legacy.
- the `auto` probe's cost on a handshake-era stdio server that never answers `server/discover`
  (tests/servers/silent_legacy.py), against `legacy` on the same server: the price of one
  unanswered probe, paid once per profile (the app remembers the answer).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time

from common import DEMO, PYTHON, ROOT, Row, median, quick

sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from lens_support import free_port, serve

SILENT = [PYTHON, str(ROOT / "tests/servers/silent_legacy.py")]


def _cli(era: str, server: list[str]) -> float:
    argv = [PYTHON, "-m", "inspector", "--cli", "--protocol-era", era, *server, "--method", "tools/list"]
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, timeout=60, check=False, cwd=ROOT)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{era}: exited {done.returncode}: {done.stderr.decode(errors='replace')[-1500:]}")
    return elapsed


async def _connect_and_list(url: str, era: str) -> float:
    from inspector.config.profile import ServerProfile
    from inspector.core.connection import Connection
    from inspector.core.targets import make_transport
    from inspector.traffic.store import TrafficStore

    profile = ServerProfile(name="bench", transport="http", url=url)
    started = time.perf_counter()
    async with Connection(make_transport(profile, TrafficStore()), era=era) as conn:
        await conn.list_tools()
        elapsed = time.perf_counter() - started
    return elapsed


def _pair(name: str, unit: str, modern: list[float], legacy: list[float], scale: float = 1.0) -> Row:
    figure, base = median(modern) * scale, median(legacy) * scale
    return Row(name, figure, unit, base, figure / base, "<= legacy", figure <= base * 1.02)


def run() -> list[Row]:
    runs = 3 if quick() else 7
    rows: list[Row] = []
    times: dict[str, list[float]] = {"modern": [], "legacy": []}
    for era in times:  # untimed warm-up: page cache, .pyc files
        _cli(era, DEMO)
    for _ in range(runs):
        for era in times:
            times[era].append(_cli(era, DEMO))
    rows.append(_pair("cli tools/list, demo stdio: modern (vs legacy)", "s", times["modern"], times["legacy"]))

    port = free_port()
    for _ in serve([*DEMO, "--http", str(port)], port):
        url = f"http://127.0.0.1:{port}/mcp"
        http: dict[str, list[float]] = {"modern": [], "legacy": []}
        for era in http:
            asyncio.run(_connect_and_list(url, era))
        for _ in range(runs * 3):
            for era in http:
                http[era].append(asyncio.run(_connect_and_list(url, era)))
        rows.append(
            _pair("connect + tools/list, demo HTTP: modern (vs legacy)", "ms", http["modern"], http["legacy"], 1000)
        )

    probe = {"auto": [], "legacy": []}
    for _ in range(1 if quick() else 3):
        for era in probe:
            probe[era].append(_cli(era, SILENT))
    figure, base = median(probe["auto"]), median(probe["legacy"])
    rows.append(
        Row(
            "cli tools/list, silent legacy stdio: auto's unanswered probe (vs legacy)", figure, "s", base, figure / base
        )
    )
    return rows


if __name__ == "__main__":
    from run import print_table

    print_table(run())
