"""A server floods the traffic log: how fast rows reach a real TrafficView, and does the UI keep up?

`tests/servers/flood.py` answers one `tools/call` with N `notifications/message` lines. We connect
through the real stdio transport and recorder into a shown `TrafficView` (offscreen Qt, qasync loop)
and measure: messages per second until the model shows all N rows, the longest stall of the Qt
event loop meanwhile (a 10 ms timer measuring its own lateness), and resident memory after one flood
(in a process of its own: `run.py` runs every benchmark in one).
The baseline is the same flood into a store with no view attached (same qasync loop): the ratio is
the view's share of the cost; the baseline itself is what the transport, the SDK and qasync allow.

``python tests/bench/bench_flood.py [--quick]`` prints the table on its own.
"""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import BENCH, ROOT, Row, median, quick

FLOOD = ROOT / "tests/servers/flood.py"
TARGET_RATE = 20_000.0  # messages/s
TARGET_STALL_MS = 100.0
TARGET_RSS_MB = 300.0
REPEATS = 2


@dataclass
class Result:
    rate: float  # messages/s until the last row is in the model (or the store, without a view)
    stall_ms: float  # longest lateness of a 10 ms timer while flooding
    gc_ms: float  # longest full garbage collection meanwhile
    rss_mb: float  # VmRSS after the flood
    rows: int


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")


class StallMeter:
    """A precise 10 ms QTimer; the longest gap beyond 10 ms is how long the event loop was busy.

    It also times the garbage collector's full (generation 2) passes meanwhile: they stop
    everything, and their length grows with the number of live objects (two per recorded entry).
    """

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.worst = 0.0
        self.worst_gc = 0.0
        self._gc_started = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(10)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.worst = self.worst_gc = 0.0
        self._last = time.perf_counter()
        self._timer.start()
        gc.callbacks.append(self._gc)

    def stop(self) -> None:
        self._timer.stop()
        gc.callbacks.remove(self._gc)

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            self.worst_gc = max(self.worst_gc, time.perf_counter() - self._gc_started)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self._last - 0.010)
        self._last = now


async def _flood(count: int, with_view: bool) -> Result:
    from PySide6.QtWidgets import QMainWindow

    from inspector.core.connection import Connection
    from inspector.traffic.store import TrafficStore
    from inspector.transports.process import StdioCommand
    from inspector.transports.stdio import StdioTransport
    from inspector.ui.traffic.view import TrafficView

    store = TrafficStore()
    window = view = None
    if with_view:
        window = QMainWindow()
        view = TrafficView(store, window)
        window.setCentralWidget(view)
        window.resize(1200, 800)
        window.show()
    meter = StallMeter()
    transport = StdioTransport(StdioCommand(sys.executable, [str(FLOOD)]), store)
    async with Connection(transport, request_timeout=300.0) as conn:
        await asyncio.sleep(0.2)  # let the window settle
        base = len(store) + 1  # + the tools/call request itself
        target = base + count
        reached = asyncio.get_running_loop().create_future()

        def check(shown: int, total: int) -> None:
            if shown >= target and not reached.done():
                reached.set_result(time.perf_counter())

        if view is not None:
            view.model.countsChanged.connect(check)
        else:
            store.subscribe(lambda entry: check(len(store), len(store)))
        meter.start()
        started = time.perf_counter()
        call = asyncio.ensure_future(conn.call_tool("flood", {"count": count}))
        finished = await asyncio.wait_for(reached, 300.0)
        await call
        await asyncio.sleep(0.1)
        meter.stop()
        rows = view.model.rowCount() if view is not None else len(store)
    rss = rss_mb()
    if window is not None:
        window.close()
        window.deleteLater()
    return Result(count / (finished - started), meter.worst * 1000.0, meter.worst_gc * 1000.0, rss, rows)


def measure(count: int, with_view: bool) -> Result:
    """One flood on a fresh qasync loop over the (shared) offscreen QApplication."""
    import qasync
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        return loop.run_until_complete(_flood(count, with_view))
    finally:
        loop.close()
        asyncio.set_event_loop(None)
        # Free this run's window and store now, so they do not weigh on the next run's collections.
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
        gc.collect()


def fresh_rss(count: int) -> float:
    """VmRSS after one `count`-line flood into a shown TrafficView, in a process of its own (a warm-up flood
    first, as in `run`): what the app holds, not what benchmarks run before it in `run.py` left behind
    (a full run's process measured 458 MB here where a fresh one held 192 MB)."""
    done = subprocess.run(
        [sys.executable, __file__, "--rss", str(count)], capture_output=True, text=True, timeout=600, cwd=BENCH
    )
    if done.returncode != 0:
        raise RuntimeError(f"the memory run failed:\n{done.stderr[-3000:]}")
    return float(done.stdout.split()[-1])


def run() -> list[Row]:
    count = 20_000 if quick() else 100_000
    repeats = 1 if quick() else REPEATS
    measure(2_000, with_view=True)  # warm-up: lazy imports, pydantic schemas, first paints
    views: list[Result] = []
    bases: list[Result] = []
    for _ in range(repeats):  # interleaved, so a busy spell on the machine hits both alike
        views.append(measure(count, with_view=True))
        bases.append(measure(count, with_view=False))
    rate = median([r.rate for r in views])
    base_rate = median([r.rate for r in bases])
    stall = max(r.stall_ms for r in views)
    rss = fresh_rss(count)
    print(
        f"[flood: {views[0].rows:,} rows shown; view runs {', '.join(f'{r.rate:,.0f}' for r in views)} msg/s, "
        f"stalls {', '.join(f'{r.stall_ms:.0f}' for r in views)} ms, of which full GC "
        f"{', '.join(f'{r.gc_ms:.0f}' for r in views)} ms; no-view runs "
        f"{', '.join(f'{r.rate:,.0f}' for r in bases)} msg/s]",
        file=sys.stderr,
    )
    return [
        Row(
            f"flood {count:,} notifications → TrafficView",
            rate,
            "msg/s",
            base_rate,
            base_rate / rate,
            f">= {TARGET_RATE:,.0f}",
            rate >= TARGET_RATE,
        ),
        Row(
            "  longest Qt event-loop stall",
            stall,
            "ms",
            None,
            None,
            f"<= {TARGET_STALL_MS:.0f}",
            stall <= TARGET_STALL_MS,
        ),
        Row(
            f"  resident memory after {count:,} rows",
            rss,
            "MB",
            None,
            None,
            f"< {TARGET_RSS_MB:.0f}",
            rss < TARGET_RSS_MB,
        ),
    ]


if __name__ == "__main__":
    if sys.argv[1:2] == ["--rss"]:  # fresh_rss's child
        measure(2_000, with_view=True)
        print(measure(int(sys.argv[2]), with_view=True).rss_mb)
        sys.exit(0)
    from run import print_table

    print_table(run())
