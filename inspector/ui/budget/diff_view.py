"""Diff: a saved snapshot against another snapshot or the connected server, with breaking changes marked."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.budget.snapshot import SnapshotDiff, SnapshotError, load_snapshot
from inspector.budget.tokenizers import figure_of
from inspector.content.visible import visible
from inspector.ui.budget.common import copy_buttons, fmt_delta
from inspector.ui.budget.diff_model import BREAKING, DiffModel
from inspector.ui.budget.engine import Counters, describe_error, offline_or_fallback
from inspector.ui.widgets.layout_parts import named_splitter
from inspector.ui.widgets.plain_text import plain_label

if TYPE_CHECKING:
    from inspector.ui.budget.pane import BudgetPane

CURRENT, FILE = "current", "file"


class DiffView(QWidget):
    def __init__(self, pane: BudgetPane) -> None:
        super().__init__()
        self.pane = pane
        self.counters = Counters()
        self.old_path: Path | None = None
        self.new_path: Path | None = None
        self.result: SnapshotDiff | None = None
        self.model = DiffModel(self)

        self.old_label = plain_label("(choose a snapshot)", wrap=True, selectable=True)  # wraps: paths can be long
        self.old_button = QPushButton("Choose…")
        self.old_button.clicked.connect(self.choose_old)
        self.new_kind = QComboBox()
        self.new_kind.addItem("the connected server", CURRENT)
        self.new_kind.addItem("another snapshot", FILE)
        self.new_kind.currentIndexChanged.connect(self._kind_changed)
        self.new_label = plain_label("", wrap=True, selectable=True)
        self.new_button = QPushButton("Choose…")
        self.new_button.clicked.connect(self.choose_new)
        self.diff_button = QPushButton("Diff")
        self.diff_button.setObjectName("budgetDiffButton")
        self.diff_button.clicked.connect(self.run)
        self.summary = plain_label("Pick an old snapshot, then what to compare it with.", wrap=True, selectable=True)
        self.summary.setObjectName("budgetDiffSummary")
        self.table = QTableView()
        self.table.setObjectName("budgetDiff")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((170, 170, 80, 80, 72, 330)):
            self.table.setColumnWidth(column, width)

        old_row = QHBoxLayout()  # old and new on separate rows: the pane stays narrow enough for a small window
        old_row.addWidget(QLabel("Old:"))
        old_row.addWidget(self.old_label, 1)
        old_row.addWidget(self.old_button)
        new_row = QHBoxLayout()
        new_row.addWidget(QLabel("New:"))
        new_row.addWidget(self.new_kind)
        new_row.addWidget(self.new_label, 1)
        new_row.addWidget(self.new_button)
        new_row.addStretch(1)  # keeps the row packed left while the path label is hidden
        new_row.addWidget(self.diff_button)
        csv_button, md_button = copy_buttons(lambda: self.model, self)
        copy_row = QHBoxLayout()
        copy_row.addWidget(self.summary, 1)
        copy_row.addWidget(csv_button, 0, Qt.AlignmentFlag.AlignTop)
        copy_row.addWidget(md_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(old_row)
        layout.addLayout(new_row)
        layout.addLayout(copy_row)
        self.detail = QPlainTextEdit()
        self.detail.setObjectName("budgetDiffDetail")
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText("Select a row to read everything that changed in that tool.")
        self.table.selectionModel().currentRowChanged.connect(lambda current, _previous: self._show_detail(current))
        split = named_splitter("budgetDiffSplit", self.table, self.detail, sizes=[420, 180], vertical=True)
        layout.addWidget(split, 1)
        self._kind_changed()

    def _show_detail(self, index: QModelIndex) -> None:
        if not index.isValid() or index.row() >= len(self.model.rows):
            self.detail.clear()
            return
        status, change = self.model.rows[index.row()]
        lines = [f"{change.name}: {status}, {change.old_tokens:,} → {change.new_tokens:,} tokens"]
        lines += [f"  • {item}" for item in change.changes]
        if change.breaking:
            lines.append(f"{BREAKING} for callers:")
            lines += [f"  • {item}" for item in change.breaking]
        self.detail.setPlainText(visible("\n".join(lines)))

    def _kind_changed(self) -> None:
        is_file = self.new_kind.currentData() == FILE
        self.new_button.setVisible(is_file)
        self.new_label.setVisible(is_file)

    def remember(self, path: Path) -> None:
        """The latest saved snapshot becomes the default "old" side."""
        self.old_path = Path(path)
        self.old_label.setText(str(self.old_path))

    def _pick(self, title: str) -> Path | None:
        folder = str(self.pane.settings.value("budget/snapshotDir", ""))
        path, _ = QFileDialog.getOpenFileName(self, title, folder, "Snapshots (*.json);;All files (*)")
        if not path:
            return None
        self.pane.settings.setValue("budget/snapshotDir", str(Path(path).parent))
        return Path(path)

    def choose_old(self) -> None:
        if path := self._pick("Old snapshot"):
            self.remember(path)

    def choose_new(self) -> None:
        if path := self._pick("New snapshot"):
            self.new_path = path
            self.new_label.setText(str(path))

    def run(self) -> SnapshotDiff | None:
        """Diff with the chosen sides; shows what went wrong instead of raising."""
        if self.old_path is None:
            self.summary.setText("Choose the old snapshot first (Choose… next to “Old”).")
            return None
        if self.new_kind.currentData() == FILE and self.new_path is None:
            self.summary.setText("Choose the new snapshot, or compare with the connected server.")
            return None
        return self.diff(self.old_path, self.new_path if self.new_kind.currentData() == FILE else None)

    def diff(self, old_path: str | Path, new_path: str | Path | None = None) -> SnapshotDiff | None:
        """Diff snapshot `old_path` with `new_path`, or with the connected server's tools when None."""
        self.remember(Path(old_path))
        try:
            old = load_snapshot(old_path)
            if new_path is not None:
                new_tools, new_name = load_snapshot(new_path).tools, Path(new_path).name
            else:
                new_tools, new_name = self.pane.tools, f"{self.pane.server or 'connected server'} (now)"
            counter = self.counters.get(offline_or_fallback(self.pane.tokenizer_name()))
            result = self.pane.diff_lists(counter, old.tools, new_tools)
        except (SnapshotError, OSError) as exc:
            self.summary.setText(f"Could not diff: {describe_error(exc)}")
            self.model.set_diff(None)
            return None
        except Exception as exc:  # a malformed tool list in a hand-edited file
            self.summary.setText(f"Could not diff: {type(exc).__name__}: {describe_error(exc)}")
            self.model.set_diff(None)
            return None
        self.result = result
        self.model.set_diff(result)
        if new_path is not None:
            self.new_kind.setCurrentIndex(self.new_kind.findData(FILE))
            self.new_path = Path(new_path)
            self.new_label.setText(str(new_path))
        if self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(0, 0))
        else:
            self.detail.setPlainText("No tool changed." if result.unchanged else "")
        figure = figure_of(counter.tokenizer, self.pane.shape())
        self.summary.setText(summary_text(result, f"{old.server} @ {old.taken_at}", new_name) + f" Figures: {figure}.")
        self.pane.views.setCurrentWidget(self)
        return result


def summary_text(diff: SnapshotDiff, old_name: str, new_name: str) -> str:
    delta = diff.new_total - diff.old_total
    growth = f" ({diff.growth() * 100:+.1f} %)" if diff.old_total else ""
    counts = f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed"
    verdict = f"{BREAKING}: callers of this server may break" if diff.breaking else "no breaking changes"
    return (
        f"{old_name} → {new_name}: {counts}; total {diff.old_total:,} → {diff.new_total:,} tokens "
        f"({fmt_delta(delta)}){growth}; {verdict}."
    )
