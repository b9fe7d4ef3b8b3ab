"""Editors for dates and times (with a "send a value" check box so they can stay empty) and raw JSON."""

from __future__ import annotations

import json
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QDate, QDateTime, QTime
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QCheckBox, QDateEdit, QDateTimeEdit, QHBoxLayout, QPlainTextEdit, QTimeEdit, QWidget

from inspector.schema import MISSING, ValueState, json_equal
from inspector.ui.form.common import FormContext
from inspector.ui.form.fields import EditorMixin

if TYPE_CHECKING:
    from inspector.ui.form.row import FieldRow

DATE_FORMATS = ("date", "date-time", "time")
RAW_LIMIT = 200_000  # characters shown in a raw editor; past this the JSON tab is the place


def _offset() -> str:
    return datetime.now().astimezone().isoformat()[-6:]


def _parse(fmt: str, text: Any) -> date | time | datetime | None:
    if not isinstance(text, str):
        return None
    try:
        if fmt == "date":
            return date.fromisoformat(text)
        if fmt == "time":
            return time.fromisoformat(text)
        value = datetime.fromisoformat(text)
        return value.astimezone().replace(tzinfo=None) if value.tzinfo else value
    except ValueError:
        return None


class DateTimeEditor(EditorMixin, QWidget):
    """QDateEdit / QTimeEdit / QDateTimeEdit. Output: `2025-06-01`, `10:30:00+02:00`, RFC 3339 with offset."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QWidget.__init__(self)
        self.setup(state, ctx, row)
        self.box = QHBoxLayout(self)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.fmt = self.spec.format or "date"
        self.send = QCheckBox()
        self.send.setToolTip("Send a value (unchecked: leave the field empty)")
        self.send.setAccessibleName("Send a value")
        self.send.clicked.connect(self._toggled)
        self.edit: QDateTimeEdit
        if self.fmt == "date":
            self.edit = QDateEdit(QDate.currentDate())
            self.edit.setDisplayFormat("yyyy-MM-dd")
        elif self.fmt == "time":
            self.edit = QTimeEdit(QTime(9, 0))
            self.edit.setDisplayFormat("HH:mm:ss")
        else:
            now = QDateTime.currentDateTime()
            self.edit = QDateTimeEdit(QDateTime(now.date(), QTime(now.time().hour(), 0)))
            self.edit.setDisplayFormat("yyyy-MM-dd HH:mm:ss")
        self.edit.setCalendarPopup(self.fmt != "time")
        self.edit.dateTimeChanged.connect(self._changed)
        self.box.addWidget(self.send)
        self.box.addWidget(self.edit)
        self.box.addStretch(1)
        self.refresh()

    def text(self) -> str:
        if self.fmt == "date":
            return self.edit.date().toString("yyyy-MM-dd")
        if self.fmt == "time":
            return self.edit.time().toString("HH:mm:ss") + _offset()
        value: datetime = self.edit.dateTime().toPython()  # type: ignore[assignment]
        return value.replace(microsecond=0).astimezone().isoformat()

    def _toggled(self, checked: bool) -> None:
        self.edit.setEnabled(checked)
        self.commit(self.text() if checked else MISSING)

    def _changed(self) -> None:
        if not self.quiet:
            self.send.setChecked(True)
            self.edit.setEnabled(True)
            self.commit(self.text())

    def refresh(self) -> None:
        raw = self.state.raw
        shown = raw if isinstance(raw, str) else self.spec.default
        value = _parse(self.fmt, shown)
        self.quiet = True
        if isinstance(value, datetime):
            self.edit.setDateTime(
                QDateTime(QDate(value.year, value.month, value.day), QTime(value.hour, value.minute, value.second))
            )
        elif isinstance(value, date):
            self.edit.setDate(QDate(value.year, value.month, value.day))
        elif isinstance(value, time):
            self.edit.setTime(QTime(value.hour, value.minute, value.second))
        self.quiet = False
        is_set = isinstance(raw, str)
        self.send.setChecked(is_set)
        self.edit.setEnabled(is_set)
        if is_set and value is None:
            self.row.parse_error = f"not a valid {self.fmt}: kept as typed in the JSON"


class RawEditor(EditorMixin, QPlainTextEdit):
    """A JSON text editor for "any" values and for parts of the schema the form cannot render."""

    def __init__(self, state: ValueState, ctx: FormContext, row: FieldRow) -> None:
        QPlainTextEdit.__init__(self)
        self.setup(state, ctx, row)
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.edit.setTabChangesFocus(True)
        self.edit.setPlaceholderText(self.placeholder() or 'JSON value, e.g. {"key": 1}')
        lines = 8 if state.parent is None else 4
        self.edit.setFixedHeight(self.edit.fontMetrics().lineSpacing() * lines + 12)
        self.edit.textChanged.connect(self._typed)
        self.refresh()

    @property
    def edit(self) -> QPlainTextEdit:
        return self

    def _typed(self) -> None:
        if self.quiet:
            return
        text = self.edit.toPlainText().strip()
        if not text:
            self.commit(None if self.state.blank else MISSING)
            return
        try:
            self.commit(json.loads(text))
        except (ValueError, RecursionError) as exc:
            where = f" (line {exc.lineno})" if isinstance(exc, json.JSONDecodeError) else ""
            message = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
            self.commit(MISSING, f"not valid JSON: {message}{where}")

    def refresh(self) -> None:
        raw = self.state.raw
        try:
            current = json.loads(self.edit.toPlainText())
        except (ValueError, RecursionError):
            current = MISSING
        if raw is MISSING:
            text = ""
        elif current is not MISSING and json_equal(current, raw):
            return
        else:
            try:
                compact = json.dumps(raw, ensure_ascii=False)
                text = compact if len(compact) <= 60 else json.dumps(raw, ensure_ascii=False, indent=2)
            except (TypeError, ValueError, RecursionError):
                text = repr(raw)
        too_big = len(text) > RAW_LIMIT
        if too_big:
            text = text[:RAW_LIMIT] + "\n… too big to edit here: use the JSON tab"
        self.edit.setReadOnly(too_big)
        if self.edit.toPlainText() != text:
            self.quiet = True
            self.edit.setPlainText(text)
            self.quiet = False
