"""Every interactive widget a person can reach has a name a screen reader (and a journey) can use,
and no key sequence is bound twice in the main window (Qt would fire neither: "Ambiguous shortcut")."""

from __future__ import annotations

from collections import Counter

from journey_support import accessible_name
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

INTERACTIVE = (
    QAbstractButton,
    QLineEdit,
    QComboBox,
    QAbstractSpinBox,
    QAbstractItemView,
    QPlainTextEdit,
    QTextEdit,
    QAbstractSlider,
)


def unnamed(lens) -> set[str]:
    """Describe each visible, enabled interactive widget without an accessible name."""
    found = set()
    for widget in lens.widgets():
        if not isinstance(widget, INTERACTIVE) or isinstance(widget.parentWidget(), QComboBox | QAbstractSpinBox):
            continue
        if isinstance(widget.parentWidget(), QTabBar):  # the bar's scroll arrows
            continue
        if widget.focusPolicy() == Qt.FocusPolicy.NoFocus and not isinstance(widget, QAbstractButton):
            continue
        if not accessible_name(widget):
            found.add(f"{type(widget).__name__} {widget.objectName() or ''} in {path_of(widget)}")
    return found


def path_of(widget: QWidget) -> str:
    names = []
    parent = widget.parentWidget()
    while parent is not None and len(names) < 4:
        names.append(parent.objectName() or type(parent).__name__)
        parent = parent.parentWidget()
    return " < ".join(names)


def test_every_interactive_widget_has_a_name(lens) -> None:
    lens.start()
    lens.click_item("Tool list", "Schedule a meeting")
    missing = unnamed(lens)
    for tab in ("Resources", "Prompts", "Budget", "Doctor", "Auth", "Collections", "Tools"):
        lens.tab(tab)
        lens.qtbot.wait(200)
        missing |= unnamed(lens)
    for tab in ("Server output", "Notifications", "Traffic"):
        lens.tab(tab)
        missing |= unnamed(lens)
    lens.click("Add")  # the server dialog, as it opens for a new server
    lens.find("Name")
    missing |= unnamed(lens)
    lens.key("Escape")
    assert not missing, "interactive widgets without an accessible name:\n" + "\n".join(sorted(missing))


WINDOW_WIDE = (Qt.ShortcutContext.WindowShortcut, Qt.ShortcutContext.ApplicationShortcut)


def live_bindings(window: QWidget) -> Counter[str]:
    """Window-wide key sequences that can fire now: menu actions, and shortcuts and actions on visible
    widgets. (Widget-scoped bindings only fire with focus inside their widget, so they cannot clash.)"""
    keys: Counter[str] = Counter()
    for action in window.findChildren(QAction):
        owners = [o for o in action.associatedObjects() if isinstance(o, QWidget)]
        live = any(isinstance(o, QMenu) or o.isVisible() for o in owners)
        if live and action.isEnabled() and action.shortcutContext() in WINDOW_WIDE:
            keys.update(sequence.toString() for sequence in action.shortcuts())
    for shortcut in window.findChildren(QShortcut):
        owner = shortcut.parent()
        if (
            shortcut.isEnabled()
            and isinstance(owner, QWidget)
            and owner.isVisible()
            and shortcut.context() in WINDOW_WIDE
        ):
            keys.update(sequence.toString() for sequence in shortcut.keys())  # noqa: SIM118 (a QShortcut)
    return keys


def test_no_key_sequence_is_bound_twice(lens) -> None:
    window = lens.start()
    for tab in ("Tools", "Resources", "Prompts", "Budget", "Doctor", "Auth", "Collections"):
        lens.tab(tab)
        keys = live_bindings(window)
        assert not [key for key, count in keys.items() if count > 1 and key], (tab, keys)
