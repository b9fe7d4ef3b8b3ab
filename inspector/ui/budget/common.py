"""Shared bits of the Budget tab: colours, number formats, plain-text labels, table export."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QComboBox, QPushButton, QWidget

DESCRIPTION_COLOR = QColor("#4c8bf5")
SCHEMA_COLOR = QColor("#e3a008")
REST_COLOR = QColor("#8b949e")
SEGMENTS = (("description", DESCRIPTION_COLOR), ("schema", SCHEMA_COLOR), ("rest", REST_COLOR))

# Severity marks carry a symbol and a word, so colour is never the only signal.
SEVERITY_MARK = {"error": "✖ error", "warning": "▲ warning", "info": "ℹ info"}
SEVERITY_COLOR = {"error": QColor("#f85149"), "warning": QColor("#d29922"), "info": QColor("#58a6ff")}
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def compact_combo(box: QComboBox, chars: int = 12) -> QComboBox:
    """A combo box whose minimum width is `chars` characters, not its longest item: the pane stays narrow."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(chars)
    return box


def fmt_int(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def fmt_share(share: float) -> str:
    percent = share * 100
    return f"{percent:.2f} %" if percent < 10 else f"{percent:.1f} %"


def fmt_delta(delta: int) -> str:
    return f"{delta:+,}" if delta else "0"


def fmt_window(tokens: int) -> str:
    if tokens % 1_000_000 == 0:
        return f"{tokens // 1_000_000}M"
    if tokens % 1_000 == 0:
        return f"{tokens // 1_000}K"
    return f"{tokens:,}"


def model_rows(model: QAbstractItemModel) -> tuple[list[str], list[list[str]]]:
    """Header and display text of every row, in view order (works through a proxy)."""
    columns = model.columnCount()
    header = [str(model.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(columns)]
    rows = []
    for r in range(model.rowCount()):
        rows.append([str(model.data(model.index(r, c)) or "") for c in range(columns)])
    return header, rows


def to_csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def to_markdown(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def cell(value: Any) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def copy_text(text: str) -> None:
    QGuiApplication.clipboard().setText(text)


def copy_buttons(model_of: Any, parent: QWidget | None = None) -> tuple[QPushButton, QPushButton]:
    """ "Copy CSV" and "Copy Markdown" buttons for the model returned by `model_of()`."""
    csv_button = QPushButton("Copy CSV", parent)
    md_button = QPushButton("Copy Markdown", parent)
    csv_button.setToolTip("Copy the table, as shown, as comma-separated values")
    md_button.setToolTip("Copy the table, as shown, as a Markdown table")
    csv_button.clicked.connect(lambda: copy_text(to_csv(*model_rows(model_of()))))
    md_button.clicked.connect(lambda: copy_text(to_markdown(*model_rows(model_of()))))
    return csv_button, md_button
