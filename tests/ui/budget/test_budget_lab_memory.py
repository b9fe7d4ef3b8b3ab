"""The description lab on a 1 MB description holds and builds no copies of it beyond what counting needs
(issue 21 point 4: choosing it in the lab took the app's peak memory up by 14 MB)."""

from __future__ import annotations

import tracemalloc

from budget_ui_support import show_budget, wait_report
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTabBar, QTabWidget

from inspector.ui.main_window import MainWindow

WORDS = "The quick brown fox jumps over the lazy dog, and then it does so again and again. "
LONG = (WORDS * 12 + "\n") * 1_000  # ~1 MB of words and newlines, as tests/servers/big.py's


def tool(name: str, description: str) -> dict:
    schema = {"type": "object", "properties": {"text": {"type": "string", "description": "Some text."}}}
    return {"name": name, "description": description, "inputSchema": schema}


def test_choosing_a_long_description_in_the_lab_makes_few_copies_and_its_json_shows_when_asked(
    qtbot, window: MainWindow
) -> None:
    pane = window.budget
    show_budget(window)
    tools = [tool("plain", "An ordinary tool."), tool("long", LONG)]
    pane.set_tools(tools, "synthetic")
    wait_report(qtbot, pane, {"long"}, timeout=60_000)
    lab = pane.lab
    tracemalloc.start()
    try:
        pane.views.setCurrentWidget(lab)  # its first count of the list, then the long one chosen
        qtbot.waitUntil(lambda: "(unchanged)" in lab.description_count.text(), timeout=60_000)
        assert lab.select("long")
        qtbot.waitUntil(lambda: "(unchanged)" in lab.tool_count.text(), timeout=60_000)
        qtbot.waitUntil(lambda: "tokens (unchanged)" in lab.description_count.text(), timeout=60_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # counting a new text needs it serialised and cut once; the views show its beginning
    assert peak < 4 * len(LONG), f"choosing {len(LONG) / 2**20:.1f} MB peaked at {peak / 2**20:.1f} MB"

    # the edited tool's JSON is there when its tab is opened
    lower = next(w for w in lab.findChildren(QTabWidget) if w.objectName() == "labLower")
    bar = lower.findChild(QTabBar)
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(lower.indexOf(lab.preview)).center())
    qtbot.waitUntil(lambda: lab.preview.isVisible(), timeout=10_000)
    shown = lab.preview.toPlainText()  # its one long line in marked pieces
    assert shown.startswith('{\n  "name": "long",\n  "description": "The quick') and '"inputSchema"' in shown
    assert len(shown) > len(LONG)
