"""The Budget menu: show the tab, and the current server's pane actions (compare, snapshots, lab)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenu, QWidget

from inspector.ui.budget.pane import BudgetPane


class BudgetMenu(QMenu):
    """Holds the actions of one pane at a time: `retarget` moves it to another server's pane (each server
    has its own Budget tab; only the shown one's shortcuts are live)."""

    def __init__(self, pane: BudgetPane, parent: QWidget, show: Callable[[], None]) -> None:
        super().__init__("&Budget", parent)
        self._show = show
        action = self.addAction("Show token budget")
        action.setShortcut("Ctrl+Shift+B")
        action.triggered.connect(lambda _=False: show())
        self.addSeparator()
        self.pane: BudgetPane | None = None
        self._wired: set[int] = set()  # panes whose actions already bring the tab forward
        self.retarget(pane)

    def retarget(self, pane: QWidget) -> None:
        if not isinstance(pane, BudgetPane) or pane is self.pane:
            return
        if self.pane is not None:
            for old in self.pane.actions_by_name.values():
                self.removeAction(old)
        self.pane = pane
        for pane_action in pane.actions_by_name.values():
            if id(pane) not in self._wired:
                pane_action.triggered.connect(lambda _=False: self._show())
            self.addAction(pane_action)
        self._wired.add(id(pane))


def budget_menu(pane: BudgetPane, parent: QWidget, show: Callable[[], None]) -> BudgetMenu:
    """`show` brings the Budget tab forward; every action does so before it runs."""
    return BudgetMenu(pane, parent, show)
