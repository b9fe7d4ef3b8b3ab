"""Help › Keyboard shortcuts: every key the window answers, read from its actual QActions, QShortcuts
and run-key filters when the list opens (so the list cannot go stale), with where each one works."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.ui.widgets.row_table import one_row_at_a_time
from inspector.ui.widgets.run_keys import RunKeyFilter

Row = tuple[str, str, str]  # keys, what, where
COLUMNS = ("Keys", "What", "Where")
EVERYWHERE = "anywhere in the window"


def _words(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…").strip()


def _keys(sequences: list[QKeySequence]) -> str:
    return ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in sequences if not s.isEmpty())


def _mine(window: QMainWindow, item: QObject) -> bool:
    """Owned by a widget of the window itself (a dialog's own keys are not the window's)."""
    parent = item.parent()
    return isinstance(parent, QWidget) and parent.window() is window


def shortcut_rows(window: QMainWindow, where: Callable[[QObject], str]) -> list[Row]:
    """One row per key the window answers: the menus' actions, the panels' actions and shortcuts, and the
    tabs' Ctrl+Enter. `where(obj)` names the panel an object belongs to ("" when it is the window's)."""
    rows: list[Row] = []
    for menu in window.menuBar().findChildren(QMenu):
        path = _words(menu.title())
        for action in menu.actions():
            if keys := _keys(action.shortcuts()):
                rows.append((keys, f"{path} › {_words(action.text())}", EVERYWHERE))
    in_menus = {a for menu in window.menuBar().findChildren(QMenu) for a in menu.actions()}
    for action in window.findChildren(QAction):
        if action not in in_menus and _mine(window, action) and (keys := _keys(action.shortcuts())):
            rows.append((keys, _words(action.text()), where(action.parent()) or EVERYWHERE))
    for shortcut in window.findChildren(QShortcut):
        if _mine(window, shortcut) and (keys := _keys([shortcut.key()])):
            what = shortcut.whatsThis() or "(no description)"
            rows.append((keys, what, where(shortcut.parent()) or EVERYWHERE))
    for run in window.findChildren(RunKeyFilter):
        rows.append(("Ctrl+Return", run.what, where(run.parent()) or EVERYWHERE))
    return sorted(set(rows), key=lambda row: (row[2] != EVERYWHERE, row[2], row[1]))


def show_shortcuts(window: QMainWindow, where: Callable[[QObject], str]) -> QDialog:
    """The list in a dialog (not blocking): key, what it does, where it works."""
    dialog = QDialog(window)
    dialog.setWindowTitle("Keyboard shortcuts — MCP Lens")
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    rows = shortcut_rows(window, where)
    table = QTableWidget(len(rows), len(COLUMNS))
    table.setAccessibleName("Keyboard shortcuts")
    table.setHorizontalHeaderLabels(list(COLUMNS))
    one_row_at_a_time(table)
    for row, values in enumerate(rows):
        for column, value in enumerate(values):
            table.setItem(row, column, QTableWidgetItem(value))
    table.resizeColumnsToContents()  # keys and where at their text's width; what it does takes the rest
    table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.close)
    layout = QVBoxLayout(dialog)
    layout.addWidget(table)
    layout.addWidget(buttons)
    dialog.resize(760, 520)  # fits a 1024×700 screen; the columns give way in a smaller one
    dialog.show()
    return dialog
