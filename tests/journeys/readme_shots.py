"""The README's screenshots, taken from the app as launched at 1280×860 (run by `scripts/screenshots`).

Not collected by the test suite (the name does not start with `test_`): the suite never writes into
tracked files. Each shot drives the app as a person would, then saves the window to
`$MCP_LENS_SHOTS_DIR` (default `docs/`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from lens_support import EVERYTHING, REPO

SHOTS = Path(os.environ.get("MCP_LENS_SHOTS_DIR", REPO / "docs"))
SIZE = (1280, 860)


def save(lens, name: str) -> None:
    lens.qtbot.wait(400)  # let the last repaint land
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert lens.window.grab().save(str(SHOTS / name)), name


def test_workbench(lens) -> None:
    lens.start().resize(*SIZE)
    lens.click_item("Tool list", "Generate tone (generate_tone)")
    lens.key("Ctrl+Return", lens.find("Call  (Ctrl+Enter)"))
    lens.wait(lambda: any(e.method == "tools/call" and e.direction == "in" for e in lens.wire()), what="the result")
    lens.click_item("Traffic log", "tools/call")
    save(lens, "workbench.png")


def test_budget(lens) -> None:
    servers = lens.home / ".config/mcp-lens/servers.json"
    servers.parent.mkdir(parents=True, exist_ok=True)
    entry = {"command": "node", "args": [str(EVERYTHING), "stdio"]}
    servers.write_text(json.dumps({"mcpServers": {"server-everything": entry}}))
    lens.start().resize(*SIZE)
    lens.tab("Budget")
    lens.wait(lambda: lens.shows("schedule_meeting"), what="the demo's tools counted")
    save(lens, "budget-tools.png")
    lens.key("Ctrl+Shift+M")
    lens.click("Add connected server")
    menu = lens.find("Add saved server").menu()
    menu.aboutToShow.emit()
    next(a for a in menu.actions() if a.text() == "server-everything").trigger()
    lens.wait(lambda: lens.shows("get-tiny-image"), timeout=60_000, what="server-everything counted")
    save(lens, "budget.png")
