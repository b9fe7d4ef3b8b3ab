"""Put the Budget tab into the main window (after Tools / Resources / Prompts) and its actions in a menu."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMenu

from inspector.ui.budget.pane import BudgetPane

AFTER = ("Prompts", "Resources", "Tools")


def install_budget_tab(window: Any) -> BudgetPane:
    """Called once from `MainWindow.__init__`; the pane is kept as `window.budget`."""
    pane = BudgetPane(window.session, window.settings, profiles=window.servers.profiles)
    titles = [window.tabs.tabText(i).replace("&", "") for i in range(window.tabs.count())]
    position = next((titles.index(t) + 1 for t in AFTER if t in titles), window.tabs.count())
    window.tabs.insertTab(position, pane, "Budget")
    window.budget = pane

    menu = QMenu("&Budget", window)
    show = menu.addAction("Show token budget")
    show.setShortcut("Ctrl+Shift+B")
    show.triggered.connect(lambda: window.tabs.setCurrentWidget(pane))
    menu.addSeparator()
    for action in pane.actions_by_name.values():
        action.triggered.connect(lambda _=False: window.tabs.setCurrentWidget(pane))
        menu.addAction(action)
    bar = window.menuBar()
    help_action = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
    if help_action is not None:
        bar.insertMenu(help_action, menu)
    else:
        bar.addMenu(menu)
    return pane
