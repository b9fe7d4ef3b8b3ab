"""The Budget tab: token cost of a server's tool list, compare, snapshot diff, description lab, lints."""

from __future__ import annotations

from typing import Any


def install_budget_tab(window: Any) -> Any:
    """Add the Budget tab and menu to the main window (see `install.py`).

    If the budget package cannot be imported, the tab says why instead of taking the window down.
    """
    try:
        from inspector.ui.budget.install import install_budget_tab as install
    except ImportError as exc:
        from inspector.ui.budget.unavailable import unavailable_tab

        return unavailable_tab(window, exc)
    return install(window)


__all__ = ["install_budget_tab"]
