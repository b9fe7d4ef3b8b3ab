"""Host acceptance in the app (issue 25): picking "OpenAI strict" in the Tools tab's Host check marks the tools
that host refuses, each with why; the Budget's Host picker follows the same choice and its host view lists the
verdicts; choosing no host takes the marks away."""

from __future__ import annotations

import sys

from journey_support import Lens
from lens_support import REPO
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLabel, QTabWidget

SERVER = REPO / "tests/servers/host_acceptance.py"


def choose(lens: Lens, name: str, text: str) -> QComboBox:
    """Pick a combo box item by typing its first letters, as a keyboard user does."""
    box = lens.find(name, QComboBox)
    lens.click(box)  # opens the list; Escape closes it, focus stays on the box
    lens.key("Escape")
    QTest.keyClicks(box, text)
    return box


def main_tab(lens: Lens, name: str) -> None:
    """Click ``name`` in the window's own tab bar (the Budget has a "Tools" view of its own)."""
    tabs = lens.window.findChild(QTabWidget, "centralTabs")
    bar = tabs.tabBar()
    index = next(i for i in range(bar.count()) if bar.tabText(i).replace("&", "") == name)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.tabRect(index).center())
    lens.wait(lambda: tabs.currentIndex() == index, what=f"the {name} tab shown")


def test_openai_strict_marks_the_tools_it_refuses(lens: Lens) -> None:
    lens.start("--", sys.executable, str(SERVER))
    lens.tab("Tools")
    lens.wait_text("lookup_order")
    assert "refused by" not in lens.texts()

    box = choose(lens, "Host check", "OpenAI")  # "OpenAI API", then one down (each choice recounts the Budget)
    lens.wait(lambda: box.currentText() == "OpenAI API", what="OpenAI API chosen")
    QTest.keyClick(box, Qt.Key.Key_Down)
    lens.wait(lambda: box.currentText() == "OpenAI strict", what="OpenAI strict chosen")
    lens.wait_text("5 tools, 1 with findings, 4 refused by OpenAI strict")  # files.read: the spec's name rule
    texts = lens.texts()
    assert "✓ OpenAI strict: accepted as is" in texts  # lookup_order: closed, all required
    assert "✗ OpenAI strict: refused: additionalProperties is not false at inputSchema" in texts  # search
    assert "✗ OpenAI strict: refused: the name 'files.read' does not match ^[a-zA-Z0-9_-]{1,64}$" in texts
    assert "description is 2,996 characters, over 1,024" in texts  # manual
    assert "'anyOf' at the root of the input schema" in texts  # find

    # the chosen tool's verdict whole above its form (the list cuts it at its width)
    lens.click_item("Tool list", "search")
    verdict = lens.find("Host verdict", QLabel)
    lens.wait(lambda: "(not in required)" in verdict.text(), what="the whole verdict of search")
    assert verdict.text().startswith("✗ OpenAI strict: refused: additionalProperties is not false at inputSchema; ")

    # the Budget's host picker follows, and its host view says the verdicts
    lens.tab("Budget")
    host = lens.find("Host", QComboBox)
    lens.wait(lambda: host.currentText() == "OpenAI strict", what="the Budget's host follows the Tools tab")
    lens.wait_text("OpenAI strict refuses 4 of 5 tools")

    # no host: the marks go, in both tabs
    lens.click(host)
    lens.key("Escape")
    QTest.keyClick(host, Qt.Key.Key_Home)  # None (raw list)
    main_tab(lens, "Tools")
    lens.wait_text("5 tools, 1 with findings")
    lens.wait(lambda: "OpenAI strict:" not in lens.texts(), what="the verdict lines gone")
    assert lens.find("Host check", QComboBox).currentText() == "No host check"
