"""The Budget tab's pickers: tokenizer, shape and context window, remembered in QSettings."""

from __future__ import annotations

import contextlib

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QSpinBox, QWidget

from inspector.budget.breakdown import CONTEXT_WINDOWS, SHAPES
from inspector.ui.budget.common import compact_combo
from inspector.ui.budget.engine import ANTHROPIC, tokenizer_choices
from inspector.ui.widgets.flow_layout import FlowLayout, group

SHAPE_LABELS = {"mcp": "MCP tools/list", "openai": "OpenAI tools", "anthropic": "Anthropic tools"}
CUSTOM = "custom"


def short_label(label: str) -> str:
    """A tokenizer's label as the picker shows it: its name and what its figure is, without the models it
    fits (those are in the item's tooltip). "o200k_base — GPT-4o / … (exact)" → "o200k_base (exact)"."""
    cut = label.rfind(" (")
    if cut < 0 or not label.endswith(")"):
        return label
    return f"{label[:cut].partition(' — ')[0]} ({label[cut + 2 : -1].split(';')[0]})"


class BudgetPickers(QWidget):
    """`changed()` when what is counted changes (tokenizer, shape); `windowChanged()` when only the window
    does (no recount needed). Choices persist under `budget/…` in `settings`."""

    changed = Signal()
    windowChanged = Signal()

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.tokenizer = QComboBox()
        self.tokenizer.setObjectName("budgetTokenizer")
        self.tokenizer.setAccessibleName("Tokenizer")
        self.tokenizer.setToolTip("How tokens are counted. Offline tokenizers never use the network.")
        for name, label in tokenizer_choices():
            self.tokenizer.addItem(short_label(label), name)
            self.tokenizer.setItemData(self.tokenizer.count() - 1, label, Qt.ItemDataRole.ToolTipRole)
        self.shape = QComboBox()
        self.shape.setObjectName("budgetShape")
        self.shape.setToolTip("How a host serialises the tool list before the model sees it")
        for shape in SHAPES:
            self.shape.addItem(SHAPE_LABELS.get(shape, shape), shape)
        self.window = QComboBox()
        self.window.setObjectName("budgetWindow")
        self.window.setAccessibleName("Context window")
        self.window.setToolTip("The context window the list's share is measured against")
        for label, tokens in CONTEXT_WINDOWS.items():
            self.window.addItem(label, tokens)
        self.window.addItem("Custom", CUSTOM)
        self.custom = QSpinBox(minimum=1_000, maximum=100_000_000, singleStep=1_000, value=32_000)
        self.custom.setObjectName("budgetCustomWindow")
        self.custom.setGroupSeparatorShown(True)
        self.custom.setSuffix(" tokens")
        self.custom.setToolTip("A custom context window, in tokens")
        self.tokenizer.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)  # short labels, read whole
        compact_combo(self.shape, max(len(label) for label in SHAPE_LABELS.values()))
        self._restore()

        layout = FlowLayout(self, spacing=4)  # one row when wide, wraps when the window is narrow
        layout.addWidget(group(QLabel("Tokenizer"), self.tokenizer))
        layout.addWidget(group(QLabel("Shape"), self.shape))
        layout.addWidget(group(QLabel("Window"), self.window, self.custom))
        for box in (self.tokenizer, self.shape):
            box.currentIndexChanged.connect(self._changed)
        self.window.currentIndexChanged.connect(self._window_changed)
        self.custom.valueChanged.connect(self._window_changed)

    def _restore(self) -> None:
        name = str(self.settings.value("budget/tokenizer", "o200k_base"))
        if name == ANTHROPIC:  # never start on the online counter: it runs only on request
            name = "o200k_base"
        for box, value in (
            (self.tokenizer, name),
            (self.shape, self.settings.value("budget/shape", "mcp")),
            (self.window, self.settings.value("budget/window", 128_000)),
        ):
            index = box.findData(value)
            if index < 0 and isinstance(value, str) and value.isdigit():
                index = box.findData(int(value))
            if index >= 0:
                box.setCurrentIndex(index)
        with contextlib.suppress(TypeError, ValueError):
            self.custom.setValue(int(self.settings.value("budget/customWindow", 32_000)))
        self.custom.setVisible(self.window.currentData() == CUSTOM)

    def _save(self) -> None:
        self.settings.setValue("budget/tokenizer", self.tokenizer_name())
        self.settings.setValue("budget/shape", self.shape_name())
        self.settings.setValue("budget/window", self.window.currentData())
        self.settings.setValue("budget/customWindow", self.custom.value())

    def _changed(self) -> None:
        self._save()
        self.changed.emit()

    def _window_changed(self) -> None:
        self.custom.setVisible(self.window.currentData() == CUSTOM)
        self._save()
        self.windowChanged.emit()

    def tokenizer_name(self) -> str:
        return str(self.tokenizer.currentData())

    def shape_name(self) -> str:
        return str(self.shape.currentData())

    def window_tokens(self) -> int:
        data = self.window.currentData()
        return self.custom.value() if data == CUSTOM else int(data)

    def set_tokenizer(self, name: str) -> bool:
        index = self.tokenizer.findData(name)
        if index >= 0:
            self.tokenizer.setCurrentIndex(index)
        return index >= 0

    def set_shape(self, shape: str) -> None:
        self.shape.setCurrentIndex(max(0, self.shape.findData(shape)))

    def set_window(self, tokens: int) -> None:
        index = self.window.findData(tokens)
        if index < 0:
            self.custom.setValue(tokens)
            index = self.window.findData(CUSTOM)
        self.window.setCurrentIndex(index)
