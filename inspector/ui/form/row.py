"""`FieldRow`: one field with its chrome — name, type and status, null toggle, clear, help, errors.

Containers (objects, arrays, maps, unions) get a collapsible body whose editor is built the first
time it is opened, so a recursive schema only grows as far as the user expands it. Widgets that
most rows never need (the clear button, the error label) are created on first use.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QCheckBox, QComboBox, QHBoxLayout, QToolButton, QVBoxLayout, QWidget

from inspector.schema import MISSING, State, check_value
from inspector.schema.constraints import checked_note
from inspector.schema.nodes import CONTAINERS
from inspector.ui.form.common import AUTO_EXPAND_DEPTH, FormContext, default_hint, describe
from inspector.ui.form.header import ErrorText, RowHeader
from inspector.ui.widgets.plain_text import TITLE_CHARS, plain_label, plain_tooltip, shown

LIVE_KEYWORDS = frozenset(
    {"minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    | {"multipleOf", "enum", "const", "type", "minItems", "maxItems"}
)


class FieldRow(QWidget):
    """A field: header line, fallback note, help text, the editor (indented for containers), errors."""

    def __init__(
        self,
        state: State,
        ctx: FormContext,
        *,
        label: str | None = None,
        header: QWidget | None = None,
        buttons: Sequence[QWidget] = (),
        expanded: bool | None = None,
        clearable: bool | None = None,
        show_help: bool = True,
        show_fallback: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.state, self.ctx, self.spec = state, ctx, state.spec
        spec = self.spec
        self.container = spec.kind in CONTAINERS
        self.expanded = not self.container
        self.editor: QWidget | None = None
        self.body: QWidget | None = None
        self.parse_error: str | None = None
        self._errors: list[tuple[str, str]] = []  # (keyword, message) from the last validate()
        self._toggled_by_user = False
        self.error_label: ErrorText | None = None  # on the header line: an error never moves the rows below
        self.clear_button: QToolButton | None = None
        self.clearable = clearable if clearable is not None else (not spec.required or state.parent is None)
        self.layout_ = layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(1)
        self.line: QHBoxLayout | None = None  # created when the header line needs more than the header
        self.arrow: QToolButton | None = None
        text = "" if header is not None else (label if label is not None else spec.label)
        # the accessible name of the editor (how journeys and screen readers find it), one visible line
        self.name = shown(text or spec.label, limit=TITLE_CHARS, one_line=True)
        mark = " *" if spec.required and state.key is not None and header is None else ""
        self._summary = describe(spec) + (" · deprecated" if spec.deprecated else "") + " · read-only" * spec.read_only
        self.header = RowHeader(
            text + mark,
            self._summary,
            ctx.name_font(spec.depth <= 1 or self.container, spec.deprecated),
            ctx.dim_palette,
        )
        if len(text) > 40 or (spec.title and spec.title != text):
            names = f"{text}\n{spec.title}".strip() if spec.title != text else text
            self.header.setToolTip(plain_tooltip("Field", names))
        layout.addWidget(self.header)
        if self.container:
            self.arrow = QToolButton(autoRaise=True)
            self.arrow.setFixedSize(18, 18)
            self.arrow.clicked.connect(self._user_toggled)
            self._line().insertWidget(0, self.arrow)
        if header is not None:
            self._line().insertWidget(1 if self.arrow else 0, header, 1)
            self.line.setStretchFactor(self.header, 0)  # type: ignore[union-attr]
        self.null_box: QCheckBox | None = None
        if spec.nullable:
            self.null_box = QCheckBox("null")
            self.null_box.setToolTip("Send JSON null")
            self.null_box.clicked.connect(self._null_clicked)
            self._line().addWidget(self.null_box)
        for button in buttons:
            self._line().addWidget(button)
        if spec.fallback_reason and show_fallback:
            note = plain_label(f"Edited as JSON: {spec.fallback_reason}", wrap=True)
            note.setObjectName("fallbackNote")
            layout.addWidget(note)
        if spec.constraints:
            rules = plain_label(checked_note(spec.constraints), wrap=True)
            rules.setPalette(ctx.dim_palette)
            rules.setObjectName("constraintsNote")
            layout.addWidget(rules)
        if spec.description and not show_help:
            self.setToolTip(plain_tooltip("Description", spec.description))
        elif spec.description:
            help_label = plain_label(spec.description, wrap=True)
            help_label.setPalette(ctx.dim_palette)
            help_label.setObjectName("fieldHelp")
            layout.addWidget(help_label)
        ctx.register(self)
        if not self.container:
            self._build_editor()
        else:
            self.set_expanded(self._auto_expand() if expanded is None else expanded)
        self.update_chrome()

    def _line(self) -> QHBoxLayout:
        """The header line as a row of widgets (made on first need: most fields only have the header)."""
        if self.line is None:
            self.line = QHBoxLayout()
            self.line.setSpacing(6)
            self.layout_.removeWidget(self.header)
            self.line.addWidget(self.header, 1)
            self.layout_.insertLayout(0, self.line)
        return self.line

    @property
    def status(self) -> str:
        """The type summary and the set / default status, as shown."""
        return self.header.summary

    def _auto_expand(self) -> bool:
        spec = self.spec
        return not spec.recursive and spec.depth <= AUTO_EXPAND_DEPTH and (spec.required or self.state.is_set())

    def _user_toggled(self) -> None:
        self._toggled_by_user = True
        self.set_expanded(not self.expanded)

    def _build_editor(self) -> None:
        from inspector.ui.form.factory import make_editor

        self.editor = make_editor(self.state, self.ctx, self)
        name_editor(self.editor, self.name)
        if self.container:
            self.body = self.editor
            self.editor.indent()  # type: ignore[attr-defined]
            self.layout_.addWidget(self.body)
        else:
            self.layout_.addWidget(self.editor)
            for button in getattr(self.editor, "header_buttons", ()):
                self._line().addWidget(button)
        self.editor.setEnabled(not self.spec.read_only and not self.state.null)

    def set_expanded(self, expanded: bool) -> None:
        """Open or close a container (its editor is built on first opening)."""
        if expanded and self.editor is None:
            self._build_editor()
        self.expanded = expanded
        if self.body is not None and self.body.isHidden() == expanded:  # setVisible polishes: skip no-ops
            self.body.setVisible(expanded)
        if self.arrow is not None:
            self.arrow.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
            self.arrow.setAccessibleName(f"{'Hide' if expanded else 'Show'} {self.name}")

    def expand_all(self) -> None:
        """Open this row and every container below it (tests, benchmarks)."""
        if self.container:
            self.set_expanded(True)
        for row in self.findChildren(FieldRow):
            if row.container and not row.spec.recursive:
                row.set_expanded(True)

    # -- state ↔ chrome -----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Pull the state into the widgets (after `load_arguments` or a reset)."""
        if self.editor is not None:
            self.parse_error = None  # an editor that keeps unparsable text says so again in its refresh
            self.editor.refresh()  # type: ignore[attr-defined]
        elif self.container and not self._toggled_by_user and self._auto_expand():
            self.set_expanded(True)
        self.update_chrome()

    def update_chrome(self, live: bool = True) -> None:
        state, spec = self.state, self.spec
        if self.null_box is not None:
            self.null_box.setChecked(state.null)
        if self.editor is not None:
            self.editor.setEnabled(not spec.read_only and not state.null)
        if self.clearable and (self.clear_button is not None or state.is_set()):
            if self.clear_button is None:
                self.clear_button = QToolButton(autoRaise=True, text="✕")
                self.clear_button.setFixedHeight(self.header.sizeHint().height())  # appearing must not grow the row
                self.clear_button.setAccessibleName(f"Clear {self.name}")
                self.clear_button.setToolTip("Clear: leave this field out of the arguments")
                self.clear_button.clicked.connect(self._clear_clicked)
                self._line().addWidget(self.clear_button)
            if self.clear_button.isHidden() == state.is_set():
                self.clear_button.setVisible(state.is_set())
        status = ""
        if not state.is_set() and state.parent is not None:
            hint = default_hint(spec)
            status = f"not set ({hint})" if hint else ("not set" if not spec.required else "")
        self.header.set_summary(f"{self._summary}  {status}" if status and self._summary else (status or self._summary))
        if live:
            self._errors = []
            self._show_errors()

    def typed(self) -> str:
        """The text in this field's editor, as typed ("" for editors that are not text)."""
        editor = self.editor
        text = getattr(editor, "toPlainText", None) or getattr(editor, "text", None)
        value = text() if callable(text) else ""
        return value if isinstance(value, str) else ""

    def live_message(self) -> str | None:
        if self.parse_error:
            return self.parse_error
        if self.container or not self.state.is_set():
            return None
        return check_value(self.spec, getattr(self.state, "raw", MISSING))

    def set_errors(self, errors: list[tuple[str, str]]) -> None:
        """Show validation errors as (keyword, message); replaced by live checks on the next edit."""
        self._errors = list(errors)
        self._show_errors()

    def _show_errors(self) -> None:
        live = self.live_message()
        found = [message for keyword, message in self._errors if not (live and keyword in LIVE_KEYWORDS)]
        messages = list(dict.fromkeys([m for m in [live, *found] if m]))
        if not messages and self.error_label is None:
            return
        if self.error_label is None:
            self.error_label = ErrorText(self.ctx.error_palette)
            line = self._line()
            line.insertWidget(line.indexOf(self.header) + 1, self.error_label, 1)
            line.setStretchFactor(self.header, 0)  # the error follows the summary; the space after it is the error's
        self.error_label.set_messages(messages)
        if self.error_label.isHidden() == bool(messages):
            self.error_label.setVisible(bool(messages))

    def errors(self) -> str:
        return self.error_label.text() if self.error_label is not None and not self.error_label.isHidden() else ""

    def _null_clicked(self, checked: bool) -> None:
        self.state.set_null(checked)
        if self.editor is not None:
            self.editor.refresh()  # type: ignore[attr-defined]
        self.ctx.edited(self.state)

    def _clear_clicked(self) -> None:
        if self.state.parent is None:
            self.state.reset(True)
        else:
            self.state.clear()
        self.parse_error = None
        if self.editor is not None:
            self.editor.refresh()  # type: ignore[attr-defined]
        self.ctx.edited(self.state)


def name_editor(editor: QWidget, name: str) -> None:
    """Give an editor, and the one input widget of it that has no name of its own, the field's name."""
    editor.setAccessibleName(name)
    inputs = [
        w
        for w in editor.findChildren(QWidget)
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus and not isinstance(w.parentWidget(), QAbstractSpinBox | QComboBox)
    ]  # (a spin box's or combo box's own line edit is part of it)
    unnamed = [w for w in inputs if not w.accessibleName()]
    if len(unnamed) == 1:
        unnamed[0].setAccessibleName(name)
