"""Columns that fit their view: when the columns' widths add up to more than the view shows, the wide
ones give way (never below their header's text) so that every column, the last one included, stays in
sight; when the view widens again they go back to the widths they had (or the user gave them). Columns
`kept` whole (numbers, times: an elided number is a wrong number) never give way: the others do."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle


class ColumnFitter(QObject):
    """Keeps the Interactive columns of `view`'s horizontal header within its viewport."""

    def __init__(self, view: QAbstractItemView, header: QHeaderView, kept: tuple[int, ...] = ()) -> None:
        super().__init__(view)
        self.view, self.header = view, header
        self.wanted: dict[int, int] = {}  # the width each column has when there is room (set or dragged)
        self.kept = set(kept)  # columns that keep their wanted width (their content's) when room is short
        self._fitting = False
        self.stretch_last = header.stretchLastSection()  # the fitter stretches it (Qt keeps a floor of its own)
        self.fill: int | None = None  # the column that takes what is left instead of the last one (`fill_with`)
        header.setStretchLastSection(False)
        header.sectionResized.connect(self._resized)
        header.sectionCountChanged.connect(lambda *_: self.fit())
        view.viewport().installEventFilter(self)

    def floor(self, section: int) -> int:
        """The least width of a column: its header's text whole, with the header's margins and sort arrow."""
        header = self.header
        text = str(header.model().headerData(section, Qt.Orientation.Horizontal) or "") if header.model() else ""
        margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
        arrow = header.fontMetrics().height() if header.isSortIndicatorShown() else 0
        return max(header.minimumSectionSize(), header.fontMetrics().horizontalAdvance(text) + 2 * margin + arrow + 4)

    def _movable(self, section: int) -> bool:
        header = self.header
        return (
            not header.isSectionHidden(section)
            and header.sectionResizeMode(section) == QHeaderView.ResizeMode.Interactive
            and not (self.stretch_last and section == self._stretched())
        )

    def fill_with(self, section: int) -> None:
        """Let `section` take what the others leave (and give way first) rather than the last column."""
        self.fill, self.stretch_last = section, True
        self.fit()

    def _least(self, section: int, stretched: int) -> int:
        """What a stretched column claims before the others give way: a `fill` column its wanted width (the
        others give way to it first), any other its floor."""
        if section == stretched == self.fill:
            return max(self.wanted.get(section, 0), self.floor(section))
        return self.floor(section)

    def _stretched(self) -> int:
        """The column that takes what is left: `fill`, else the last shown one."""
        return self.fill if self.fill is not None else self._last()

    def _stretches(self, section: int) -> bool:
        return self.header.sectionResizeMode(section) == QHeaderView.ResizeMode.Stretch

    def _last(self) -> int:
        """The last shown column (the one a header stretches)."""
        header = self.header
        return header.logicalIndex(header.count() - 1 - _hidden_at_end(header))

    def want(self, widths: dict[int, int]) -> None:
        """Give columns the widths they have when there is room (a resize of a column the fitter had
        already narrowed to that width would not say so), then fit."""
        self.wanted.update(widths)
        self._fitting = True
        try:
            for section, width in widths.items():
                self.header.resizeSection(section, width)
        finally:
            self._fitting = False
        self.fit()

    def _resized(self, section: int, old: int, new: int) -> None:
        if not self._fitting and new > 0 and self._movable(section):
            if old > 0 or section not in self.wanted:  # a column shown again keeps the width it wanted
                self.wanted[section] = new
            self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return False

    def fit(self) -> None:
        header = self.header
        room = self.view.viewport().width()
        if room <= 0 or header.count() == 0:
            return
        movable = [s for s in range(header.count()) if self._movable(s)]
        for section in movable:
            self.wanted.setdefault(section, header.sectionSize(section))
        others = [s for s in range(header.count()) if not header.isSectionHidden(s) and s not in movable]
        stretched = self._stretched() if self.stretch_last else -1
        fixed = sum(
            self._least(s, stretched) if s == stretched or self._stretches(s) else header.sectionSize(s) for s in others
        )
        sizes = {s: max(self.wanted[s], self.floor(s)) for s in movable}
        excess = fixed + sum(sizes.values()) - room
        give = {s: 0 if s in self.kept else sizes[s] - self.floor(s) for s in movable}
        spare = sum(give.values())
        if excess > 0 and spare > 0:
            share = min(1.0, excess / spare)
            sizes = {s: sizes[s] - int(give[s] * share + 0.999) for s in movable}
        if stretched >= 0:
            used = sum(sizes.values()) + sum(header.sectionSize(s) for s in others if s != stretched)
            used -= sum(header.sectionSize(s) - self.floor(s) for s in others if self._stretches(s))
            sizes[stretched] = max(self.floor(stretched), room - used)
        self._fitting = True
        try:
            for section, size in sizes.items():
                if header.sectionSize(section) != size:
                    header.resizeSection(section, size)
        finally:
            self._fitting = False


def _hidden_at_end(header: QHeaderView) -> int:
    count = 0
    for visual in range(header.count() - 1, -1, -1):
        if not header.isSectionHidden(header.logicalIndex(visual)):
            break
        count += 1
    return count


def fit_columns(view: QAbstractItemView, kept: tuple[int, ...] = ()) -> ColumnFitter:
    """Make `view`'s columns fit its width (see the module's docstring); the fitter lives as long as the view.
    `kept`: the columns sized to their content that never give way. Once per view: a second call returns the
    first fitter, with `kept` added (two would each take the other's fitting for a user's resize)."""
    for child in view.children():
        if isinstance(child, ColumnFitter):
            child.kept.update(kept)
            child.fit()
            return child
    header = view.horizontalHeader() if hasattr(view, "horizontalHeader") else view.header()
    fitter = ColumnFitter(view, header, kept)
    fitter.fit()
    return fitter
