"""The Budget tab per host (issue 17): choosing "Claude Code" shows the list as Claude Code sends it —
names prefixed ``mcp__<server>__``, every tool deferred by default — with the host's findings; choosing
no host again shows the raw list."""

from __future__ import annotations

import re

from journey_support import Lens
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox

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

    choose(lens, "Host", "None")
    lens.wait(lambda: not PREFIXED.search(lens.texts()), what="the raw names again")
    lens.wait_text("schedule_meeting")
