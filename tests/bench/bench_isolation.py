"""Isolation between live sessions: does one server's flood slow another server's calls, or the UI?

A real, shown `MainWindow` (offscreen Qt, a qasync loop, settings and profiles in a temporary folder)
with two servers connected at once: the demo (`python -m inspector.demo`) and `tests/servers/flood.py`.
In the same run we measure the round trip of `tools/call echo` on the demo, one call after another:
with the flood server connected but idle (the baseline: calls before and after the flood), and while
the flood server writes N `notifications/message` lines, until all of them are rows in the window's
traffic log. Meanwhile a
10 ms timer measures the Qt event loop's longest stall, and we note the flood's own rate.

The target: the flooded median at most 1.5x the quiet one, or less than one 60 Hz frame (16.7 ms) added to
it: once a call costs the window ~2 ms, a ratio says more about that cost than about the flood (README).

A round trip is timed from `SessionController.call_tool` to the `callUpdated` signal that says the
record is done: what the Tools tab would see.

``python tests/bench/bench_isolation.py [--quick]`` prints the table on its own.
"""

from __future__ import annotations

import asyncio
import gc
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_flood import StallMeter
from common import DEMO, ROOT, Row, median, quick

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.core.history import CallRecord
    from inspector.ui.session import SessionController

FLOOD = ROOT / "tests/servers/flood.py"
TARGET_RATIO = 1.5  # flooded median / quiet median, or:
TARGET_ADDED_MS = 1000 / 60  # what the flood adds to the median: less than one frame at 60 Hz (README)
TARGET_STALL_MS = 100.0
QUIET_CALLS = 30
WARM_UP_CALLS = 5
CALL_TIMEOUT = 60.0
XDG = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")


@dataclass
class Result:
    quiet_ms: list[float]  # echo round trips, flood server idle (before and after the flood)
    flooded_ms: list[float]  # echo round trips while the flood is being recorded
    stall_ms: float  # longest lateness of a 10 ms timer over the flooded phase
    gc_ms: float  # longest full garbage collection over the flooded phase
    flood_rate: float  # notifications/s until every flood row is in the traffic model
    rows: int  # rows in the traffic model at the end


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


