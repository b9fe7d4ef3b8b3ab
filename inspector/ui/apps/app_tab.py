"""The Tools tab's App page: the App view of the shown call, when its tool declares an interface.

The app can be opened in a window of its own (a running app keeps running: the same view moves), and
comes back into the tab when that window is closed."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from inspector.apps.ui_resource import has_interface
from inspector.core.history import CallRecord
from inspector.ui.apps.app_view import AppView
from inspector.ui.session import SessionController
from inspector.ui.widgets.plain_text import plain_label, window_title

WINDOW_SIZE = (960, 720)


class AppTab(QWidget):
    """Holds at most one running app: the one of the call whose result is shown."""

    def __init__(self, session: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.record: CallRecord | None = None
        self.view: AppView | None = None
        self.window_: QWidget | None = None  # the app's own window, while it is open there
        self.pop_button = QPushButton("Open in Window")
        self.pop_button.setAccessibleName("Open the app in its own window")
        self.pop_button.clicked.connect(self.open_window)
        self.away = plain_label("The app is open in its own window.", wrap=False, selectable=True)
        self.away.setAccessibleName("Where the app is")
        self.back_button = QPushButton("Bring Back")
        self.back_button.setAccessibleName("Bring the app back into this tab")
        self.back_button.clicked.connect(self.close_window)
        bar = QHBoxLayout()
        bar.setContentsMargins(6, 4, 6, 0)
        bar.addWidget(self.away)
        bar.addStretch(1)
        bar.addWidget(self.back_button)
        self.bar = QWidget()  # shown while the app is in its own window
        self.bar.setLayout(bar)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.box.addWidget(self.bar)
        self._show_where()

    def show_call(self, record: CallRecord, tool: Any, tools: list[dict[str, Any]] | None = None) -> bool:
        """Run the app of `record`'s tool, handing it the call's input and result; False (and nothing
        shown) when the tool declares no interface or the call has no result."""
        if not isinstance(tool, dict) or not has_interface(tool) or not isinstance(record.result, dict):
            self.clear()
            return False
        if record is self.record and self.view is not None:
            return True
        self.clear()
        self.record = record
        arguments = record.arguments if isinstance(record.arguments, dict) else {}
        self.view = AppView(self.session, tool, arguments, record.result, tools)
        self.view.about.addWidget(self.pop_button)  # on the app's own line: the app keeps the height
        self.box.addWidget(self.view, 1)
        self._show_where()
        return True

    def clear(self) -> None:
        """Stop the running app, if any (it is asked to tear down first), and close its window."""
        view, self.view, self.record = self.view, None, None
        if self.window_ is not None:
            window, self.window_ = self.window_, None
            window.removeEventFilter(self)
            window.close()
            window.deleteLater()
        if view is not None:
            self.pop_button.setParent(self)  # kept for the next app
            view.setParent(None)
            view.hide()
            view.retire()  # asked to tear down, stopped a moment later
        self._show_where()

    # -- its own window ----------------------------------------------------------------------
    def open_window(self) -> None:
        """Move the running app into a window of its own (it keeps running; nothing is reloaded)."""
        view = self.view
        if view is None or self.window_ is not None:
            return
        window = QWidget(self.window(), Qt.WindowType.Window)
        name, title = view.tool.get("name") or "app", view.tool.get("title")
        shown = f"{title} ({name})" if title and title != name else name
        window.setWindowTitle(window_title(f"{shown} · MCP App · MCP Lens"))
        window.setAccessibleName("App window")
        layout = QVBoxLayout(window)
        layout.setContentsMargins(0, 0, 0, 0)
        self.box.removeWidget(view)
        layout.addWidget(view)
        window.resize(*WINDOW_SIZE)
        for keys in QKeySequence.keyBindings(QKeySequence.StandardKey.Close):  # Ctrl+W; Escape is the app's
            QShortcut(keys, window, context=Qt.ShortcutContext.WindowShortcut).activated.connect(window.close)
        window.installEventFilter(self)
        self.window_ = window
        self._show_where()
        window.show()
        view.show()

    def close_window(self) -> None:
        """Bring the app back into the tab (closing its window does the same)."""
        if self.window_ is not None:
            self.window_.close()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window_ and event.type() == QEvent.Type.Close:
            window, self.window_ = self.window_, None
            window.removeEventFilter(self)
            if self.view is not None:
                self.box.addWidget(self.view, 1)
                self.view.show()
            window.deleteLater()
            self._show_where()
        return super().eventFilter(watched, event)

    def _show_where(self) -> None:
        away = self.window_ is not None
        self.bar.setVisible(away)
        self.pop_button.setVisible(self.view is not None and not away)
