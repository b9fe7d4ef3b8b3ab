"""The record window on a damaged tap record, as the outside tester opened it (h11 point 2, issue 21: s41-s44):
File › Open session on a record whose line 4 is not JSON and whose last line (the tap's exit) is cut off,
on a 1024×700 screen. The window fits the screen; its status line is whole or elided with all of it in the
tooltip and one click away; it says the last line is cut rather than that no exit was recorded; the ⚠ badge
counts the cut line too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from drawn_text import drawn_texts
from journey_support import shown_text
from lens_support import REPO
from PySide6.QtWidgets import QApplication, QMessageBox
from test_tapped_sessions import DEMO, TapFile
from test_traffic import choose_file, viewer_window, without_blocking

from inspector.traffic.entry import Direction

SMALL_SCREEN = (1024, 700)


def damaged_tap_record(path: Path) -> Path:
    """Line 1 the header, 2-3 an initialize exchange, 4 not JSON, 5-7 more, 8 the tap's exit cut mid-line."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # the tap that wrote it is gone
    record = TapFile(path, "evt", DEMO, pid=gone.pid)
    record.exchange(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "x"}})
    with open(path, "ab") as out:
        out.write(b'{"broken": \xff\xfe not json\n')
    record.message(Direction.OUT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    record.exchange(2, "tools/list", {"tools": []})
    exit_line = {"seq": 12, "dir": "meta", "transport": "stdio", "kind": "lifecycle", "raw": "process exited with 0"}
    with open(path, "ab") as out:
        out.write(json.dumps(exit_line).encode()[:70])  # cut: no newline, the rest never written
    return path


def test_a_damaged_record_window_fits_a_small_screen_and_says_everything(lens, tmp_path: Path) -> None:
    screen = QApplication.primaryScreen().availableGeometry()
    if (screen.width(), screen.height()) != SMALL_SCREEN:  # run again in a process whose screen is 1024×700
        config = tmp_path / "small_screen.json"
        shape = {"name": "small", "x": 0, "y": 0, "width": 1024, "height": 700, "logicalDpi": 96, "dpr": 1}
        config.write_text(json.dumps({"screens": [shape]}))
        env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={config}"}
        name = test_a_damaged_record_window_fits_a_small_screen_and_says_everything.__name__
        test = f"{Path(__file__).relative_to(REPO)}::{name}"
        argv = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", test]
        run = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
        return

    path = damaged_tap_record(tmp_path / "damaged.jsonl")
    lens.start()
    without_blocking(lens, lambda: lens.menu("File", "Open session…"))
    choose_file(lens, path)
    viewer = viewer_window(lens)
    lens.qtbot.waitExposed(viewer)
    assert viewer.width() <= screen.width() and viewer.height() <= screen.height(), (viewer.size(), screen)
    assert screen.contains(viewer.frameGeometry()), (viewer.frameGeometry(), screen)

    bar = viewer.statusBar()
    lens.wait(lambda: "cut off" in bar.toolTip(), 30_000, "the cut last line is said")
    whole = bar.toolTip()
    assert "stopped writing without recording an exit" not in whole, whole  # the exit line is there, cut
    assert "line 8" in whole and "line 4" in whole, whole

    drawn = "".join(drawn_texts(bar))  # the line as painted, and the badge
    badge = lens.find("Damaged lines", top=viewer)
    line = drawn.replace(shown_text(badge), "")
    assert line.endswith("…") or line.strip() in whole, f"the status line is cut without a mark: {line!r}"
    assert bar.fontMetrics().horizontalAdvance(line) <= bar.width() - badge.width(), line

    assert shown_text(badge) == "⚠ 2 damaged lines: 4, 8", shown_text(badge)  # the cut line counts
    lens.click(badge)
    lens.wait(lambda: isinstance(QApplication.activeModalWidget(), QMessageBox), 10_000, "the damage's details")
    box = QApplication.activeModalWidget()
    said = box.text() + box.informativeText() + box.detailedText()
    assert "line 4 is damaged" in said and "line 8 is cut off" in said, said
    box.close()
    viewer.close()
    assert lens.quit() == 0
