"""Helpers for the form tests (no tests here): schemas, finding rows by instance path, typing into editors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QComboBox, QLineEdit

from inspector.ui.form import ToolForm
from inspector.ui.form.row import FieldRow

FIXTURES = Path(__file__).resolve().parents[2] / "schema" / "fixtures"
MEETING: dict[str, Any] = json.loads((FIXTURES / "demo_schedule_meeting.json").read_text())
HOSTILE = '<img src="file:///etc/passwd"> <a href="https://x">x</a>'


def make_form(qtbot: Any, schema: Any, size: tuple[int, int] = (700, 900)) -> ToolForm:
    form = ToolForm(schema)
    qtbot.addWidget(form)
    form.resize(*size)
    form.show()
    qtbot.waitExposed(form)
    return form


def row(form: ToolForm, *path: str | int) -> FieldRow:
    found = form.view.row_at(tuple(path))
    assert found is not None and found.state.path() == tuple(path), (path, found and found.state.path())
    return found


def type_text(qtbot: Any, form: ToolForm, path: tuple[str | int, ...], text: str) -> None:
    edit = row(form, *path).editor.edit  # type: ignore[union-attr]
    assert isinstance(edit, QLineEdit)
    edit.clear()
    qtbot.keyClicks(edit, text)


def pick(combo: QComboBox, index: int) -> None:
    """What a user's choice in a combo box does: set the index and emit `activated`."""
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
