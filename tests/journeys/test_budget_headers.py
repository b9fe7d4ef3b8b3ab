"""The Budget tab at the default window size (issue 11, point 10): every column header of its tables
is readable in full, none cut by its section or by the table's edge."""

from __future__ import annotations

from journey_support import Lens
from PySide6.QtWidgets import QHeaderView, QStyle, QTableView


def clipped_headers(table: QTableView) -> list[str]:
    """Headers whose text (with the header's margins, and the sort arrow on the sorted one) does not fit
    the part of their section that is on screen."""
    header: QHeaderView = table.horizontalHeader()
    style, metrics = header.style(), header.fontMetrics()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    arrow = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header) + margin
    model, width = table.model(), header.viewport().width()
    clipped = []
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        text = str(model.headerData(section, header.orientation()) or "")
        sorted_here = header.isSortIndicatorShown() and header.sortIndicatorSection() == section
        needed = metrics.horizontalAdvance(text) + 2 * margin + (arrow if sorted_here else 0)
        left = header.sectionViewportPosition(section)
        shown = min(left + header.sectionSize(section), width) - max(left, 0)
        if needed > shown:
            clipped.append(f"{text!r} needs {needed} px, shows {shown} px")
    return clipped


def test_every_budget_header_fits_at_the_default_window_size(lens: Lens) -> None:
    window = lens.start()
    assert (window.width(), window.height()) == (1280, 860)
    lens.tab("Budget")
    lens.wait_text("schedule_meeting")
    for name in ("Tool costs", "Lints"):
        table = lens.find(name, QTableView)
        assert isinstance(table, QTableView)
        assert clipped_headers(table) == [], name
