"""A config file's names, commands and arguments are plain text everywhere (issue 21).

A config file can come from anyone: its server name carries a right-to-left override, markup, a newline
and a BEL, and so do its arguments. The journey imports it with Import…, walks the import dialog,
imports it, connects to it and walks every widget of every window (list, status panel, traffic filter,
window title, menus, tabs, dialogs): the override, the BEL and the name's line break must be shown as
escapes, never raw, and no markup may be read as rich text.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from lens_support import REPO
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QWidget
from test_hostile_text import Walk, every_widget, visit_every_tab

SERVER = REPO / "tests/servers/hostile_text.py"
NAME = "evil\u202eeman<b>B</b>\nline2\u0007"
ARG = "--arg\u202eveR<b>A</b>\nnext\u0007"  # an argument the server ignores
RAW = ("\u202e", "\u0007", "</b>\nline2", "</b>\nnext")  # the override, the BEL, the name's own line break


class StrictWalk(Walk):
    """`Walk`, and the config's own control characters never shown raw."""

    def plain(self, where: str, text: Any, *, rich_ok: bool = False) -> None:
        super().plain(where, text, rich_ok=rich_ok)
        if isinstance(text, str) and (found := next((raw for raw in RAW if raw in text), None)):
            self.problems.append(f"{where}: {found!r} shown raw: {text[:160]!r}")


class NoFifo:
    """Stands in for the hostile text journey's FIFO watch (no FIFO here: only our own names are hostile)."""

    class _Never:
        @staticmethod
        def is_set() -> bool:
            return False

    opened = _Never()


def walk_window(walk: Walk, window: QWidget) -> None:
    for widget in (window, *window.findChildren(QWidget)):
        walk.widget(widget)


def test_imported_config_names_are_plain_everywhere(lens, tmp_path: Path) -> None:
    config = tmp_path / "evil.json"
    entry = {"command": sys.executable, "args": [str(SERVER), str(tmp_path / "no-fifo"), ARG]}
    config.write_text(json.dumps({"mcpServers": {NAME: entry}}), encoding="utf-8")
    walk = StrictWalk()
    lens.start(connected=False)

    lens.click("Import…")
    picker = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QFileDialog) and w.isVisible())
    picker.setDirectory(str(tmp_path))
    lens.type(lens.find("File name:", QLineEdit, top=picker), config.name)
    lens.click(lens.find("Open", top=picker))
    importer = lens.find("Select All").window()
    lens.wait(lambda: "\\u202e" in lens.texts(), what="the imported name with its override shown")
    walk_window(walk, importer)
    lens.click("Import")

    servers = lens.find("Servers")
    lens.click_item(servers, "evil\\u202e")
    lens.click("Delete server")  # the question names the server: walked, then Cancel
    question = lens.find("Cancel").window()
    walk_window(walk, question)
    lens.click(lens.find("Cancel", top=question))
    lens.menu("Server", "Connect")
    lens.wait_connected()
    lens.wait(lambda: lens.window.notifications.model.rowCount() >= 1, 30_000, "the start-up log message")
    visit_every_tab(lens, NoFifo(), walk)  # type: ignore[arg-type]
    for widget in every_widget(lens.qapp):
        walk.widget(widget)
    for menu_bar_action in lens.window.menuBar().actions():
        if menu_bar_action.menu() is not None:
            walk.widget(menu_bar_action.menu())
    walk.plain("status bar", lens.window.statusBar().currentMessage(), rich_ok=True)
    walk.plain("window title", lens.window.windowTitle(), rich_ok=True)
    assert not walk.problems, f"{len(walk.problems)} problems:\n" + "\n".join(sorted(set(walk.problems))[:80])
