"""`ToolForm`: a tool's arguments as a "Form" tab and a "JSON" tab that stay in sync both ways.

The form is painted first and the schema checked (`check_schema`) right after the first paint, or
at the first API call, whichever comes first: an invalid schema then swaps in the JSON fallback
with its findings. (The check costs ≈0.3 ms per subschema the first time.)

Form edits rewrite the JSON text, except while the user is typing in the JSON editor (it has focus
or was edited since it last lost focus): then the rewrite waits. JSON edits (debounced) are loaded
into the form when they parse; when some part cannot be shown in the form, the JSON text stays the
source of `arguments()` until the next form edit, so nothing the user typed is lost or reformatted.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QScrollArea, QTabBar, QTabWidget, QVBoxLayout, QWidget

from inspector.schema import MISSING, Issue, build, checked, validate
from inspector.ui.form.view import FormView
from inspector.ui.widgets.json_view import JsonHighlighter
from inspector.ui.widgets.plain_text import plain_label, set_dim

DEBOUNCE_MS = 250
FORM_TAB, JSON_TAB = 0, 1


def dump(value: Any) -> str:
    try:
        return json.dumps(value, indent=2, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


class ToolForm(QWidget):
    """Arguments editor for one tool. `changed` fires after every edit in either tab."""

    changed = Signal()

    def __init__(self, schema: dict[str, Any] | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.schema = schema
        self.model = build(schema, check=False)
        self.state = self.model.new_state()
        self.view = FormView(self.model, self.state)
        self.view.changed.connect(self._form_edited)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.view)
        self.scroll.setAccessibleName("Arguments form")
        self.json_edit = QPlainTextEdit()
        self.json_edit.setObjectName("argumentsJson")
        self.json_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.json_edit.setTabChangesFocus(True)
        self._highlighter = JsonHighlighter(self.json_edit.document())
        self.json_status = plain_label("", wrap=True)
        set_dim(self.json_status)
        json_page = QWidget()
        column = QVBoxLayout(json_page)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(self.json_edit, 1)
        column.addWidget(self.json_status)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.scroll, "Form")
        self.tabs.addTab(json_page, "JSON")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self._apply_json)
        self._setting = False  # we are writing the JSON text ourselves
        self._typing = False  # the user edited the JSON text and has not left the editor since
        self._stale = False  # a form edit is waiting to be written to the JSON text
        self._json_value: Any = MISSING  # the JSON text's value, while it is the source of the arguments
        self._json_error: str | None = None
        self.json_edit.textChanged.connect(self._json_typed)
        self.json_edit.installEventFilter(self)
        self.tabs.currentChanged.connect(self._tab_changed)
        self._write_json(force=True)
        self.view.installEventFilter(self)  # check the schema once the form has been painted

    def _ensure_checked(self) -> None:
        """Run the deferred `check_schema`; on findings, show the whole-form JSON fallback instead."""
        if self.model.checked:
            return
        model = checked(self.model)
        if model is self.model:
            return
        arguments = self.state.to_arguments()
        self.model, self.state = model, model.new_state()
        self.state.load_arguments(arguments)
        self.view = FormView(self.model, self.state)
        self.view.changed.connect(self._form_edited)
        self.scroll.setWidget(self.view)  # deletes the old view

    # -- public API ---------------------------------------------------------------------------------

    def arguments(self) -> Any:
        """The arguments to send: the form's, or the JSON text's when it was edited last."""
        self._ensure_checked()
        if self._timer.isActive():
            self._timer.stop()
            self._apply_json()
        if self._json_value is not MISSING:
            return copy.deepcopy(self._json_value)
        return self.state.to_arguments()

    def fields(self) -> list[QWidget]:
        """The form's input widgets in their Tab order (not the Form/JSON tabs or the scroll area)."""
        found: list[QWidget] = []
        widget = self.nextInFocusChain()
        while widget is not self and self.isAncestorOf(widget):
            focusable = bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and widget.isEnabled()
            frame = isinstance(widget, QTabBar | QScrollArea) or widget.focusProxy() is not None
            if focusable and widget.isVisibleTo(self) and not frame:
                found.append(widget)
            widget = widget.nextInFocusChain()
        return found

    def set_arguments(self, arguments: Any) -> list[Issue]:
        """Show these arguments (history re-run); returns what the form could not show."""
        self._ensure_checked()
        self._timer.stop()
        problems = self.state.load_arguments(arguments)
        self.view.refresh()
        self._json_value = copy.deepcopy(arguments) if problems else MISSING
        self._json_error = None
        self._typing = False
        self._set_json_text(dump(arguments))
        self._report(problems)
        self.changed.emit()
        return problems

    def validate(self) -> list[Issue]:
        """Every problem with what would be sent: JSON text that does not parse, fields whose input does
        not parse (left out of the arguments), and schema violations (each also shown at its field)."""
        self._ensure_checked()
        arguments = self.arguments()
        issues = [Issue((), f"the JSON text does not parse: {self._json_error}", "json")] if self._json_error else []
        found = validate(self.schema, arguments)
        self.view.show_issues(found)
        if self._json_value is MISSING:  # the form is the source: what its fields show must be what is sent
            unparsed = self.view.unparsed()
            paths = {issue.path for issue in unparsed}
            issues += unparsed
            found = [i for i in found if not (i.keyword == "required" and i.path in paths)]  # said better above
        return issues + found

    def fallback_note(self) -> str | None:
        """Why the whole form fell back to JSON (with the schema findings), or None."""
        self._ensure_checked()
        return self.view.note_text() or None

    # -- form → JSON --------------------------------------------------------------------------------

    def _form_edited(self) -> None:
        self._json_value, self._json_error = MISSING, None
        self._write_json()
        self.changed.emit()

    def _write_json(self, force: bool = False) -> None:
        if not force and (self._typing or self.json_edit.hasFocus()):
            self._stale = True
            return
        self._stale = False
        self._set_json_text(dump(self.state.to_arguments()))
        self._report([])

    def _set_json_text(self, text: str) -> None:
        if self.json_edit.toPlainText() != text:
            self._setting = True
            self.json_edit.setPlainText(text)
            self._setting = False

    # -- JSON → form --------------------------------------------------------------------------------

    def _json_typed(self) -> None:
        if self._setting:
            return
        self._typing = True
        self._timer.start()

    def _apply_json(self) -> None:
        text = self.json_edit.toPlainText()
        try:
            value = json.loads(text) if text.strip() else {}
        except (ValueError, RecursionError) as exc:
            where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
            self._json_error = f"{getattr(exc, 'msg', type(exc).__name__)}{where}"
            self.json_status.setText(f"Not valid JSON: {self._json_error}. The form keeps the last valid arguments.")
            self.changed.emit()
            return
        problems = self.state.load_arguments(value)
        self.view.refresh()
        self._json_error, self._json_value = None, value
        self._stale = False
        if not problems:
            self._json_value = MISSING  # the form shows it all: the form is the source again
        self._report(problems)
        self.changed.emit()

    def _report(self, problems: list[Issue]) -> None:
        if not problems:
            self.json_status.setText("")
            return
        shown = "; ".join(str(p) for p in problems[:8]) + (" …" if len(problems) > 8 else "")
        self.json_status.setText(f"Not shown in the form (the JSON text will be sent as is): {shown}")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.json_edit and event.type() == QEvent.Type.FocusOut:
            self._leave_json()
        elif watched is self.view and event.type() == QEvent.Type.Paint and not self.model.checked:
            QTimer.singleShot(0, self, self._ensure_checked)
        return super().eventFilter(watched, event)

    def _leave_json(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self._apply_json()
        self._typing = False
        if self._stale and self._json_value is MISSING and self._json_error is None:
            self._write_json(force=True)

    def _tab_changed(self, index: int) -> None:
        if index == FORM_TAB:
            self._leave_json()
        elif self._stale:
            self._write_json(force=True)
