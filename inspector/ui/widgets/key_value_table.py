"""Small editable tables for profile fields: key/value pairs (env, headers) and a list of strings (args).

Everything here is plain text: cells are `QTableWidgetItem` / `QListWidgetItem` text, never HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

MASK = "\u2022" * 8  # fixed length, so the mask does not leak the secret's length
_NEW_ROLE = Qt.ItemDataRole.UserRole + 1


class _MaskingDelegate(QStyledItemDelegate):
    """Shows the value of a secret-looking key as bullets, and edits it in password echo mode."""

    def __init__(self, table: KeyValueTable) -> None:
        super().__init__(table)
        self._owner = table

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if index.column() == 1 and option.text and self._owner.is_masked(index.row()):
            option.text = MASK

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex):
        editor = super().createEditor(parent, option, index)
        if isinstance(editor, QLineEdit) and index.column() == 1 and self._owner.is_masked(index.row()):
            editor.setEchoMode(QLineEdit.EchoMode.Password)
        return editor


class KeyValueTable(QWidget):
    """An editable two-column table of string pairs, e.g. environment variables or HTTP headers.

    `is_secret(key)` decides which values are masked until "Show secret values" is ticked.
    """

    changed = Signal()

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        key_header: str = "Name",
        value_header: str = "Value",
        is_secret: Callable[[str], bool] | None = None,
    ) -> None:
        super().__init__(parent)
        self._is_secret = is_secret or (lambda _key: False)
        self._revealed = False
        self.table = QTableWidget(0, 2, self)
        self.table.setHorizontalHeaderLabels([key_header, value_header])
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(0, 220)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.setItemDelegate(_MaskingDelegate(self))
        self.table.setMinimumHeight(96)
        self.table.itemChanged.connect(self._on_item_changed)

        self.add_button = QPushButton("Add", self)
        self.remove_button = QPushButton("Remove", self)
        self.reveal_check = QCheckBox("Show secret values", self)
        self.add_button.clicked.connect(self._add_and_edit)
        self.remove_button.clicked.connect(self.remove_selected)
        self.reveal_check.toggled.connect(self.set_revealed)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        buttons.addWidget(self.reveal_check)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)

    # -- content -------------------------------------------------------------------------
    def set_items(self, items: Mapping[str, str]) -> None:
        self.table.setRowCount(0)
        for key, value in items.items():
            self.add_row(key, value)
        self.changed.emit()

    def add_row(self, key: str = "", value: str = "") -> int:
        """Append a row and return its index."""
        row = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(row)
        self.table.setItem(row, 0, QTableWidgetItem(key))
        self.table.setItem(row, 1, QTableWidgetItem(value))
        self.table.blockSignals(False)
        self.changed.emit()
        return row

    def _add_and_edit(self) -> None:
        row = self.add_row()
        self.table.setCurrentCell(row, 0)
        self.table.editItem(self.table.item(row, 0))

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()} or {self.table.currentRow()}, reverse=True)
        for row in rows:
            if row >= 0:
                self.table.removeRow(row)
        self.changed.emit()

    def rows(self) -> list[tuple[str, str]]:
        """Every row as (key, value), keys stripped of surrounding blanks, blank rows left out."""
        out = []
        for row in range(self.table.rowCount()):
            key, value = (self._text(row, col) for col in (0, 1))
            if key.strip() or value:
                out.append((key.strip(), value))
        return out

    def items(self) -> dict[str, str]:
        return {k: v for k, v in self.rows() if k}

    def problems(self) -> list[str]:
        """What stops the rows from being a valid mapping (a value without a name, a repeated name)."""
        out, seen = [], set()
        for key, _value in self.rows():
            if not key:
                out.append(f"a value in the {self._header(1).lower()} column has no {self._header(0).lower()}")
            elif key in seen:
                out.append(f"{self._header(0).lower()} {key!r} appears more than once")
            seen.add(key)
        return out

    # -- masking -------------------------------------------------------------------------
    def is_masked(self, row: int) -> bool:
        return not self._revealed and bool(self._is_secret(self._text(row, 0).strip()))

    def is_revealed(self) -> bool:
        return self._revealed

    def set_revealed(self, revealed: bool) -> None:
        self._revealed = revealed
        if self.reveal_check.isChecked() != revealed:
            self.reveal_check.setChecked(revealed)
        self.table.viewport().update()

    def set_secret_predicate(self, is_secret: Callable[[str], bool]) -> None:
        self._is_secret = is_secret
        self.table.viewport().update()

    # -- helpers -------------------------------------------------------------------------
    def _text(self, row: int, col: int) -> str:
        item = self.table.item(row, col)
        return item.text() if item is not None else ""

    def _header(self, col: int) -> str:
        item = self.table.horizontalHeaderItem(col)
        return item.text() if item is not None else ""

    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() == 0:
            self.table.viewport().update()  # the key decides whether the value is masked
        self.changed.emit()


class StringListEditor(QWidget):
    """An ordered list of strings (one command-line argument per row): add, remove, move up and down."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None, *, placeholder: str = "argument") -> None:
        super().__init__(parent)
        self._placeholder = placeholder
        self.list = QListWidget(self)
        self.list.setMinimumHeight(96)
        self.list.setAlternatingRowColors(True)  # shows where one argument ends, even an empty one
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.list.itemDelegate().closeEditor.connect(self._drop_abandoned_rows)
        self.list.model().rowsMoved.connect(self.changed)
        self.list.itemChanged.connect(self.changed)
        self.add_button = QPushButton("Add", self)
        self.remove_button = QPushButton("Remove", self)
        self.up_button = QPushButton("Up", self)
        self.down_button = QPushButton("Down", self)
        self.add_button.clicked.connect(self._add_and_edit)
        self.remove_button.clicked.connect(self.remove_selected)
        self.up_button.clicked.connect(lambda: self.move_selected(-1))
        self.down_button.clicked.connect(lambda: self.move_selected(1))
        buttons = QVBoxLayout()
        for button in (self.add_button, self.remove_button, self.up_button, self.down_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)

    def values(self) -> list[str]:
        """The strings in order, exactly as typed (an empty row is an empty-string argument)."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def set_values(self, values: list[str]) -> None:
        self.list.clear()
        for value in values:
            self.append(value)
        self.changed.emit()

    def append(self, value: str = "") -> QListWidgetItem:
        item = QListWidgetItem(value)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.list.addItem(item)
        self.changed.emit()
        return item

    def remove_selected(self) -> None:
        row = self.list.currentRow()
        if row >= 0:
            self.list.takeItem(row)
            self.changed.emit()

    def move_selected(self, delta: int) -> None:
        row = self.list.currentRow()
        target = row + delta
        if row < 0 or not 0 <= target < self.list.count():
            return
        item = self.list.takeItem(row)
        self.list.insertItem(target, item)
        self.list.setCurrentRow(target)
        self.changed.emit()

    def _add_and_edit(self) -> None:
        item = self.append("")
        item.setData(_NEW_ROLE, True)
        self.list.setCurrentItem(item)
        self.list.editItem(item)

    def _drop_abandoned_rows(self, *_args: object) -> None:
        """A row added with "Add" and left empty is removed instead of becoming an empty argument."""
        for i in reversed(range(self.list.count())):
            item = self.list.item(i)
            if item.data(_NEW_ROLE):
                item.setData(_NEW_ROLE, None)
                if not item.text():
                    self.list.takeItem(i)
                    self.changed.emit()
