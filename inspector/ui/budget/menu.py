"""The Budget menu: show the tab, and the pane's own actions (compare, snapshots, lab)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenu, QWidget

from inspector.ui.budget.pane import BudgetPane


def budget_menu(pane: BudgetPane, parent: QWidget, show: Callable[[], None]) -> QMenu:
    """`show` brings the Budget tab forward; every action does so before it runs."""
    menu = QMenu("&Budget", parent)
    action = menu.addAction("Show token budget")
    action.setShortcut("Ctrl+Shift+B")
    action.triggered.connect(lambda _=False: show())
    menu.addSeparator()
    for pane_action in pane.actions_by_name.values():
        pane_action.triggered.connect(lambda _=False: show())
        menu.addAction(pane_action)
    return menu
