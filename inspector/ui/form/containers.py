"""Editors for containers: objects (and maps), free-key entries, arrays with row buttons, union pickers."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QPushButton, QToolButton, QVBoxLayout, QWidget

from inspector.schema import ArrayState, Kind, ObjectState, State, UnionState
from inspector.ui.form.common import MAX_ROWS, FormContext
from inspector.ui.form.row import FieldRow
from inspector.ui.widgets.plain_text import item_text, plain_label, safe_title


def _vbox(widget: QWidget, spacing: int = 4) -> QVBoxLayout:
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(spacing)
    return layout


def _tool(text: str, tip: str) -> QToolButton:
    button = QToolButton(autoRaise=True, text=text)
    button.setToolTip(tip)
    return button


def first_input(widget: QWidget | None) -> QWidget | None:
    """The first widget in `widget` (or `widget` itself) that takes focus with Tab."""
    if widget is None:
        return None
    candidates = [widget, *widget.findChildren(QWidget)]
    return next((w for w in candidates if w.focusPolicy() & Qt.FocusPolicy.TabFocus), None)


class Container(QWidget):
    """Base of container editors: inside a field row they are indented with a rule on the left."""

    indented = False

    def indent(self) -> None:
        self.indented = True
        self.layout().setContentsMargins(14, 0, 0, 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.indented:
            painter = QPainter(self)
            painter.setPen(self.palette().color(QPalette.ColorRole.Mid))
            painter.drawLine(5, 2, 5, self.height() - 2)
            painter.end()


class ObjectEditor(Container):
    """One row per property (the first `MAX_ROWS`), then the free-key entries, if any."""

    def __init__(self, state: ObjectState, ctx: FormContext, hide: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.state, self.ctx = state, ctx
        self.layout_ = _vbox(self, 6)
        props = [p for p in state.spec.properties() if p.name not in hide]
        self.rows: list[FieldRow] = []
        for spec in props[:MAX_ROWS]:
            child = state.child(spec.name or "")
            if child is not None:
                self.rows.append(FieldRow(child, ctx))
                self.layout_.addWidget(self.rows[-1])
        if len(props) > MAX_ROWS:
            self.layout_.addWidget(plain_label(f"{len(props) - MAX_ROWS} more properties: use the JSON tab", dim=True))
        self.entries: EntriesEditor | None = None
        if state.spec.kind is Kind.MAP or state.spec.has_extra_schema() or state.entries:
            self._add_entries()
        elif not props:
            text = "No arguments." if state.parent is None else "No properties."
            self.layout_.addWidget(plain_label(text, dim=True))

    def _add_entries(self) -> None:
        self.entries = EntriesEditor(self.state, self.ctx, extra=self.state.spec.kind is not Kind.MAP)
        self.layout_.addWidget(self.entries)

    def refresh(self) -> None:
        for row in self.rows:
            row.refresh()
        if self.entries is None and self.state.entries:
            self._add_entries()
        if self.entries is not None:
            self.entries.refresh()


class EntriesEditor(Container):
    """Key/value rows for maps (`additionalProperties` / `patternProperties`) and extra keys."""

    def __init__(self, state: ObjectState, ctx: FormContext, extra: bool = False) -> None:
        super().__init__()
        self.state, self.ctx = state, ctx
        layout = _vbox(self)
        if extra:
            layout.addWidget(plain_label("Extra properties", dim=True))
        self.rows_box = QWidget()
        self.rows_layout = _vbox(self.rows_box)
        layout.addWidget(self.rows_box)
        self.rows: list[FieldRow] = []
        self.add_button: QPushButton | None = None
        if state.spec.extra_spec(None) is not None:
            self.add_button = QPushButton("+ Add entry")
            self.add_button.clicked.connect(self._add)
            footer = QHBoxLayout()
            footer.addWidget(self.add_button)
            footer.addStretch(1)
            layout.addLayout(footer)
        self.refresh()

    def _row(self, index: int) -> FieldRow:
        entry = self.state.entries[index]
        key = QLineEdit(entry.key)
        key.setPlaceholderText("key")
        key.setMaximumWidth(220)
        remove = _tool("✕", "Remove this entry")
        row = FieldRow(entry.state, self.ctx, header=key, buttons=[remove], clearable=False, expanded=True)
        row.key_edit = key  # type: ignore[attr-defined]
        key.setAccessibleName(f"Key of entry {index + 1}")
        remove.setAccessibleName(f"Remove entry {index + 1}")
        key.textEdited.connect(lambda text, r=row: self._rename(r, text))
        remove.clicked.connect(lambda _=False, r=row: self._remove(r))
        return row

    def _index(self, row: FieldRow) -> int:
        return next((i for i, e in enumerate(self.state.entries) if e.state is row.state), -1)

    def _add(self) -> None:
        if self.state.add_entry() is not None:
            self.refresh()
            self.ctx.edited(self.state)  # may add buttons (a clear button) to the rows around this one
            self.order_tabs()
            self.rows[-1].key_edit.setFocus()  # type: ignore[attr-defined]

    def order_tabs(self) -> None:
        """Tab from a key goes to its value, not to the buttons on the key's line or around it."""
        for row in self.rows:
            value = first_input(row.editor)
            if value is not None:
                QWidget.setTabOrder(row.key_edit, value)  # type: ignore[attr-defined]

    def _remove(self, row: FieldRow) -> None:
        self.state.remove_entry(self._index(row))
        self.refresh()
        self.ctx.edited(self.state)

    def _rename(self, row: FieldRow, text: str) -> None:
        index = self._index(row)
        if index < 0:
            return
        self.state.rename_entry(index, text)
        if self.state.entries[index].state is not row.state:  # patternProperties: the value schema changed
            self.refresh()
        self._mark_duplicates()
        self.ctx.edited(self.state)

    def _mark_duplicates(self) -> None:
        duplicates = self.state.duplicate_keys()
        for row, entry in zip(self.rows, self.state.entries, strict=False):
            row.parse_error = "duplicate key" if entry.key in duplicates else None
            row.update_chrome()

    def refresh(self) -> None:
        entries = self.state.entries[:MAX_ROWS]
        if [r.state for r in self.rows] != [e.state for e in entries]:
            for row in self.rows:
                self.ctx.forget(row)
                row.deleteLater()
            self.rows = [self._row(i) for i in range(len(entries))]
            for row in self.rows:
                self.rows_layout.addWidget(row)
            self.order_tabs()
        for row, entry in zip(self.rows, entries, strict=True):
            key = row.key_edit  # type: ignore[attr-defined]
            if key.text() != entry.key:
                key.setText(entry.key)
            row.refresh()
        self._mark_duplicates()


