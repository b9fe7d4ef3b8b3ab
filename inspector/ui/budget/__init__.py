"""The Budget tab: token cost of a server's tool list, compare, snapshot diff, description lab, lints."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QMenu, QWidget

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from inspector.ui.session import SessionController


def budget_panel(session: SessionController, settings: QSettings, profiles: Callable[[], list[Any]]) -> QWidget:
    """The Budget tab's widget: the `BudgetPane`, or, if the budget package cannot be imported, a tab
    that says why instead of taking the window down."""
    try:
        from inspector.ui.budget.pane import BudgetPane
    except ImportError as exc:
        from inspector.ui.budget.unavailable import unavailable_tab

        return unavailable_tab(exc)
    return BudgetPane(session, settings, profiles=profiles)


def budget_menu(panel: QWidget, parent: QWidget, show: Callable[[], None]) -> QMenu | None:
    """The Budget menu for `panel` (None for the tab of a broken install)."""
    try:
        from inspector.ui.budget.menu import budget_menu as menu
        from inspector.ui.budget.pane import BudgetPane
    except ImportError:
        return None
    return menu(panel, parent, show) if isinstance(panel, BudgetPane) else None


__all__ = ["budget_menu", "budget_panel"]
