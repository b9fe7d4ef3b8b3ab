"""The Budget tab's Claude row: which Claude model (its ctok family), count_tokens beside ctok on request,
and "Save as calibration" for the server shown. Visible while the Claude tokenizer is chosen."""

from __future__ import annotations

import asyncio
import os
from typing import Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QPushButton, QWidget

from inspector.budget.calibration import Calibration, Comparison, compare, damaged_note, save_calibration
from inspector.ui.budget.common import compact_combo
from inspector.ui.widgets.plain_text import plain_label

CLAUDE = "claude"
# (what the picker shows, the model id counted as): one entry per ctok family, newest first
CLAUDE_MODELS = (
    ("Opus 4.8 / Sonnet 5 and newer — v4.8", "claude-opus-4-8"),
    ("Opus 4.7 — v4.7", "claude-opus-4-7"),
    ("Claude 3 to Opus 4.6 / Sonnet 4.5 — v3", "claude-sonnet-4-5"),
)


class ClaudeBar(QWidget):
    """`changed()` when the model or a saved calibration changes what the Claude figures are."""

    changed = Signal()

    def __init__(self, settings: QSettings, pane: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.pane = pane
        self.comparison: Comparison | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.model = QComboBox()
        self.model.setObjectName("budgetClaudeModel")
        self.model.setAccessibleName("Claude model")
        self.model.setToolTip("The Claude model whose tokenizer family ctok reconstructs")
        for label, model in CLAUDE_MODELS:
            self.model.addItem(label, model)
        compact_combo(self.model, 30)  # on a row of its own: the model names read whole
        index = self.model.findData(str(settings.value("budget/claudeModel", CLAUDE_MODELS[0][1])))
        self.model.setCurrentIndex(max(0, index))
        self.compare_button = QPushButton("Compare with count_tokens")
        self.compare_button.setObjectName("budgetClaudeCompare")
        self.compare_button.setToolTip(
            "Sends the tool list to Anthropic's count_tokens API (ANTHROPIC_API_KEY) and shows its figure "
            "beside the offline reconstruction"
        )
        self.save_button = QPushButton("Save as calibration")
        self.save_button.setObjectName("budgetClaudeCalibrate")
        self.save_button.setToolTip("Scale this server's Claude figures by count_tokens ÷ reconstructed from now on")
        self.result = plain_label(wrap=True, selectable=True)  # a row of the pane's own, shown when it says something
        self.result.setObjectName("budgetClaudeComparison")
        self.result.setAccessibleName("Claude comparison")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.model)
        layout.addWidget(self.compare_button)
        layout.addWidget(self.save_button)
        self.model.currentIndexChanged.connect(self._model_changed)
        self.compare_button.clicked.connect(self._compare)
        self.save_button.clicked.connect(self._save)
        self.refresh()

    def server_key(self) -> str:
        """The name a calibration is saved under: the server's own name (as the CLI uses), else the profile's."""
        info = getattr(self.pane.session, "server_info", None) or {}
        return str(info.get("name") or self.pane.server) if self.pane.server else ""

    def model_id(self) -> str:
        return str(self.model.currentData())

    def refresh(self) -> None:
        """Shown with the Claude tokenizer; the API button only with a key; Save only after a comparison."""
        claude = self.pane.pickers.tokenizer_name() == CLAUDE
        self.setVisible(claude)
        self.compare_button.setVisible(bool(os.environ.get("ANTHROPIC_API_KEY")))
        self.save_button.setVisible(self.comparison is not None)
        self.result.setVisible(claude and bool(self.result.text()))

    def say(self, text: str) -> None:
        """What the comparison or the calibration came to, on the result row."""
        self.result.setText(text)
        self.refresh()

    def _model_changed(self) -> None:
        self.settings.setValue("budget/claudeModel", self.model_id())
        self._forget()
        self.changed.emit()

    def _forget(self) -> None:
        self.comparison = None
        self.say("")
        self.refresh()

    def server_changed(self) -> None:
        self._forget()

    def _compare(self) -> None:
        task = asyncio.ensure_future(self._run_compare(list(self.pane.tools), self.model_id()))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _run_compare(self, tools: list[dict[str, Any]], model: str) -> None:
        from inspector.budget.tokenizers import get_tokenizer

        self.compare_button.setEnabled(False)
        self.say("asking count_tokens…")

        def work() -> Comparison:
            return compare(tools, get_tokenizer(CLAUDE, model=model), get_tokenizer("anthropic", model=model))

        try:
            comparison = await asyncio.get_running_loop().run_in_executor(None, work)
        except Exception as exc:  # no key, network, a refused request: said in the row
            self.say(f"count_tokens failed: {exc}")
            return
        finally:
            self.compare_button.setEnabled(True)
        self.comparison = comparison
        self.say(comparison.describe())
        self.refresh()

    def _save(self) -> None:
        if self.comparison is None or not self.server_key():
            return
        damaged = damaged_note()
        try:
            path = save_calibration(Calibration.from_comparison(self.server_key(), self.comparison))
        except OSError as exc:
            self.say(f"Could not save the calibration: {exc.strerror or exc}")
            return
        moved = f" · {damaged}: moved aside as {path.name}.corrupt-<time>, a new file started" if damaged else ""
        self.say(f"{self.comparison.describe()} · saved as this server's calibration ({path.name}){moved}")
        self.comparison = None
        self.refresh()
        self.changed.emit()
