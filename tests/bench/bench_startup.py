"""Time from process start to the first window exposed, and to "connected to the demo server".

Variants: the venv install (`.venv/bin/mcp-lens`), the PyInstaller bundle (`dist/mcp-lens/mcp-lens`,
when built) and a baseline in the same run: a bare PySide6 script that shows an empty QWidget. The
app prints `window-exposed <s>` / `connected <s>` (MCP_LENS_STARTUP_MARKERS=1); the clock here starts
just before the process is spawned and stops when the marker line is read. Warm: one untimed run
each first, then the median of the timed runs. A fresh config folder each run, so the app opens on
the embedded demo server. On an X server (Xvfb when it is installed) the window is really mapped and
exposed; without one, Qt's offscreen platform is used and the figure says so.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from common import PYTHON, ROOT, Row, median, quick

WINDOW_TARGET = 1.0
CONNECTED_TARGET = 2.0  # issue 23 (was 2.5)
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
            while len(seen) < len(markers) and time.perf_counter() < deadline:
                line = proc.stdout.readline()
                if not line:
                    break
                name = line.split()[0] if line.strip() else ""
                if name in markers and name not in seen:
                    seen[name] = time.perf_counter() - started
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
    base_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "QT_QPA_PLATFORM", "DISPLAY")}
    variants: dict[str, tuple[list[str], tuple[str, ...]]] = {
        "baseline: empty QWidget": ([PYTHON, "-c", BASELINE], ("window-exposed",)),
        "venv (.venv/bin/mcp-lens)": ([str(SCRIPT)], ("window-exposed", "connected")),
    }
    if BUNDLE.is_file():
        variants["bundle (dist/mcp-lens)"] = ([str(BUNDLE)], ("window-exposed", "connected"))
    times: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    with display() as extra:
        env = {**base_env, **extra}
        platform = extra["QT_QPA_PLATFORM"] + (" (Xvfb)" if "DISPLAY" in extra else "")
        for argv, markers in variants.values():  # warm-up: page cache, .pyc files
            timed_run(argv, env, markers)
        for _ in range(runs):
            for name, (argv, markers) in variants.items():
                for marker, seconds in timed_run(argv, env, markers).items():
                    times[name].setdefault(marker, []).append(seconds)
    baseline = median(times["baseline: empty QWidget"]["window-exposed"])
    rows = [Row(f"startup [{platform}]: window, baseline: empty QWidget", baseline, "s")]
    for name in variants:
        if name.startswith("baseline"):
            continue
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
                target=f"< {CONNECTED_TARGET} s",
                ok=connected < CONNECTED_TARGET,
            )
        )
    return rows


if __name__ == "__main__":
    from run import print_table

    print_table(run())
