"""The side-by-side answers of Run against… and Compare sessions: a large answer says how to get it whole
with what this view has (OT7 7: it pointed to a "Copy message" button only the traffic log has)."""

from __future__ import annotations

import json

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPushButton, QWidget

from inspector.ui.replay.side_by_side import SideBySide


def test_a_large_answer_can_be_copied_whole_from_its_pane(qtbot) -> None:
    sides = SideBySide("Recorded", "New")
    qtbot.addWidget(sides)
    QWidget.show(sides)
    big = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "x" * 1_200_000}]}}
    sides.show(big, {"jsonrpc": "2.0", "id": 1, "result": {}}, [])
    said = sides.left.info.text()
    assert "Copy message" not in said and "Copy the recorded answer" in said, said
    button = next(b for b in sides.findChildren(QPushButton) if b.accessibleName() == "Copy the recorded answer")
    button.click()
    assert json.loads(QGuiApplication.clipboard().text()) == big
