"""The Budget tab in the real window against the demo server: counts, list_changed, lints, pickers, copy."""

from __future__ import annotations

from budget_ui_support import LINT_PROFILE, call_tool, cli_reports, show_budget, wait_report
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QPushButton
from ui_support import connect, dark_palette, screenshot

from inspector.ui.budget.common import fmt_share
from inspector.ui.budget.pickers import BudgetPickers
from inspector.ui.budget.tools_model import BAR_COLUMN, COST_ROLE
from inspector.ui.main_window import MainWindow


def test_pane_agrees_with_cli_for_every_shape(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    assert window.tabs.tabText(window.tabs.indexOf(pane)) == "Budget"
    assert window.tabs.indexOf(pane) > window.tabs.indexOf(window.workbench)
    show_budget(window)
    pane.pickers.set_tokenizer("o200k_base")
    cli_by_shape = cli_reports(["--demo"])
    for shape in ("mcp", "openai", "anthropic"):
        pane.pickers.set_shape(shape)
        report = wait_report(qtbot, pane)
        qtbot.waitUntil(lambda s=shape: pane.report.shape == s, timeout=20000)
        report = pane.report
        cli = cli_by_shape[shape]
        assert report.total == cli["total"], shape
        assert report.overhead == cli["overhead"], shape
        assert {c.name: c.total for c in report.tools} == {t["name"]: t["total"] for t in cli["tools"]}, shape
        # What the window shows says the same.
        assert f"{report.total:,} tokens" in pane.totals.text()
        assert pane.overview.model.rowCount() == len(cli["tools"])
    assert "estimate" in pane.totals.text()  # Claude's shape counted with an OpenAI encoder is an estimate
    pane.pickers.set_shape("mcp")
    qtbot.waitUntil(lambda: pane.report.shape == "mcp", timeout=20000)
    assert "exact" in pane.totals.text() and "estimate" not in pane.totals.text()


def test_estimate_is_never_labelled_exact(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    pane.pickers.set_shape("mcp")
    assert pane.pickers.set_tokenizer("chars4")
    qtbot.waitUntil(lambda: pane.report is not None and pane.report.tokenizer == "chars4", timeout=20000)
    text = pane.totals.text()
    assert "estimate" in text and "exact" not in text
    # chars ÷ 4 of the same list: a different figure from the exact encoder.
    chars_total = pane.report.total
    pane.pickers.set_tokenizer("o200k_base")
    qtbot.waitUntil(lambda: pane.report.tokenizer == "o200k_base", timeout=20000)
    assert pane.report.total != chars_total


def test_list_changed_recomputes(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    before = wait_report(qtbot, pane)
    assert "roll_dice" not in {c.name for c in before.tools}
    call_tool(qtbot, window, "toggle_extra_tool", {"enabled": True})
    after = wait_report(qtbot, pane, {"roll_dice"})
    dice = next(c for c in after.tools if c.name == "roll_dice")
    assert after.total > before.total
    assert len(after.tools) == len(before.tools) + 1
    assert pane.overview.select_tool("roll_dice")
    assert pane.overview.selected_tool() == "roll_dice"
    assert dice.description_tokens > 0 and dice.schema_tokens > 0
    window.setPalette(dark_palette())
    window.resize(1400, 900)
    window.dock.hide()
    qtbot.wait(200)
    screenshot(window, "budget_overview.png")


def test_table_sorts_and_bars_share_one_scale(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    report = wait_report(qtbot, pane)
    view = pane.overview
    view.table.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    totals = [view.proxy.index(r, BAR_COLUMN).data(COST_ROLE).total for r in range(view.proxy.rowCount())]
    assert totals == sorted(totals, reverse=True) and totals[0] == view.model.max_total()
    view.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    names = [view.proxy.index(r, 0).data() for r in range(view.proxy.rowCount())]
    assert names == sorted(names, key=str.lower)
    assert sorted(names) == sorted(c.name for c in report.tools)
    # Copy as Markdown: a header, a separator and one row per tool.
    buttons = {b.text(): b for b in view.findChildren(QPushButton)}
    buttons["Copy Markdown"].click()
    lines = QGuiApplication.clipboard().text().splitlines()
    assert lines[0].startswith("| Tool | Tokens |") and len(lines) == 2 + len(report.tools)
    buttons["Copy CSV"].click()
    assert QGuiApplication.clipboard().text().splitlines()[0].startswith("Tool,Tokens,")


def test_lints_listed_and_double_click_selects_tool(qtbot, window: MainWindow) -> None:
    connect(qtbot, window, LINT_PROFILE)
    pane = window.budget
    show_budget(window)
    report = wait_report(qtbot, pane, {"undocumented", "bad name!"})
    codes = {(lint.tool, lint.severity) for lint in report.lints}
    assert ("undocumented", "warning") in codes or ("undocumented", "error") in codes
    assert any(lint.tool == "bad name!" for lint in report.lints)
    lints = pane.overview.lints
    assert lints.model.rowCount() == len(report.lints)
    shown = [lints.model.index(r, 0).data() for r in range(lints.model.rowCount())]
    assert all(text.split()[1] in ("error", "warning", "info") for text in shown)  # a word, not colour only
    row = next(r for r, lint in enumerate(lints.model.lints) if lint.tool == "undocumented")
    lints.table.doubleClicked.emit(lints.model.index(row, 2))
    assert pane.overview.selected_tool() == "undocumented"
    # The server's name carries markup; it is shown as text.
    assert pane.server_label.textFormat() == Qt.TextFormat.PlainText
    assert "Lints:" in lints.summary.text()
    window.setPalette(dark_palette())
    window.resize(1400, 900)
    qtbot.wait(200)
    screenshot(window, "budget_lints.png")


def test_pickers_are_remembered(qtbot, qloop, isolated_config) -> None:
    settings = QSettings(str(isolated_config / "lens.ini"), QSettings.Format.IniFormat)
    first = BudgetPickers(settings)
    qtbot.addWidget(first)
    first.set_tokenizer("cl100k_base")
    first.set_shape("anthropic")
    first.set_window(64_000)
    assert first.window_tokens() == 64_000 and first.custom.isVisibleTo(first)
    second = BudgetPickers(settings)
    qtbot.addWidget(second)
    assert (second.tokenizer_name(), second.shape_name(), second.window_tokens()) == (
        "cl100k_base",
        "anthropic",
        64_000,
    )
    second.set_window(1_000_000)
    third = BudgetPickers(settings)
    qtbot.addWidget(third)
    assert third.window_tokens() == 1_000_000 and not third.custom.isVisibleTo(third)


def test_window_choice_changes_the_share_without_a_recount(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    pane = window.budget
    show_budget(window)
    pane.pickers.set_window(128_000)
    report = wait_report(qtbot, pane)
    assert "of a 128K window" in pane.totals.text()
    pane.pickers.set_window(1_000_000)
    assert "of a 1M window" in pane.totals.text()
    pane.pickers.set_window(50_000)  # custom
    assert "of a 50K window" in pane.totals.text()
    assert fmt_share(report.share(50_000)) in pane.totals.text()
    assert pane.report is report and not pane.runner.busy


def test_budget_menu_and_shortcuts(qtbot, window: MainWindow) -> None:
    titles = [action.text() for action in window.menuBar().actions()]
    assert titles.index("&Budget") == titles.index("&Help") - 1
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Budget")
    shortcuts = {a.text(): a.shortcut().toString() for a in menu.actions() if not a.isSeparator()}
    assert shortcuts["Save tool list snapshot…"] == "Ctrl+Shift+S"
    assert shortcuts["Show token budget"] == "Ctrl+Shift+B"
    window.tabs.setCurrentWidget(window.workbench)
    window.budget.actions_by_name["lab"].trigger()
    assert window.tabs.currentWidget() is window.budget
    assert window.budget.views.currentWidget() is window.budget.lab
