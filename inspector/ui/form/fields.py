"""Editors for single values: text, numbers (any size), booleans (tri-state when optional), enums, consts.

Each editor *is* its input widget (a `QLineEdit`, `QCheckBox`, …) with `EditorMixin` for the
state plumbing: a form has hundreds of them, so no wrapper widgets.
"""

from __future__ import annotations

import re
import uuid
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QLineEdit, QPlainTextEdit, QToolButton, QWidget

from inspector.content.visible import visible
from inspector.schema import MISSING, Kind, ValueState, json_text
from inspector.schema.jsontools import index_of
from inspector.ui.form.common import FormContext, short
from inspector.ui.widgets.plain_text import TITLE_CHARS, safe_tooltip
from inspector.ui.widgets.plain_text import shown as plain_shown

if TYPE_CHECKING:
    from inspector.ui.form.row import FieldRow

INTEGER = re.compile(r"[+-]?\d+")
BIG_ENUM = 50
PLACEHOLDER_CHARS = 400  # a line edit elides its placeholder to its width: only absurd lengths are cut here


class EditorMixin:
    """State plumbing shared by the value editors."""

    header_buttons: tuple[QWidget, ...] = ()

    def setup(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        self.state, self.ctx, self.row, self.spec = state, ctx, row, state.spec
        self.quiet = False

    def commit(self, value: Any, error: str | None = None) -> None:
        """Store a value (MISSING unsets the field) and show `error` if the input did not parse."""
        self.row.parse_error = error
        self.state.set(value)
        self.ctx.edited(self.state)

    def placeholder(self) -> str:
        """The default or first example, whole up to `PLACEHOLDER_CHARS` (the field elides what does not fit)."""
        spec = self.spec
        if spec.default is not MISSING:
            return f"default: {short(spec.default, PLACEHOLDER_CHARS)}"
        return f"e.g. {short(spec.examples[0], PLACEHOLDER_CHARS)}" if spec.examples else ""

    def refresh(self) -> None:
        raise NotImplementedError


class TextEditor(EditorMixin, QLineEdit):
    """A line edit; empty means unset (an empty string in an array row). Multi-line values get a text box."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QLineEdit.__init__(self)
        self.setup(state, ctx, row)
        self.multi: QPlainTextEdit | None = None
        self.setPlaceholderText(self.placeholder())
        self.textEdited.connect(self._typed)
        if self.spec.format == "uuid":
            button = QToolButton(autoRaise=True, text="New")
            button.setToolTip("Generate a random UUID")
            button.clicked.connect(self.new_uuid)
            self.header_buttons = (button,)
        self.refresh()

    @property
    def edit(self) -> QLineEdit:
        return self

    def new_uuid(self) -> None:
        self.setText(str(uuid.uuid4()))
        self._typed(self.text())

    def _typed(self, text: str) -> None:
        if not self.quiet:
            self.commit(MISSING if text == "" and not self.state.blank else text)

    def _multiline(self) -> QPlainTextEdit:
        """Values with line breaks: a text box below the (hidden) line edit."""
        if self.multi is None:
            self.multi = QPlainTextEdit()
            self.multi.setTabChangesFocus(True)
            self.multi.setFixedHeight(self.fontMetrics().lineSpacing() * 5 + 12)
            self.multi.textChanged.connect(lambda: self._typed(self.multi.toPlainText()))  # type: ignore[union-attr]
            self.row.layout_.insertWidget(self.row.layout_.indexOf(self) + 1, self.multi)
            self.hide()
        return self.multi

    def refresh(self) -> None:
        raw = self.state.raw
        text = raw if isinstance(raw, str) else ""
        self.quiet = True
        if "\n" in text or self.multi is not None:
            multi = self._multiline()
            if multi.toPlainText() != text:
                multi.setPlainText(text)
        elif self.text() != text:
            self.setText(text)
        self.quiet = False


def parse_number(text: str, integer: bool) -> tuple[Any, str | None]:
    """(value, error) for typed text; integers of any size, JSON-style floats."""
    text = text.strip()
    if not text:
        return MISSING, None
    try:
        if INTEGER.fullmatch(text):
            return int(text), None
        if integer:
            return MISSING, "expected a whole number"
        value = float(text)
    except ValueError:
        return MISSING, "number too long" if INTEGER.fullmatch(text) else "not a number"
    if value != value or value in (float("inf"), float("-inf")):
        return MISSING, "not a finite number"
    return value, None


class NumberEditor(EditorMixin, QLineEdit):
    """A checked line edit: QSpinBox is 32-bit, JSON integers are not."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QLineEdit.__init__(self)
        self.setup(state, ctx, row)
        self.setMaximumWidth(320)  # numbers are short; a full-width box reads as a text field
        self.setPlaceholderText(self.placeholder())
        self.textEdited.connect(self._typed)
        self.refresh()

    @property
    def edit(self) -> QLineEdit:
        return self

    def _typed(self, text: str) -> None:
        value, error = parse_number(text, self.spec.kind is Kind.INTEGER)
        self.commit(value, error)

    def refresh(self) -> None:
        raw = self.state.raw
        parsed, error = parse_number(self.text(), self.spec.kind is Kind.INTEGER)
        if raw is MISSING or raw is None:
            if self.text() and parsed is not MISSING:
                self.setText("")
        elif parsed is MISSING or parsed != raw:
            self.setText(str(raw) if isinstance(raw, int) else json_text(raw))
            error = None
        self.row.parse_error = error  # text that stays unparsable is still a problem


class BoolEditor(EditorMixin, QCheckBox):
    """A check box; tri-state (not set / false / true) unless it is an array row."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QCheckBox.__init__(self)
        self.setup(state, ctx, row)
        self.setTristate(not state.blank)
        self.clicked.connect(self._clicked)
        self.refresh()

    @property
    def check(self) -> QCheckBox:
        return self

    def _clicked(self) -> None:
        value = {Qt.CheckState.Checked: True, Qt.CheckState.Unchecked: False}.get(self.checkState(), MISSING)
        self.commit(value)
        self._label()

    def _label(self) -> None:
        raw = self.state.raw
        self.setText("true" if raw is True else "false" if raw is False else "not set")

    def refresh(self) -> None:
        raw = self.state.raw
        if raw is True:
            self.setCheckState(Qt.CheckState.Checked)
        elif raw is False or not self.isTristate():
            self.setCheckState(Qt.CheckState.Unchecked)
        else:
            self.setCheckState(Qt.CheckState.PartiallyChecked)
        self._label()


class EnumEditor(EditorMixin, QComboBox):
    """A combo box showing each value's JSON text (plain strings when all values are strings)."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QComboBox.__init__(self)
        self.setup(state, ctx, row)
        values = self.spec.enum
        if len(values) > BIG_ENUM:
            self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            self.setMinimumContentsLength(20)
        self.offset = 0 if state.blank else 1
        hint = f" ({short(self.spec.default)} by default)" if self.spec.default is not MISSING else ""
        strings = all(isinstance(v, str) for v in values)
        unset = [f"— not set{hint} —"] if self.offset else []
        shown = self.spec.enum_labels or [v if strings else json_text(v, 80) for v in values]
        self.addItems([plain_shown(item, limit=TITLE_CHARS, one_line=True) for item in unset + list(shown)])
        if self.spec.enum_labels:  # the value itself stays one hover away
            for i, value in enumerate(values):
                self.setItemData(i + self.offset, safe_tooltip(json_text(value, 200)), Qt.ItemDataRole.ToolTipRole)
        self.activated.connect(self._picked)
        self.refresh()

    @property
    def combo(self) -> QComboBox:
        return self

    def _picked(self, index: int) -> None:
        i = index - self.offset
        self.commit(self.spec.enum[i] if 0 <= i < len(self.spec.enum) else MISSING)

    def refresh(self) -> None:
        raw = self.state.raw
        i = -1 if raw is MISSING else index_of(self.spec.enum, raw)
        self.setCurrentIndex(i + self.offset if i >= 0 else (0 if self.offset else -1))


def const_text(state: ValueState) -> str:
    return "null" if state.spec.kind is Kind.NULL else visible(json_text(state.spec.const, 120), one_line=True)


class ConstLabel(EditorMixin, QLabel):
    """A fixed value that is always sent (required, or an array row)."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QLabel.__init__(self)
        self.setup(state, ctx, row)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setText(const_text(state))

    def refresh(self) -> None:
        """Nothing to show: the value cannot change."""


class ConstCheck(EditorMixin, QCheckBox):
    """An optional fixed value: checked to send it."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QCheckBox.__init__(self, const_text(state).replace("&", "&&"))  # plain text, but "&" marks a shortcut
        self.setup(state, ctx, row)
        self.clicked.connect(self._clicked)
        self.refresh()

    @property
    def check(self) -> QCheckBox:
        return self

    def _clicked(self, checked: bool) -> None:
        value = None if self.spec.kind is Kind.NULL else self.spec.const
        self.commit(value if checked else MISSING)

    def refresh(self) -> None:
        self.setChecked(self.state.is_set())
