"""A doctor report's coverage: every check of the table in the order it runs, whether it ran, and if
not, why (it may name a server's tools: plain text only)."""

from __future__ import annotations

from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from inspector.doctor.report import RAN, DoctorReport
from inspector.ui.widgets.plain_text import item_text, safe_tooltip
from inspector.ui.widgets.row_table import one_row_at_a_time

COLUMNS = ("Check", "Status", "Why not / what it checks", "Spec section")


class ChecksView(QTableWidget):
    """`show_report(report)` lists its `coverage`: one row per check."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setObjectName("doctorChecks")
        self.setAccessibleName("Doctor checks")
        self.setHorizontalHeaderLabels(list(COLUMNS))
        one_row_at_a_time(self)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((150, 110, 480)):
            self.setColumnWidth(column, width)

    def show_report(self, report: DoctorReport | None) -> None:
        outcomes = report.coverage if report else []
        self.clearContents()
        self.setRowCount(len(outcomes))
        for row, outcome in enumerate(outcomes):
            words = (
                outcome.check,
                outcome.status,
                outcome.what if outcome.status == RAN else outcome.reason,
                outcome.section,
            )
            for column, text in enumerate(words):
                item = QTableWidgetItem(item_text(text))
                item.setToolTip(safe_tooltip(text))
                self.setItem(row, column, item)
