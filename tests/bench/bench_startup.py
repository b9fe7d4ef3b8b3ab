"""Time from process start to the first window exposed, and to "connected to the demo server".

Variants: the venv install (`.venv/bin/mcp-lens`), the PyInstaller bundle (`dist/mcp-lens/mcp-lens`,
when built) and two baselines in the same run: a bare PySide6 script that shows an empty QWidget (for
the window), and one that shows it and then connects to the demo with the bare SDK (for connected: the
least a desktop MCP client does before it can say "connected"). The app prints `window-exposed <s>` /
`connected <s>` (MCP_LENS_STARTUP_MARKERS=1); the clock here starts just before the process is spawned
and stops when the marker line is read. Warm: one untimed run each first, then the median of the timed
runs. A fresh config folder each run, so the app opens on the embedded demo server. On an X server
(Xvfb when it is installed) the window is really mapped and exposed; without one, Qt's offscreen
platform is used and the figure says so.

Every variant may write bytecode (into a temporary `PYTHONPYCACHEPREFIX`, never the tree), so the
warm-up run leaves the `.pyc` files an installed package has: with `PYTHONDONTWRITEBYTECODE=1` in the
environment each run compiled the app's ~450 modules again (0.9 s of CPU to import the window's
modules instead of 0.3 s), which no user pays.

The app's other markers (`server-started`, `qt-ready`, `window-imported`, `window-built`,
`window-shown`, `sdk-importing`, `sdk-imported`) are printed to stderr as the launch's timeline
(medians, seconds from the process's start). Beside each time to connected, the CPU its process had used by
then (`/proc`, every thread, not the server it started): on a loaded machine the seconds follow the load,
the CPU much less.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from common import PYTHON, ROOT, Row, median, quick

WINDOW_TARGET = 1.0
CONNECTED_TARGET = 2.0  # issue 23 (was 2.5): seconds, on a quiet machine
CONNECTED_RATIO = 1.5  # the app's connected / the bare window-then-SDK script's, in the same run (README)
CONNECTED_BASELINE = "baseline: empty QWidget, then the bare SDK connected"
TIMELINE = (
    "server-started",
    "qt-ready",
    "window-imported",
    "window-built",
    "window-shown",
    "sdk-importing",
    "sdk-imported",
)
SCRIPT = Path(PYTHON).parent / "mcp-lens"
BUNDLE = ROOT / "dist" / "mcp-lens" / "mcp-lens"
BASELINE = """
import sys, time
t0 = time.time()
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication(sys.argv[:1])
w = QWidget()
w.resize(1280, 860)
class Watch(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Expose and obj.isExposed():
            print("window-exposed", flush=True)
            QTimer.singleShot(0, app.quit)
        return False
w.show()
handle = w.windowHandle()
if handle.isExposed():
    print("window-exposed", flush=True)
    sys.exit(0)
watch = Watch()
handle.installEventFilter(watch)
app.exec()
"""
# An empty window shown, then the bare SDK's stdio client connected to the demo (initialize answered).
BASELINE_CONNECTED = """
import asyncio, os, sys
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication(sys.argv[:1])
w = QWidget()
w.resize(1280, 860)
w.show()
app.processEvents()
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
async def main():
    params = StdioServerParameters(command=sys.executable, args=["-m", "inspector.demo"], env=dict(os.environ))
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            print("connected", flush=True)
            await asyncio.sleep(3600)
asyncio.run(main())
"""


@contextlib.contextmanager
def display() -> Iterator[dict[str, str]]:
    """Environment for the runs: an Xvfb display when available, else the offscreen platform."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        yield {"QT_QPA_PLATFORM": "offscreen"}
        return
    number = 90 + os.getpid() % 100
    proc = subprocess.Popen(
        [xvfb, f":{number}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        yield {"QT_QPA_PLATFORM": "xcb", "DISPLAY": f":{number}"}
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system, every thread; not its children) process `pid` has used so far (Linux)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: fields 14, 15
    except (OSError, ValueError, IndexError):
        return None


def timed_run(argv: list[str], env: dict[str, str], markers: tuple[str, ...]) -> dict[str, float]:
    """Seconds from spawn to each marker line (read from stdout); the process is then closed."""
    seen: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="lens-bench-") as home:
        run_env = {**env, "HOME": home, "XDG_CONFIG_HOME": f"{home}/config", "MCP_LENS_STARTUP_MARKERS": "1"}
        errors = Path(home) / "stderr.txt"
        started = time.perf_counter()
        with errors.open("w") as err:
            proc = subprocess.Popen(argv, env=run_env, stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            assert proc.stdout is not None
            deadline = started + 60
            while any(m not in seen for m in markers) and time.perf_counter() < deadline:
                line = proc.stdout.readline()
                if not line:
                    break
                words = line.split()
                name = words[0] if words else ""
                if name in markers and name not in seen:
                    seen[name] = time.perf_counter() - started
                    if (cpu := cpu_seconds(proc.pid)) is not None:
                        seen[f"{name} cpu"] = cpu
                elif name in TIMELINE and len(words) == 2:  # the app's own clock: from its process's start
                    with contextlib.suppress(ValueError):
                        seen[name] = float(words[1])
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        missing = [m for m in markers if m not in seen]
        if missing:
            tail = errors.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{argv[0]} never printed {missing} (exit {proc.returncode}):\n{tail}")
    return seen


def run() -> list[Row]:
    runs = 3 if quick() else 5
    dropped = ("PYTHONPATH", "QT_QPA_PLATFORM", "DISPLAY", "PYTHONDONTWRITEBYTECODE")
    base_env = {k: v for k, v in os.environ.items() if k not in dropped}
    variants: dict[str, tuple[list[str], tuple[str, ...]]] = {
        "baseline: empty QWidget": ([PYTHON, "-c", BASELINE], ("window-exposed",)),
        CONNECTED_BASELINE: ([PYTHON, "-c", BASELINE_CONNECTED], ("connected",)),
        "venv (.venv/bin/mcp-lens)": ([str(SCRIPT)], ("window-exposed", "connected")),
    }
    if BUNDLE.is_file():
        variants["bundle (dist/mcp-lens)"] = ([str(BUNDLE)], ("window-exposed", "connected"))
    times: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    with display() as extra, tempfile.TemporaryDirectory(prefix="mcp-lens-pyc-") as pycache:
        env = {**base_env, **extra, "PYTHONPYCACHEPREFIX": pycache}
        platform = extra["QT_QPA_PLATFORM"] + (" (Xvfb)" if "DISPLAY" in extra else "")
        for argv, markers in variants.values():  # warm-up: page cache, .pyc files
            timed_run(argv, env, markers)
        for _ in range(runs):
            for name, (argv, markers) in variants.items():
                for marker, seconds in timed_run(argv, env, markers).items():
                    times[name].setdefault(marker, []).append(seconds)
    baseline = median(times["baseline: empty QWidget"]["window-exposed"])
    bare = median(times[CONNECTED_BASELINE]["connected"])
    rows = [
        Row(f"startup [{platform}]: window, baseline: empty QWidget", baseline, "s"),
        Row(f"startup [{platform}]: connected, {CONNECTED_BASELINE}", bare, "s"),
    ]
    if "connected cpu" in times[CONNECTED_BASELINE]:
        bare_cpu = median(times[CONNECTED_BASELINE]["connected cpu"])
        rows.append(Row(f"  CPU of the process until connected, {CONNECTED_BASELINE}", bare_cpu, "s"))
    for name in variants:
        if name.startswith("baseline"):
            continue
        timeline = ", ".join(f"{m} {median(times[name][m]):.2f}" for m in TIMELINE if m in times[name])
        print(f"[startup timeline, {name}: {timeline}; load average {os.getloadavg()[0]:.1f}]", file=sys.stderr)
        window = median(times[name]["window-exposed"])
        connected = median(times[name]["connected"])
        rows.append(
            Row(
                f"startup [{platform}]: window, {name}",
                window,
                "s",
                baseline,
                window / baseline,
                f"< {WINDOW_TARGET} s",
                window < WINDOW_TARGET,
            )
        )
        rows.append(
            Row(
                f"startup [{platform}]: connected to demo, {name}",
                connected,
                "s",
                target=f"< {CONNECTED_TARGET} s quiet",
                ok=connected < CONNECTED_TARGET,
            )
        )
        if "connected cpu" in times[name] and "connected cpu" in times[CONNECTED_BASELINE]:
            cpu, bare_cpu = median(times[name]["connected cpu"]), median(times[CONNECTED_BASELINE]["connected cpu"])
            rows.append(Row(f"  CPU of the process until connected, {name}", cpu, "s", bare_cpu, cpu / bare_cpu))
        rows.append(
            Row(
                f"  connected, against the bare window-then-SDK script, {name}",
                connected,
                "s",
                bare,
                connected / bare,
                f"<= {CONNECTED_RATIO}x",
                connected / bare <= CONNECTED_RATIO,
            )
        )
    return rows


if __name__ == "__main__":
    from run import print_table

    print_table(run())
