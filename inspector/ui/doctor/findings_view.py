"""A doctor report's findings: a table grouped by severity (errors, then warnings, then notes) and the
selected finding's detail. Everything in it may come from the server: plain text only."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.content.visible import visible
from inspector.doctor.report import SEVERITIES, DoctorFinding, DoctorReport
from inspector.ui.widgets.plain_text import item_text
from inspector.ui.widgets.row_table import one_row_at_a_time

COLUMNS = ("Severity", "Check", "JSON path", "Finding", "Expected", "Spec section")
SEVERITY_WORDS = {"error": "error", "warning": "warning", "info": "note"}


def detail_text(finding: DoctorFinding) -> str:
    return "\n".join(
        [
            f"{SEVERITY_WORDS.get(finding.severity, finding.severity)} · {finding.check}",
            f"path: {finding.path}",
            "",
            finding.message,
            "",
            f"expected: {finding.expected}",
            f"see: {finding.section}",
        ]
    )


DETAIL_LINES = 4  # the detail pane asks for this many lines: the findings above get the rest


class DetailPane(QPlainTextEdit):
    """The selected finding whole; it asks for a few lines only (Qt's default is ~12), so that on a small
    window the findings table keeps its rows."""

    def sizeHint(self) -> QSize:
        frame = 2 * self.frameWidth() + int(2 * self.document().documentMargin())
        return QSize(super().sizeHint().width(), DETAIL_LINES * self.fontMetrics().lineSpacing() + frame)

    def minimumSizeHint(self) -> QSize:
        frame = 2 * self.frameWidth() + int(2 * self.document().documentMargin())
        return QSize(super().minimumSizeHint().width(), 2 * self.fontMetrics().lineSpacing() + frame)


class FindingsView(QWidget):
    """`show_report(report)` fills the table; selecting a row shows its finding in the detail pane."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.findings: list[DoctorFinding] = []
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("doctorFindings")
        self.table.setAccessibleName("Doctor findings")
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        one_row_at_a_time(self.table)
        self.table.verticalHeader().setDefaultSectionSize(
            self.table.fontMetrics().height() + 6
        )  # one line a row, as the log
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((70, 130, 200, 380, 260)):
            self.table.setColumnWidth(column, width)
        self.detail = DetailPane()
        self.detail.setObjectName("doctorFindingDetail")
        self.detail.setAccessibleName("Finding detail")
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText("Select a finding to read it whole.")
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)
        self.table.itemSelectionChanged.connect(self._selected)

    def show_report(self, report: DoctorReport | None) -> None:
        ordered = [f for severity in SEVERITIES for f in (report.by_severity(severity) if report else [])]
        self.findings = ordered
        self.table.clearContents()
        self.table.setRowCount(len(ordered))
        for row, finding in enumerate(ordered):
            words = (
                SEVERITY_WORDS.get(finding.severity, finding.severity),
                finding.check,
                finding.path,
                finding.message,
                finding.expected,
                finding.section,
            )
            for column, text in enumerate(words):
                self.table.setItem(row, column, QTableWidgetItem(item_text(text)))
        self.detail.clear()

    def _selected(self) -> None:
        rows = {index.row() for index in self.table.selectedIndexes()}
        if len(rows) == 1 and (row := rows.pop()) < len(self.findings):
            self.detail.setPlainText(visible(detail_text(self.findings[row])))
        else:
            self.detail.clear()
