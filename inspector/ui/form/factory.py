"""Pick the editor widget for a state's node kind."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from inspector.schema import ArrayState, Kind, ObjectState, State, UnionState, ValueState
from inspector.ui.form.common import FormContext
from inspector.ui.form.containers import ArrayEditor, ObjectEditor, UnionEditor
from inspector.ui.form.fields import BoolEditor, ConstCheck, ConstLabel, EnumEditor, NumberEditor, TextEditor
from inspector.ui.form.special import DATE_FORMATS, DateTimeEditor, RawEditor

if TYPE_CHECKING:
    from inspector.ui.form.row import FieldRow

VALUE_EDITORS = {
    Kind.NUMBER: NumberEditor,
    Kind.INTEGER: NumberEditor,
    Kind.BOOLEAN: BoolEditor,
    Kind.ENUM: EnumEditor,
    Kind.ANY: RawEditor,
}


def make_editor(state: State, ctx: FormContext, row: FieldRow, hide: frozenset[str] = frozenset()) -> QWidget:
    """The editor for `state`; `row` shows its parse errors; `hide` names properties not to show."""
    spec = state.spec
    if isinstance(state, ObjectState):
        return ObjectEditor(state, ctx, hide)
    if isinstance(state, ArrayState):
        return ArrayEditor(state, ctx)
    if isinstance(state, UnionState):
        return UnionEditor(state, ctx, row)
    assert isinstance(state, ValueState)
    if spec.kind in (Kind.CONST, Kind.NULL):
        return (ConstLabel if spec.required or state.blank else ConstCheck)(state, ctx, row)
    if spec.kind is Kind.STRING:
        cls = DateTimeEditor if spec.format in DATE_FORMATS else TextEditor
        return cls(state, ctx, row)
    return VALUE_EDITORS.get(spec.kind, RawEditor)(state, ctx, row)
