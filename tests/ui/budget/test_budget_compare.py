"""Compare: the demo (connected) and server-everything (a saved server, connected briefly) side by side."""

from __future__ import annotations

import sys

from budget_ui_support import call_tool, cli_reports, demo_budget, everything_profile, show_budget, wait_report
from PySide6.QtCore import Qt
from ui_support import connect, dark_palette, screenshot

from inspector.config.profile import ServerProfile
from inspector.ui.budget.compare_model import FAILED, READY
from inspector.ui.main_window import MainWindow


def column_of(model, label_part: str) -> int:
    return next(
        c for c in range(1, model.columnCount()) if label_part in model.headerData(c, Qt.Orientation.Horizontal)
    )


def row_of(model, label: str) -> int:
    return next(r for r in range(model.rowCount()) if model.index(r, 0).data() == label)


def test_compare_demo_and_everything(qtbot, window: MainWindow, everything: str) -> None:
    pane = window.budget
    demo_report = demo_budget(qtbot, window)
    compare = pane.compare
    pane.views.setCurrentWidget(compare)
    compare.add_current()
    source = compare.add_profile(everything_profile(everything))
    assert compare.progress.isVisibleTo(compare)  # progress while it connects
    qtbot.waitUntil(lambda: not compare.busy(), timeout=60000)
    assert source.state == READY, source.detail
    assert all(s.state == READY for s in compare.model.sources)
    model = compare.model
    assert model.columnCount() == 3
    demo_col, every_col = column_of(model, "Demo server"), column_of(model, "everything")

    # Summary rows: tool counts and per-shape totals, the same figures a counter gives for each list.
    assert model.index(row_of(model, "Tools"), demo_col).data() == f"{len(pane.tools):,}"
    assert model.index(row_of(model, "Tools"), every_col).data() == f"{len(source.tools):,}"
    # The same figures as `mcp-lens tokens` run against server-everything as a separate process.
    cli = cli_reports(["--", "node", everything, "stdio"])
    for shape, label in (("mcp", "MCP tools/list"), ("openai", "OpenAI tools"), ("anthropic", "Anthropic tools")):
        shown = model.index(row_of(model, f"Tokens — {label}"), every_col).data()
        assert shown.split()[0] == f"{cli[shape]['total']:,}", (shape, shown)
        assert {c.name: c.total for c in source.reports[shape].tools} == {
            t["name"]: t["total"] for t in cli[shape]["tools"]
        }
    demo_mcp = model.index(row_of(model, "Tokens — MCP tools/list"), demo_col).data()
    assert demo_mcp == f"{demo_report.total:,}"
    assert model.index(row_of(model, "Share of 128K (MCP tools/list)"), demo_col).data().endswith("%")

    # Tool rows are aligned by name: a tool only server-everything has is marked absent for the demo.
    demo_names = {t["name"] for t in pane.tools}
    only_everything = sorted({t["name"] for t in source.tools} - demo_names)
    assert only_everything
    assert model.index(row_of(model, only_everything[0]), demo_col).data() == "— absent"
    assert model.index(row_of(model, only_everything[0]), every_col).data()[0].isdigit()

    # Changing the shape re-counts every column.
    pane.pickers.set_shape("anthropic")
    qtbot.waitUntil(lambda: not compare.busy() and model.shape == "anthropic", timeout=30000)
    assert model.index(row_of(model, "Share of 128K (Anthropic tools)"), every_col).data().endswith("%")
    pane.pickers.set_shape("mcp")
    qtbot.waitUntil(lambda: not compare.busy() and model.shape == "mcp", timeout=30000)
    wait_report(qtbot, pane)

    window.setPalette(dark_palette())
    window.resize(1400, 900)
    window.dock.hide()  # the figure is about the Budget tab
    qtbot.wait(300)
    screenshot(window, "budget_compare.png")


def test_compare_reports_a_server_that_fails(qtbot, window: MainWindow, tmp_path) -> None:
    connect(qtbot, window)
    pane = window.budget
    compare = pane.compare
    broken = ServerProfile(
        name="broken", transport="stdio", command=sys.executable, args=["-c", "import sys; sys.exit(3)"]
    )
    source = compare.add_profile(broken)
    qtbot.waitUntil(lambda: not compare.busy(), timeout=60000)
    assert source.state == FAILED
    status = compare.model.index(row_of(compare.model, "Status"), 1).data()
    assert status.startswith("✖ failed")
    assert "broken" in compare.message.text() and "check" in compare.message.text()

    bad = tmp_path / "not-a-snapshot.json"
    bad.write_text('{"hello": 1}')
    failed = compare.add_snapshot(bad)
    assert failed.state == FAILED and failed.detail
    compare.clear()
    assert compare.model.columnCount() == 1


def test_compare_with_a_snapshot_file(qtbot, window: MainWindow, tmp_path) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    wait_report(qtbot, pane)
    path = pane.snapshots.save_to(tmp_path / "demo.json")
    assert path is not None and path.exists()
    compare = pane.compare
    compare.add_current()
    source = compare.add_snapshot(path)
    qtbot.waitUntil(lambda: not compare.busy(), timeout=30000)
    assert source.state == READY
    model = compare.model
    tokens = model.index(row_of(model, "Tokens — MCP tools/list"), 2).data()
    assert tokens == model.index(row_of(model, "Tokens — MCP tools/list"), 1).data()
    count = len(pane.tools)

    # list_changed updates the connected server's column; the snapshot's stays as saved.
    call_tool(qtbot, window, "toggle_extra_tool", {"enabled": True})
    qtbot.waitUntil(
        lambda: not compare.busy() and model.index(row_of(model, "Tools"), 1).data() == f"{count + 1:,}",
        timeout=20000,
    )
    assert model.index(row_of(model, "Tools"), 2).data() == f"{count:,}"
    assert model.index(row_of(model, "roll_dice"), 2).data() == "— absent"
    assert model.index(row_of(model, "roll_dice"), 1).data()[0].isdigit()
