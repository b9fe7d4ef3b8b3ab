"""The Budget tab per host (issue 17): choosing "Claude Code" shows the list as Claude Code sends it —
names prefixed ``mcp__<server>__``, every tool deferred by default — with the host's findings; choosing
no host again shows the raw list. The description lab counts as the host does."""

from __future__ import annotations

import re

from journey_support import Lens
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QPlainTextEdit

PREFIXED = re.compile(r"^mcp__\w[\w-]*__schedule_meeting$", re.MULTILINE)


def choose(lens: Lens, name: str, text: str) -> None:
    """Pick a combo box item by typing its first letters, as a keyboard user does."""
    box = lens.find(name, QComboBox)
    lens.click(box)  # opens the list; Escape closes it, focus stays on the box
    lens.key("Escape")
    QTest.keyClicks(box, text)


def test_claude_code_view_of_the_demo(lens: Lens) -> None:
    lens.start()
    lens.tab("Budget")
    lens.wait_text("schedule_meeting")
    assert not PREFIXED.search(lens.texts())

    choose(lens, "Host", "Claude Code")
    lens.wait(lambda: PREFIXED.search(lens.texts()), what="the tools named as Claude Code names them")
    texts = lens.texts()
    assert "as Claude Code sends them" in texts
    assert "tool search is on (the default)" in texts  # a finding, with its rule
    assert "fewer than the raw tools/list" in texts  # what the host saves

    choose(lens, "Tool search", "Tool search a")  # auto: schemas load while within 10% of the window
    lens.wait(lambda: "tool search is on (the default)" not in lens.texts(), what="auto mode counted")
    assert "within the 10% threshold" in lens.texts()

    # The description lab counts per host too: a description past Claude Code's 2,048 characters is cut
    lens.tab("Description lab")
    editor = next(w for w in lens.widgets(QPlainTextEdit) if w.objectName() == "labEditor")
    QGuiApplication.clipboard().setText("Say what it does. " * 120)  # 2,160 characters, pasted over the text
    lens.click(editor)
    lens.key(QKeySequence.StandardKey.SelectAll, editor)
    lens.key(QKeySequence.StandardKey.Paste, editor)
    lens.wait_text("cuts the description at 2,048 characters")

    # Compare counts each column as the host sends it, and its row says whose view it is
    lens.tab("Compare")
    lens.click("Add connected server")
    lens.wait_text("Tokens — Claude Code (Anthropic tools)")
    assert lens.shows("Share of 128K (Claude Code (Anthropic tools))")

    lens.tab("Tools")
    host = lens.find("Host", QComboBox)
    lens.click(host)  # opens the list; Escape closes it, focus stays on the box
    lens.key("Escape")
    QTest.keyClick(host, Qt.Key.Key_Home)  # the first entry: None (raw list)
    lens.wait(lambda: host.currentText() == "None (raw list)", what="no host chosen")
    lens.wait(lambda: not PREFIXED.search(lens.texts()), what="the raw names again")
    lens.wait_text("schedule_meeting")
