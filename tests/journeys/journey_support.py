"""Drive MCP Lens as launched, the way a person does.

`Lens.start(*argv)` runs the app's own entry coroutine (`inspector.app.run`, what `mcp-lens ARGV`
runs after creating the QApplication) on the test's qasync loop, with fresh HOME / XDG folders and
QSettings paths. Widgets are found by what a person sees: their accessible name (which Qt derives
from a button's text or a field's buddy label) or their visible text. Keys and clicks go through
`QTest`. Assertions read what is on screen and the traffic record (the wire).

Never reach into a private attribute here in place of a user action: if a journey cannot find a
widget by its label, the widget needs an accessible name.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtGui import QAccessible, QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QRadioButton,
    QScrollArea,
    QStyle,
    QStyleOptionButton,
    QTabBar,
    QTextEdit,
    QWidget,
)

CONNECT_TIMEOUT_MS = 30_000


def strip_mnemonic(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def accessible_name(widget: QWidget) -> str:
    """The name a screen reader announces: set explicitly, or derived by Qt (button text, buddy label)."""
    if widget.accessibleName():
        return widget.accessibleName()
    iface = QAccessible.queryAccessibleInterface(widget)
    return iface.text(QAccessible.Text.Name) if iface is not None and iface.isValid() else ""


def shown_text(widget: QWidget) -> str:
    """What a widget shows as text (label, button, field, text view, combo's current item)."""
    if isinstance(widget, QLabel | QAbstractButton | QLineEdit):
        return strip_mnemonic(widget.text())
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        return widget.toPlainText()
    if isinstance(widget, QComboBox):
        return widget.currentText()
    return ""


def columns(model: Any) -> int:
    try:
        return model.columnCount()
    except TypeError:  # a list model's columnCount is protected in PySide
        return 1


def really_visible(widget: QWidget) -> bool:
    """Shown in a shown window (possibly scrolled out of view: `click` scrolls to it as a person would)."""
    return widget.isVisible() and QWidget.window(widget).isVisible()


def click_point(widget: QWidget) -> QPoint:
    """Where a person clicks: a check box or radio button on its box (a wide one's centre is empty
    space, which Qt rightly ignores), anything else in its middle."""
    if isinstance(widget, QCheckBox | QRadioButton):
        option = QStyleOptionButton()
        widget.initStyleOption(option)
        element = (
            QStyle.SubElement.SE_CheckBoxIndicator
            if isinstance(widget, QCheckBox)
            else QStyle.SubElement.SE_RadioButtonIndicator
        )
        return widget.style().subElementRect(element, option, widget).center()
    return widget.rect().center()


def scroll_into_view(widget: QWidget) -> None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            parent.ensureWidgetVisible(widget)
        parent = parent.parentWidget()


class Lens:
    """One launched app (restartable) in fresh folders under `home`."""

    def __init__(self, qtbot: Any, qapp: QApplication, home: Path, monkeypatch: Any) -> None:
        self.qtbot = qtbot
        self.qapp = qapp
        self.home = home
        self.task: asyncio.Task[int] | None = None
        self.window: QMainWindow | None = None
        self._signals = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
        config = home / ".config"
        for name, folder in {
            "HOME": home,
            "XDG_CONFIG_HOME": config,
            "XDG_DATA_HOME": home / ".local/share",
            "XDG_CACHE_HOME": home / ".cache",
            "XDG_STATE_HOME": home / ".local/state",
        }.items():
            folder.mkdir(parents=True, exist_ok=True)
            monkeypatch.setenv(name, str(folder))
        monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
        # Qt reads the settings folder once per process: point it at this home for every start.
        for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
            QSettings.setPath(fmt, QSettings.Scope.UserScope, str(config))

    # -- launching ---------------------------------------------------------------------------
    def start(self, *argv: str, connected: bool = True) -> QMainWindow:
        """Start `mcp-lens ARGV`; wait for its window (and, by default, for "connected")."""
        from inspector import app

        assert self.task is None or self.task.done(), "the app is already running"
        app.configure_app(self.qapp)
        before = set(self.qapp.topLevelWidgets())
        self.task = asyncio.ensure_future(app.run(self.qapp, app.parse_args(list(argv))))
        self.qtbot.waitUntil(lambda: self._new_main_window(before) is not None, timeout=20_000)
        self.window = self._new_main_window(before)
        if connected:
            self.wait_connected()
        return self.window

    def _new_main_window(self, before: set[QWidget]) -> QMainWindow | None:
        if self.task is not None and self.task.done():
            self.task.result()  # raises what the entry point raised
        for widget in self.qapp.topLevelWidgets():
            if widget not in before and isinstance(widget, QMainWindow) and widget.isVisible():
                return widget
        return None

    def quit(self) -> int:
        """File › Quit, then wait for the entry point to return; its exit code."""
        self.menu("File", "Quit")
        return self.wait_exit()

    def wait_exit(self) -> int:
        self.qtbot.waitUntil(lambda: self.task is not None and self.task.done(), timeout=20_000)
        code = self.task.result()
        self.window = None
        return code

    def stop(self) -> None:
        """Teardown: close whatever is still open and restore the test process's signal handlers."""
        for widget in self.qapp.topLevelWidgets():
            if widget.isVisible() and widget is not self.window:
                widget.close()
        if self.window is not None and self.task is not None and not self.task.done():
            self.window.close()
            self.wait_exit()
        for number, handler in self._signals.items():
            signal.signal(number, handler)

    # -- what the user sees ------------------------------------------------------------------
    def widgets(self, cls: type[QWidget] = QWidget, *, top: QWidget | None = None) -> list[QWidget]:
        roots = [top] if top is not None else [w for w in self.qapp.topLevelWidgets() if w.isVisible()]
        found: list[QWidget] = []
        for root in roots:
            candidates: Iterable[QWidget] = [root, *root.findChildren(QWidget)]
            found += [w for w in candidates if isinstance(w, cls) and really_visible(w)]
        return found

    def find(
        self, name: str, cls: type[QWidget] = QWidget, *, top: QWidget | None = None, timeout: int = 5_000
    ) -> QWidget:
        """The visible widget whose accessible name or shown text is `name` (exact); waits for it, else fails."""

        def matches() -> list[QWidget]:
            return [w for w in self.widgets(cls, top=top) if name in (accessible_name(w), shown_text(w))]

        try:
            self.qtbot.waitUntil(lambda: bool(matches()), timeout=timeout)
        except Exception as exc:
            names = sorted({accessible_name(w) for w in self.widgets(cls, top=top)} - {""})
            raise AssertionError(f"no visible {cls.__name__} named {name!r}; named ones: {names}") from exc
        return matches()[0]

    def has(self, name: str, cls: type[QWidget] = QWidget) -> bool:
        return any(name in (accessible_name(w), shown_text(w)) for w in self.widgets(cls))

    def texts(self) -> str:
        """Every visible text, one per line (labels, fields, text views, buttons, item views' cells)."""
        lines = [shown_text(w) for w in self.widgets()]
        for view in self.widgets(QAbstractItemView):
            model = view.model()
            if model is None:
                continue
            for row in range(min(model.rowCount(), 500)):
                for column in range(columns(model)):
                    value = model.index(row, column).data()
                    if value is not None:
                        lines.append(str(value))
        return "\n".join(line for line in lines if line)

    def wait(self, check: Callable[[], Any], timeout: int = 10_000, what: str = "") -> None:
        """Wait until `check()` is truthy; fail naming `what` (and the status bar) if it never is."""
        try:
            self.qtbot.waitUntil(lambda: bool(check()), timeout=timeout)
        except Exception as exc:
            raise AssertionError(f"never happened: {what or check!r}; status bar: {self.status()!r}") from exc

    def shows(self, text: str) -> bool:
        return text in self.texts()

    def wait_text(self, text: str, timeout: int = 10_000) -> None:
        try:
            self.qtbot.waitUntil(lambda: self.shows(text), timeout=timeout)
        except Exception as exc:
            raise AssertionError(f"{text!r} never showed; shown:\n{self.texts()[:3000]}") from exc

    def status(self) -> str:
        assert self.window is not None
        bar = self.window.statusBar()
        return "\n".join([bar.currentMessage(), *(shown_text(w) for w in bar.findChildren(QLabel))])

    def wait_connected(self, timeout: int = CONNECT_TIMEOUT_MS) -> None:
        self.wait_status(lambda text: "connected to" in text, timeout)

    def wait_status(self, check: Callable[[str], bool], timeout: int = 10_000) -> None:
        try:
            self.qtbot.waitUntil(lambda: check(self.status()), timeout=timeout)
        except Exception as exc:
            raise AssertionError(f"status bar reads: {self.status()!r}") from exc

    # -- what the user does ------------------------------------------------------------------
    def click(self, target: str | QWidget, cls: type[QWidget] = QWidget) -> QWidget:
        widget = self.find(target, cls) if isinstance(target, str) else target
        assert widget.isEnabled(), f"{accessible_name(widget) or widget!r} is disabled"
        scroll_into_view(widget)
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, click_point(widget))
        return widget

    def type(self, target: str | QWidget, text: str, *, clear: bool = True) -> QWidget:
        """Focus a field (by a click) and type `text`, key by key (no newlines: QTest aborts on them)."""
        widget = self.find(target) if isinstance(target, str) else target
        self.click(widget)
        widget.setFocus()
        if clear:
            QTest.keySequence(widget, QKeySequence.StandardKey.SelectAll)
            QTest.keyClick(widget, Qt.Key.Key_Delete)
        QTest.keyClicks(widget, text)
        return widget

    def key(self, sequence: str | QKeySequence.StandardKey, widget: QWidget | None = None) -> None:
        """Press a key sequence where the keyboard focus is (as a person would)."""
        target = widget or self.qapp.focusWidget() or self.window
        QTest.keySequence(target, QKeySequence(sequence))

    def menu(self, *path: str) -> QAction:
        """Trigger a menu bar item, e.g. ``menu("Server", "Connect")``."""
        assert self.window is not None
        menu: Any = self.window.menuBar()
        action: QAction | None = None
        for name in path:
            actions = menu.actions()
            found = [a for a in actions if strip_mnemonic(a.text()).rstrip("…") == name.rstrip("…")]
            assert found, f"no menu item {name!r} in {[strip_mnemonic(a.text()) for a in actions]}"
            action = found[0]
            menu = action.menu() if isinstance(action.menu(), QMenu) else None
        assert action is not None and action.isEnabled(), f"menu item {path} is disabled"
        action.trigger()
        return action

    def tab(self, name: str) -> None:
        """Click the visible tab labelled `name` (in any tab bar)."""
        for bar in self.widgets(QTabBar):
            for index in range(bar.count()):
                if strip_mnemonic(bar.tabText(index)) == name:
                    QTest.mouseClick(
                        bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.tabRect(index).center()
                    )
                    return
        raise AssertionError(f"no visible tab {name!r}")

    def click_item(self, view: QAbstractItemView | str, text: str, *, double: bool = False, timeout: int = 10_000):
        """Click the first cell of an item view whose text contains `text` (waits for it)."""
        widget = self.find(view, QAbstractItemView) if isinstance(view, str) else view
        model = widget.model()

        def row_index() -> Any:
            for row in range(model.rowCount()):
                for column in range(columns(model)):
                    index = model.index(row, column)
                    if text in str(index.data() or ""):
                        return index
            return None

        try:
            self.qtbot.waitUntil(lambda: row_index() is not None, timeout=timeout)
        except Exception as exc:
            rows = [str(model.index(r, 0).data()) for r in range(model.rowCount())]
            raise AssertionError(f"no row with {text!r} in {accessible_name(widget)!r}: {rows}") from exc
        index = row_index()
        widget.scrollTo(index)
        point: QPoint = widget.visualRect(index).center()
        viewport = widget.viewport()
        QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        if double:
            QTest.mouseDClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)

    # -- the wire --------------------------------------------------------------------------
    def wire(self) -> list[Any]:
        """The traffic record of this window (entries in the order they crossed the wire)."""
        assert self.window is not None
        return list(self.window.store)

    def sent(self, method: str) -> list[dict[str, Any]]:
        """Parsed messages we sent with this method."""
        return [entry.parsed() for entry in self.wire() if entry.direction == "out" and entry.method == method]
