"""Snapshots: save the demo's tool list, toggle a tool (list_changed), diff; breaking changes marked."""

from __future__ import annotations

import json

from budget_ui_support import call_tool, demo_budget, show_budget, wait_report
from PySide6.QtCore import Qt
from ui_support import dark_palette, screenshot

from inspector.budget.snapshot import Snapshot, load_snapshot, save_snapshot
from inspector.ui.budget.diff_model import BREAKING, COLUMNS
from inspector.ui.main_window import MainWindow


def rows(model) -> list[list[str]]:
    return [[model.index(r, c).data() for c in range(len(COLUMNS))] for r in range(model.rowCount())]


def test_snapshot_then_toggle_then_diff_shows_roll_dice(qtbot, window: MainWindow, tmp_path) -> None:
    pane = window.budget
    before = demo_budget(qtbot, window)
    path = pane.snapshots.save_to(tmp_path / "demo-before.json")
    assert path is not None
    saved = load_snapshot(path)
    assert saved.server == "Demo server" and len(saved.tools) == len(before.tools)
    assert "inspector.demo" in saved.source

    call_tool(qtbot, window, "toggle_extra_tool", {"enabled": True})
    after = wait_report(qtbot, pane, {"roll_dice"})
    dice = next(c for c in after.tools if c.name == "roll_dice")

    diff = pane.diff.diff(path)  # old = the snapshot, new = the connected server now
    assert diff is not None
    assert [c.name for c in diff.added] == ["roll_dice"]
    assert diff.added[0].new_tokens == dice.total
    assert not diff.removed and not diff.breaking
    assert diff.old_total == before.total and diff.new_total == after.total
    table = rows(pane.diff.model)
    added = next(row for row in table if row[1] == "roll_dice")
    assert added[0] == "✚ added" and added[4] == f"+{dice.total:,}"
    summary = pane.diff.summary.text()
    assert "1 added" in summary and f"{before.total:,} → {after.total:,}" in summary
    assert "no breaking changes" in summary
    assert pane.views.currentWidget() is pane.diff

    window.setPalette(dark_palette())
    window.resize(1400, 900)
    window.dock.hide()
    qtbot.wait(200)
    screenshot(window, "budget_diff.png")

    # Toggling back and diffing the other way: roll_dice was removed, which breaks its callers.
    later = pane.snapshots.save_to(tmp_path / "demo-after.json")
    call_tool(qtbot, window, "toggle_extra_tool", {"enabled": False})
    qtbot.waitUntil(lambda: "roll_dice" not in {c.name for c in pane.report.tools}, timeout=20000)
    back = pane.diff.diff(later)
    assert [c.name for c in back.removed] == ["roll_dice"] and back.breaking
    assert BREAKING in pane.diff.summary.text()


def breaking_pair(tmp_path):
    tool = {
        "name": "search",
        "description": "Search notes.",
        "inputSchema": {
            "type": "object",
            "properties": {"query": {"type": "string"}, "mode": {"type": "string", "enum": ["fast", "deep"]}},
            "required": ["query"],
        },
    }
    changed = json.loads(json.dumps(tool))
    changed["inputSchema"]["properties"]["limit"] = {"type": "integer"}
    changed["inputSchema"]["required"] = ["query", "limit"]
    changed["inputSchema"]["properties"]["mode"]["enum"] = ["fast"]
    keep = {"name": "ping", "description": "Ping.", "inputSchema": {"type": "object"}}
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    save_snapshot(old, Snapshot("srv", "2026-11-01T00:00:00Z", [tool, keep], "file"))
    save_snapshot(new, Snapshot("srv", "2026-11-22T00:00:00Z", [changed, keep], "file"))
    return old, new


def test_two_files_breaking_change_marked_with_text_and_colour(qtbot, window: MainWindow, tmp_path) -> None:
    pane = window.budget
    old, new = breaking_pair(tmp_path)
    diff = pane.diff.diff(old, new)
    assert diff is not None and diff.breaking
    assert [c.name for c in diff.changed] == ["search"]
    model = pane.diff.model
    row = rows(model)[0]
    assert row[0] == f"✎ changed  {BREAKING}"  # text, not only colour
    assert row[1] == "search" and row[6]  # the breaking reasons are spelled out
    assert model.index(0, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    assert BREAKING in pane.diff.summary.text()
    assert pane.diff.new_kind.currentData() == "file" and pane.diff.new_label.text().endswith("new.json")
    detail = pane.diff.detail.toPlainText()
    assert detail.startswith("search: changed") and f"{BREAKING} for callers:" in detail
    assert "limit" in detail  # the new required field is named
    show_budget(window)
    window.setPalette(dark_palette())
    window.resize(1400, 900)
    window.dock.hide()
    qtbot.wait(200)
    screenshot(window.budget, "budget_diff_breaking.png")


def test_bad_snapshot_gives_a_message(qtbot, window: MainWindow, tmp_path) -> None:
    pane = window.budget
    assert pane.diff.run() is None
    assert "Choose the old snapshot" in pane.diff.summary.text()
    garbage = tmp_path / "garbage.json"
    garbage.write_text("this is not json")
    assert pane.diff.diff(garbage) is None
    assert pane.diff.summary.text().startswith("Could not diff:")
    assert "garbage.json" in pane.diff.summary.text()
    assert pane.diff.model.rowCount() == 0
    missing = pane.diff.diff(tmp_path / "missing.json")
    assert missing is None and "Could not diff" in pane.diff.summary.text()


def test_saving_where_it_cannot_write_says_so(qtbot, window: MainWindow, tmp_path) -> None:
    pane = window.budget
    told: list[str] = []
    pane.snapshots.tell = lambda _parent, _icon, title, text: told.append(f"{title}: {text}")
    assert pane.snapshots.save_dialog() is None  # nothing connected yet
    assert told and told[-1].startswith("Nothing to save")
    pane.set_tools([{"name": "a", "description": "A."}], "s")
    (tmp_path / "a-file").write_text("")  # a missing folder is created: a file where the folder goes is not
    assert pane.snapshots.save_to(tmp_path / "a-file" / "x.json") is None
    assert told[-1].startswith("Could not save") and "a-file" in told[-1]