class ArrayEditor(Container):
    """Rows with move up / move down / remove buttons; tuple slots first (fixed); an add button."""

    def __init__(self, state: ArrayState, ctx: FormContext) -> None:
        super().__init__()
        self.state, self.ctx = state, ctx
        layout = _vbox(self)
        self.rows_box = QWidget()
        self.rows_layout = _vbox(self.rows_box)
        layout.addWidget(self.rows_box)
        self.rows: list[FieldRow] = []
        footer = QHBoxLayout()
        item = state.spec.items()
        self.add_button = QPushButton(safe_title(f"+ Add {item.title if item is not None and item.title else 'item'}"))
        self.add_button.clicked.connect(self._add)
        self.count = plain_label("", dim=True)
        footer.addWidget(self.add_button)
        footer.addWidget(self.count)
        footer.addStretch(1)
        layout.addLayout(footer)
        self.refresh()

    def _row(self, index: int) -> FieldRow:
        state = self.state.items[index]
        fixed = index < len(self.state.spec.prefix())
        title = state.spec.title
        label = f"[{index}]" if fixed else f"#{index + 1}"
        buttons: list[QWidget] = []
        if not fixed:
            for text, tip, move in (("↑", "Move up", -1), ("↓", "Move down", 1), ("✕", "Remove", 0)):
                button = _tool(text, tip)
                button.clicked.connect(lambda _=False, s=state, m=move: self._act(s, m))
                buttons.append(button)
        row = FieldRow(
            state, self.ctx, label=f"{label} {title}".strip(), buttons=buttons, clearable=False, show_help=False
        )
        row.setObjectName("arrayRow")
        row.move_buttons = buttons  # type: ignore[attr-defined]
        return row

    def _act(self, state: State, move: int) -> None:
        index = next((i for i, s in enumerate(self.state.items) if s is state), -1)
        if index < 0:
            return
        if move == 0:
            self.state.remove(index)
        else:
            self.state.move(index, index + move)
        self.refresh()
        self.ctx.edited(self.state)

    def _add(self) -> None:
        state = self.state.add()
        if state is not None:
            self.refresh()
            if self.rows and self.rows[-1].container:
                self.rows[-1].set_expanded(True)
            self.ctx.edited(self.state)

    def refresh(self) -> None:
        items = self.state.items[:MAX_ROWS]
        by_state = {id(r.state): r for r in self.rows}
        if [r.state for r in self.rows] != items:
            wanted = []
            for i, item in enumerate(items):
                row = by_state.pop(id(item), None)
                wanted.append(row if row is not None and row.state is item else self._row(i))
            for row in by_state.values():
                self.ctx.forget(row)
                row.deleteLater()
            for i, row in enumerate(wanted):
                self.rows_layout.insertWidget(i, row)
            self.rows = wanted
        prefix = len(self.state.spec.prefix())
        for i, row in enumerate(self.rows):
            if i >= prefix:
                row.header.set_name(f"#{i + 1} {row.spec.title}".strip())
            buttons = getattr(row, "move_buttons", [])
            if buttons:
                buttons[0].setEnabled(i > prefix)
                buttons[1].setEnabled(i < len(self.rows) - 1)
            row.refresh()
        spec = self.state.spec
        limit = f" (max {spec.max_items})" if spec.max_items is not None else ""
        minimum = f", min {spec.min_items}" if spec.min_items else ""
        more = f"; {len(self.state.items) - MAX_ROWS} more in the JSON tab" if len(self.state.items) > MAX_ROWS else ""
        self.count.setText(f"{len(self.state.items)} item{'s' * (len(self.state.items) != 1)}{limit}{minimum}{more}")
        self.add_button.setEnabled(self.state.can_add())


