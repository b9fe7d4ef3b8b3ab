"""A doctor report's coverage: every check of the table in the order it runs, whether it ran, and if
not, why, and what it found (it may name a server's tools: plain text only)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from inspector.doctor.report import RAN, SEVERITIES, DoctorReport
from inspector.ui.doctor.findings_view import SEVERITY_WORDS
from inspector.ui.widgets.plain_text import item_text, safe_tooltip
from inspector.ui.widgets.row_table import one_row_at_a_time
from inspector.words import counted

COLUMNS = ("Check", "Status", "Found", "Why not / what it checks", "Spec section")


class ChecksView(QTableWidget):
    """`show_report(report)` lists its `coverage`: one row per check."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setObjectName("doctorChecks")
        self.setAccessibleName("Doctor checks")
        self.setHorizontalHeaderLabels(list(COLUMNS))
        one_row_at_a_time(self)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)  # one line a row, as the log
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((150, 110, 150, 480)):
            self.setColumnWidth(column, width)

    def show_report(self, report: DoctorReport | None) -> None:
        outcomes = report.coverage if report else []
        found: dict[str | None, Counter[str]] = {}
        for finding in report.findings if report else []:
            found.setdefault(finding.owner, Counter())[finding.severity] += 1
        self.clearContents()
        self.setRowCount(len(outcomes))
        for row, outcome in enumerate(outcomes):
            words = (
                outcome.check,
                outcome.status,
                _found(found.get(outcome.check, Counter())),
                outcome.what if outcome.status == RAN else outcome.reason,
                outcome.section,
            )
            for column, text in enumerate(words):
                item = QTableWidgetItem(item_text(text))
                item.setToolTip(safe_tooltip(text))
                self.setItem(row, column, item)


def _found(counts: Counter[str]) -> str:
    """``1 error, 2 notes``: what a check found, worst first ("" when nothing)."""
    return ", ".join(counted(counts[s], SEVERITY_WORDS[s]) for s in SEVERITIES if counts[s])
