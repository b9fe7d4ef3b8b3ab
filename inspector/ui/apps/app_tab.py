"""The Tools tab's App page: the App view of the shown call, when its tool declares an interface."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QVBoxLayout, QWidget

from inspector.apps.ui_resource import has_interface
from inspector.core.history import CallRecord
from inspector.ui.apps.app_view import AppView
from inspector.ui.session import SessionController


class AppTab(QWidget):
    """Holds at most one running app: the one of the call whose result is shown."""

    def __init__(self, session: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.record: CallRecord | None = None
        self.view: AppView | None = None
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)

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
        self.box.addWidget(self.view)
        return True

    def clear(self) -> None:
        """Stop the running app, if any (it is asked to tear down first)."""
        if self.view is not None:
            self.box.removeWidget(self.view)
            self.view.hide()
            self.view.retire()  # asked to tear down, stopped a moment later
        self.view = None
        self.record = None
