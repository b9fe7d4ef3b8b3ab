"""One run of the app against `tests/servers/big.py`, in its own process (for `bench_big_inputs.py`).

``python big_app_probe.py MODE SIZE`` starts MCP Lens as launched (`inspector.app.run`, offscreen, fresh
folders) on ``big.py MODE SIZE``, drives it the way a person does (select the tool, press Call, resize
the window) and prints one JSON line: for each step, the longest gap of a 5 ms event-loop timer
beyond its interval (how long the window could not answer), and the process's peak resident memory.
The server waits before serving, so the window has settled when the connection's work starts.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests/journeys"), str(ROOT / "tests")]

BIG = ROOT / "tests/servers/big.py"
TICK_MS = 5
SETTLE_MS = 1500  # measured after each step's visible outcome: work the step queued for later counts too
TARGET_TOOL = {"tools": "tool_04999", "result": "big_result", "icon": "big_icon"}
DESCRIPTION_MODES = ("description", "runs", "line")  # long_description: also its full view and the lab


def peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024.0
    return float("nan")


class Meter:
    """A precise 5 ms QTimer: the longest gap beyond 5 ms between two ticks is the longest stall."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.worst = 0.0
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.worst = 0.0
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> float:
        self._tick()
        self._timer.stop()
        return self.worst * 1000.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self._last - TICK_MS / 1000.0)
        self._last = now


class Bot:
    """The two things `journey_support.Lens` asks of pytest-qt's qtbot."""

    def waitUntil(self, check: Any, timeout: int = 5_000) -> None:
        from PySide6.QtTest import QTest

        deadline = time.monotonic() + timeout / 1000.0
        while not check():
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout} ms for {check!r}")
            QTest.qWait(20)

    def wait(self, ms: int) -> None:
        from PySide6.QtTest import QTest

        QTest.qWait(ms)


class Env:
    def setenv(self, name: str, value: str) -> None:
        os.environ[name] = value


def full_view(lens: Any) -> Any:
    """The Full description view, once its window shows."""
    from PySide6.QtWidgets import QPlainTextEdit

    return next((w for w in lens.widgets(QPlainTextEdit) if w.accessibleName() == "Full description"), None)


def choose_in_lab(lens: Any, tool: str) -> None:
    """Budget › Description lab, then `tool` chosen in its Tool box by keys (End: the last tool)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QComboBox

    lens.tab("Description lab")
    box = next(w for w in lens.widgets(QComboBox) if w.objectName() == "labTool")
    lens.click(box)
    lens.key("Escape")
    QTest.keyClick(box, Qt.Key.Key_End)
    assert box.currentText() == tool, box.currentText()


def lab_count(lens: Any) -> str:
    """What the lab says this description costs ("… tokens (unchanged)" once counted)."""
    pane = next((w for w in lens.widgets() if w.objectName() == "budgetPane"), None)  # the shown server's
    return pane.lab.description_count.text() if pane is not None else ""


def main(mode: str, size: str) -> dict[str, Any]:
    import qasync
    from journey_support import Lens
    from PySide6.QtWidgets import QApplication

    qapp = QApplication.instance() or QApplication([sys.argv[0]])
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    asyncio.events._set_running_loop(loop)
    loop._QEventLoop__is_running = True  # type: ignore[attr-defined]
    bot = Bot()
    home = Path(tempfile.mkdtemp(prefix="lens-bench-"))
    lens = Lens(bot, qapp, home, Env())
    meter = Meter()
    stalls: dict[str, float] = {}
    peaks: dict[str, float] = {}  # the peak resident memory after each step (which step took it up)

    def step(name: str, action: Any, done: Any, timeout: int = 300_000) -> None:
        meter.start()
        action()
        bot.waitUntil(done, timeout=timeout)
        bot.wait(SETTLE_MS)
        stalls[name] = round(meter.stop(), 1)
        peaks[name] = round(peak_rss_mb(), 1)

    from inspector.core.session import load_sdk

    load_sdk()  # before the cases: the connect step measures the server's size, not the SDK's first import
    lens.start("--", sys.executable, str(BIG), "small" if mode == "small" else mode, size, "3", connected=False)
    bot.wait(1500)  # the window is up and idle; the server answers `initialize` after 3 s
    step("connect", lambda: None, lambda: "connected to" in lens.status(), timeout=300_000)
    wanted = "long_description" if mode in DESCRIPTION_MODES else TARGET_TOOL.get(mode, "gamma")
    if mode == "tools":  # among 5,000 a person searches first
        step("search", lambda: lens.type("Search tools", wanted), lambda: True)
    step("select tool", lambda: lens.click_item("Tool list", wanted, timeout=300_000), lambda: True)
    assert lens.window is not None
    step("resize", lambda: lens.window.resize(1100, 760), lambda: True)
    if mode in ("result", "small"):
        calls = len(lens.sent("tools/call"))
        if mode == "small":
            lens.click_item("Tool list", "gamma")
        step(
            "call",
            lambda: lens.click("Call  (Ctrl+Enter)"),
            lambda: any(e.direction == "in" and e.method == "tools/call" for e in lens.wire()[calls:]),
        )
    if mode in DESCRIPTION_MODES:
        step("full description", lambda: lens.click("Show full description"), lambda: full_view(lens) is not None)
        full_view(lens).window().close()
    step("budget tab", lambda: lens.tab("Budget"), lambda: True)
    if mode in DESCRIPTION_MODES:
        step("description lab", lambda: choose_in_lab(lens, wanted), lambda: "tokens" in lab_count(lens))
    payload = max((len(entry.raw) for entry in lens.wire()), default=0)  # the largest message received
    return {
        "mode": mode,
        "stalls_ms": stalls,
        "peak_mb": round(peak_rss_mb(), 1),
        "peaks_mb": peaks,
        "payload_mb": payload / 2**20,
    }


if __name__ == "__main__":
    from inspector.app import freeze_start_up_heap
    from inspector.platform.allocator import one_malloc_arena
    from inspector.ui.pyside_features import skip_feature_scan

    one_malloc_arena()  # as `inspector.app.main` does first (the probe starts the app through `app.run`)
    freeze_start_up_heap()  # as `main` does: the probe's process is the app's own
    skip_feature_scan()  # as `app._run_app` does before the QApplication
    outcome = main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "0")
    print(json.dumps(outcome), flush=True)
    os._exit(0)  # the app and its server are torn down with the process