async def _wait(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        await asyncio.sleep(0.005)


async def _call(session: SessionController, tool: str, arguments: dict, timeout: float) -> tuple[float, CallRecord]:
    """One `tools/call` through the session; returns (seconds until its record said done, record)."""
    finished = asyncio.get_running_loop().create_future()
    record: CallRecord | None = None

    def updated(rec: CallRecord) -> None:
        if rec is record and rec.done and not finished.done():
            finished.set_result(time.perf_counter())

    session.callUpdated.connect(updated)
    try:
        started = time.perf_counter()
        record = session.call_tool(tool, arguments, timeout=timeout, max_total=None)
        if record is None:
            raise RuntimeError(f"{tool}: the session is not connected")
        if record.done:  # finished before we could listen (never seen)
            finished.set_result(time.perf_counter())
        ended = await asyncio.wait_for(finished, timeout + 5.0)
    finally:
        session.callUpdated.disconnect(updated)
    if record.outcome != "ok":
        raise RuntimeError(f"{tool}: {record.outcome} {record.error}")
    return ended - started, record


async def _echo(session: SessionController) -> float:
    seconds, _ = await _call(session, "echo", {"message": "ping"}, CALL_TIMEOUT)
    return seconds * 1000.0


async def _bench(folder: Path, count: int) -> Result:
    from PySide6.QtCore import QSettings

    from inspector.config.profile import ServerProfile
    from inspector.config.store import ProfileStore
    from inspector.ui.main_window import MainWindow

    env = {"PYTHONPATH": str(ROOT)}
    demo = ServerProfile(name="Demo server", transport="stdio", command=DEMO[0], args=DEMO[1:], env=env)
    flood = ServerProfile(name="Flood server", transport="stdio", command=sys.executable, args=[str(FLOOD)])
    settings = QSettings(str(folder / "lens.ini"), QSettings.Format.IniFormat)
    window = MainWindow(ProfileStore(folder / "servers.json"), demo, settings)
    window.resize(1400, 1000)
    window.show()
    window.servers.load()
    try:
        for profile in (flood, demo):  # the demo last: its space is the one shown
            window.connect_profile(profile)
        for name in (demo.name, flood.name):
            session = window.spaces[name].session
            await _wait(lambda s=session: s.state in ("connected", "failed"), 30.0, f"{name} to connect")
            if session.state != "connected":
                raise RuntimeError(f"{name}: {session.detail}")
        echo_session = window.spaces[demo.name].session
        flood_session = window.spaces[flood.name].session
        await asyncio.sleep(0.5)  # tool lists, budget, first paints
        for _ in range(WARM_UP_CALLS):
            await _echo(echo_session)

        quiet = [await _echo(echo_session) for _ in range(QUIET_CALLS)]

        model = window.traffic.model
        meter = StallMeter()
        gc.collect()
        meter.start()
        started = time.perf_counter()
        flood_call = asyncio.ensure_future(_call(flood_session, "flood", {"count": count}, 300.0))
        flooded: list[float] = []
        reached: float | None = None
        while reached is None:
            flooded.append(await _echo(echo_session))
            if flood_call.done():
                flood_call.result()  # raises if the flood failed
                # the flood's last line is in the store; it is shown once the model has caught up with it
                recorded = len(window.store)
                await _wait(lambda n=recorded: model.total() >= n, 60.0, "the traffic log to show the flood")
                reached = time.perf_counter()
        meter.stop()
        rows = model.rowCount()
        await asyncio.sleep(0.5)  # the flood's rows painted, the flood server idle again
        quiet += [await _echo(echo_session) for _ in range(QUIET_CALLS)]
    finally:
        await window.shutdown()
        window.hide()
        window.deleteLater()
    return Result(quiet, flooded, meter.worst * 1000.0, meter.worst_gc * 1000.0, count / (reached - started), rows)


def measure(count: int) -> Result:
    """One run on a fresh qasync loop over the (shared) offscreen QApplication, settings in a temp folder."""
    import qasync
    from PySide6.QtCore import QEvent, QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    saved = {key: os.environ.get(key) for key in XDG}
    with tempfile.TemporaryDirectory(prefix="lens-bench-isolation-") as tmp:
        folder = Path(tmp)
        for key in XDG:
            os.environ[key] = str(folder / key.lower())
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder / "xdg_config_home"))
        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        try:
            return loop.run_until_complete(_bench(folder, count))
        finally:
            loop.close()
            asyncio.set_event_loop(None)
            app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
            gc.collect()
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def run() -> list[Row]:
    count = 20_000 if quick() else 100_000
    result = measure(count)
    quiet, flooded = median(result.quiet_ms), median(result.flooded_ms)
    quiet_p95, flooded_p95 = p95(result.quiet_ms), p95(result.flooded_ms)
    print(
        f"[isolation: {len(result.quiet_ms)} quiet calls, {len(result.flooded_ms)} during the flood "
        f"(max {max(result.flooded_ms):.1f} ms); {result.rows:,} traffic rows; longest full GC "
        f"{result.gc_ms:.0f} ms; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs]",
        file=sys.stderr,
    )
    return [
        Row("echo on the demo, flood server idle (median)", quiet, "ms"),
        Row(
            f"echo on the demo during a {count:,}-line flood (median)",
            flooded,
            "ms",
            quiet,
            flooded / quiet,
            f"<= {TARGET_RATIO:g}x quiet or < 1 frame added",
            flooded / quiet <= TARGET_RATIO or flooded - quiet < TARGET_ADDED_MS,
        ),
        Row("  added by the flood (median; one frame: 16.7 ms)", flooded - quiet, "ms"),
        Row("  the same, p95", flooded_p95, "ms", quiet_p95, flooded_p95 / quiet_p95),
        Row(
            "  longest Qt event-loop stall during the flood",
            result.stall_ms,
            "ms",
            None,
            None,
            f"< {TARGET_STALL_MS:.0f}",
            result.stall_ms < TARGET_STALL_MS,
        ),
        Row("  flood into the shared traffic log", result.flood_rate, "msg/s"),
    ]


if __name__ == "__main__":
    from run import print_table

    print_table(run())