class UnionEditor(Container):
    """A variant picker and the chosen variant's editor; each variant keeps its values."""

    def __init__(self, state: UnionState, ctx: FormContext, row: FieldRow) -> None:
        super().__init__()
        self.state, self.ctx, self.row = state, ctx, row
        layout = _vbox(self)
        self.picker = QComboBox()
        self.picker.addItems([item_text(label) for label in state.spec.variant_labels])
        self.picker.setToolTip("Variant")
        self.picker.activated.connect(self._picked)
        self.about = plain_label("", dim=True, wrap=True)
        line = QHBoxLayout()
        line.addWidget(self.picker)
        line.addWidget(self.about, 1)
        layout.addLayout(line)
        self.editors: dict[int, tuple[State, QWidget]] = {}
        self.refresh()

    def _picked(self, index: int) -> None:
        self.state.select(index)
        self.refresh()
        self.ctx.edited(self.state)

    def current_editor(self) -> QWidget | None:
        found = self.editors.get(self.state.index)
        return found[1] if found else None

    def refresh(self) -> None:
        from inspector.ui.form.factory import make_editor

        self.picker.setCurrentIndex(self.state.index)
        current = self.state.current()
        self.about.setText(current.spec.description if current is not None else "")
        for index, (_, editor) in self.editors.items():
            editor.setVisible(index == self.state.index)
        if current is None:
            return
        known = self.editors.get(self.state.index)
        if known is None or known[0] is not current:
            if known is not None:
                self.ctx.forget(known[1])
                known[1].deleteLater()
            hide = frozenset({self.state.spec.discriminator or ""})
            editor = make_editor(current, self.ctx, self.row, hide)
            self.layout().addWidget(editor)
            self.editors[self.state.index] = (current, editor)
        else:
            known[1].refresh()  # type: ignore[attr-defined]
