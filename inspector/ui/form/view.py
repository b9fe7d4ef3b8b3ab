"""`FormView`: the widgets of a whole form over a `FormState`; shows validation issues at their fields."""

from __future__ import annotations

import json
from collections import defaultdict

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from inspector.schema import FormModel, FormState, Issue, ObjectState, State
from inspector.schema.constraints import checked_note
from inspector.ui.form.common import FormContext, set_error_colour
from inspector.ui.form.containers import ObjectEditor
from inspector.ui.form.row import FieldRow
from inspector.ui.widgets.plain_text import plain_label


class FormView(QWidget):
    """The form. Edits go straight into `state`; `changed` fires after each user edit."""

    changed = Signal()

    def __init__(self, model: FormModel, state: FormState | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.state = state or FormState(model)
        self.ctx = FormContext(lambda _state: self.changed.emit(), self.palette(), self.font())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        self.note = plain_label(self.note_text(), wrap=True)
        self.note.setObjectName("formFallbackNote")
        self.note.setVisible(bool(self.note.text()))
        layout.addWidget(self.note)
        as_object = isinstance(self.state.root, ObjectState) and not self.state.root.spec.is_fallback
        rules = self.state.root.spec.constraints if as_object else ()  # a root row shows its own
        self.rules = plain_label(checked_note(rules) if rules else "", wrap=True)
        self.rules.setObjectName("formConstraintsNote")
        self.rules.setVisible(bool(rules))
        layout.addWidget(self.rules)
        self.summary = plain_label("", wrap=True)
        self.summary.setObjectName("formIssues")
        set_error_colour(self.summary)
        self.summary.setVisible(False)
        layout.addWidget(self.summary)
        root = self.state.root
        self.ctx.building = True
        self.root_row: FieldRow | None = None
        self.editor: QWidget
        if as_object:
            self.editor = ObjectEditor(root, self.ctx)
        else:
            self.root_row = FieldRow(root, self.ctx, label="arguments", expanded=True, show_fallback=False)
            self.editor = self.root_row
        layout.addWidget(self.editor)
        layout.addStretch(1)
        self.ctx.building = False

    def note_text(self) -> str:
        """The whole-form fallback note (reason and schema findings), or "" when the form renders."""
        if not self.model.fallback_reason:
            return ""
        lines = [
            f"The form cannot show this tool's inputSchema: {self.model.fallback_reason}. Edit the arguments as JSON."
        ]
        lines += [f"• {finding}" for finding in self.model.findings[:20]]
        return "\n".join(lines)

    def refresh(self) -> None:
        """Show the state's values again (after `state.load_arguments`)."""
        self.ctx.building = True
        try:
            self.editor.refresh()  # type: ignore[attr-defined]
        finally:
            self.ctx.building = False

    def expand_all(self) -> None:
        """Open every non-recursive container (building its widgets)."""
        for row in self.findChildren(FieldRow):
            if row.container and not row.spec.recursive:
                row.set_expanded(True)

    def row_at(self, path: tuple[str | int, ...]) -> FieldRow | None:
        """The row that shows the value at an instance path (or its nearest shown ancestor)."""
        state = self._state_at(path)[0]
        return self.ctx.row_for(state)

    def _state_at(self, path: tuple[str | int, ...]) -> tuple[State | None, tuple[str | int, ...]]:
        for cut in range(len(path), -1, -1):
            state = self.state.find(path[:cut])
            if state is not None:
                return state, path[cut:]
        return None, path

    def unparsed(self) -> list[Issue]:
        """Fields whose input does not parse (or clashes, as a duplicate key): what they show is not what is sent."""
        found = []
        for row in list(self.ctx.rows.values()):
            if not row.parse_error or not shiboken6.isValid(row) or self.state.find(row.state.path()) is not row.state:
                continue  # no problem, a deleted row, or a union variant that is not the chosen one
            typed = row.typed()
            left_out = typed and not row.state.is_set()
            detail = f": {json.dumps(typed, ensure_ascii=False)} is not sent" if left_out else ""
            found.append(Issue(row.state.path(), f"{row.parse_error}{detail}", "parse"))
        return found

    def clear_issues(self) -> None:
        for row in list(self.ctx.rows.values()):
            row.set_errors([])
        self.summary.setVisible(False)

    def show_issues(self, issues: list[Issue]) -> list[Issue]:
        """Show each issue at its field; returns the ones with no field (also listed at the top)."""
        self.clear_issues()
        by_row: dict[int, tuple[FieldRow, list[tuple[str, str]]]] = {}
        loose: list[Issue] = []
        for issue in issues:
            state, rest = self._state_at(issue.path)
            row = self.ctx.row_for(state)
            if row is None:
                loose.append(issue)
                continue
            prefix = self._relative(row, state, rest)
            keyword = issue.keyword if not prefix else ""
            by_row.setdefault(id(row), (row, []))[1].append((keyword, f"{prefix}{issue.message}"))
        for row, messages in by_row.values():
            row.set_errors(messages)
        if loose:
            grouped: dict[str, list[str]] = defaultdict(list)
            for issue in loose:
                grouped[issue.where()].append(issue.message)
            self.summary.setText("\n".join(f"{where}: {'; '.join(msgs)}" for where, msgs in grouped.items()))
            self.summary.setVisible(True)
        return loose

    @staticmethod
    def _relative(row: FieldRow, state: State | None, rest: tuple[str | int, ...]) -> str:
        below = []
        node = state
        while node is not None and node is not row.state:
            if node.parent is not None and node.path() != node.parent.path():
                below.append(str(node.path()[-1]))
            node = node.parent
        steps = [*reversed(below), *map(str, rest)]
        return f"{'/'.join(steps)}: " if steps else ""
