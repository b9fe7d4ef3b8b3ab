"""`completion/complete` suggestions under a form's text fields, fetched as the user types (debounced)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QStringListModel, Qt, QTimer
from PySide6.QtWidgets import QCompleter, QLineEdit

from inspector.content.visible import visible
from inspector.ui.form.tool_form import ToolForm
from inspector.ui.widgets.async_tasks import TaskSet
from inspector.words import counted

DEBOUNCE_MS = 200

# fetch(argument name, typed value, the other filled-in arguments) -> a `Completion`
Fetch = Callable[[str, str, dict[str, str]], Coroutine[Any, Any, Any]]


class Suggestions(QStringListModel):
    """The server's values: shown with control and bidi characters visible, completed as sent (EditRole)."""

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        value = super().data(index, role)
        return visible(value, one_line=True) if role == Qt.ItemDataRole.DisplayRole and value else value


class FieldCompleter(QObject):
    """One line edit's completer: each edit (after `DEBOUNCE_MS`) asks the server; stale answers are dropped."""

    def __init__(self, edit: QLineEdit, name: str, fetch: Fetch, context: Callable[[], dict[str, str]]) -> None:
        super().__init__(edit)
        self.edit, self.name, self._fetch, self._context = edit, name, fetch, context
        self.model = Suggestions(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)  # the server already matched
        edit.setCompleter(self.completer)  # the line edit shows a highlighted or picked value with setText
        self.completer.highlighted[str].connect(self._picked)
        self.completer.activated[str].connect(self._picked)
        self.tasks = TaskSet(self)
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self.fetch_now)
        self._generation = 0
        self.requests = 0
        self.last_error: str | None = None
        edit.textEdited.connect(lambda _text: self._timer.start())

    def _picked(self, value: str) -> None:
        """A suggestion was highlighted or picked: the field takes what it shows as if it were typed, so the
        form's value (what is sent, what a URI template expands) is the value shown."""
        if self.edit.text() != value:
            self.edit.setText(value)
        self.edit.textEdited.emit(value)  # setText alone leaves the form's value at what was typed
        self._timer.stop()  # no request for suggestions about a value that was just picked

    def fetch_now(self) -> None:
        """Ask for suggestions for the current text now (also on focus with an empty field)."""
        self._timer.stop()
        self._generation += 1
        generation = self._generation
        self.requests += 1
        self.tasks.cancel_all()
        coro = self._fetch(self.name, self.edit.text(), self._context())
        self.tasks.start(coro, lambda outcome: self._show(generation, outcome))

    def _show(self, generation: int, outcome: Any) -> None:
        if generation != self._generation:
            return
        if isinstance(outcome, BaseException):
            self.last_error = str(outcome)
            self.edit.setToolTip(f"No suggestions: {outcome}")
            return
        self.last_error = None
        values = [v for v in getattr(outcome, "values", []) if v != self.edit.text()]
        self.model.setStringList(values)
        more = " (more exist)" if getattr(outcome, "has_more", False) else ""
        self.edit.setToolTip(f"{counted(len(values), 'suggestion')} from the server{more}" if values else "")
        if values and self.edit.hasFocus():
            self.completer.complete()

    def suggestions(self) -> list[str]:
        return self.model.stringList()


def attach(form: ToolForm, names: list[str], fetch: Fetch) -> dict[str, FieldCompleter]:
    """A `FieldCompleter` on each named top-level text field of `form` (fields it cannot find are skipped)."""

    def context() -> dict[str, str]:
        arguments = form.arguments()
        return {k: v for k, v in arguments.items() if isinstance(v, str)} if isinstance(arguments, dict) else {}

    attached = {}
    for name in names:
        row = form.view.row_at((name,))
        edit = getattr(row, "editor", None) if row is not None else None
        if isinstance(edit, QLineEdit):
            attached[name] = FieldCompleter(edit, name, fetch, context)
    return attached
