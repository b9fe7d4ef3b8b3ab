"""The record window's status line reads whole at its default size, its damaged lines are one click
away, and Ctrl+W closes it (issue 21)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QMessageBox
from test_viewer_follow import append

from inspector.traffic import jsonl
from inspector.ui.traffic.viewer_window import ViewerWindow


def damaged_record(folder: Path) -> Path:
    folder.mkdir(parents=True)
    path = folder / "bad-middle.jsonl"
    path.write_bytes(jsonl.header({"server": "everything"}) + b"\n")
    append(path, 1, 3)
    with open(path, "ab") as out:
        out.write(b'{"seq": 7, "cut here\n')  # line 8: damaged, with more after it
        out.write(b"\xff\xfe not utf-8\n")  # line 9
    append(path, 20, 3)
    return path


def test_the_status_line_reads_whole_and_the_damage_is_one_click_away(qtbot, tmp_path: Path) -> None:
    path = damaged_record(tmp_path / ("a-rather-long-folder-name-" * 3) / "records")
    window = ViewerWindow.open(path)
    assert window is not None
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.caught_up and "damaged" in window.statusBar().currentMessage(), timeout=30_000)
    bar = window.statusBar()
    message = bar.currentMessage()
    assert "line 8" in message, message
    kept = next(w for w in bar.findChildren(QAbstractButton) if w.accessibleName() == "Damaged lines")
    room = bar.width() - kept.sizeHint().width() - 40
    assert bar.fontMetrics().horizontalAdvance(message) <= room, f"cut at {room} px: {message!r}"
    assert str(path) in window.toolTip() or str(path) in bar.toolTip()

    QTest.mouseClick(kept, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QMessageBox), timeout=10_000)
    box = QApplication.activeModalWidget()
    assert "line 8 is damaged" in box.text() + box.informativeText() + box.detailedText()
    assert "\\xff\\xfe" in box.text() + box.informativeText() + box.detailedText()
    box.close()


def test_ctrl_w_closes_the_record_window(qtbot, tmp_path: Path) -> None:
    window = ViewerWindow.open(damaged_record(tmp_path / "r"))
    assert window is not None
    qtbot.addWidget(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=10_000)
    QTest.keySequence(window.view, QKeySequence("Ctrl+W"))
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
