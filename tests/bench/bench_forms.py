"""Form engine and tool-list speed: ``python tests/bench/run.py forms``.

* A 199-property schema nested 4 objects deep: the form model (cold: `check_schema` included, the
  validator cache cleared each run), then the model *and* every widget (all containers open), then a
  whole `ToolForm` (both tabs) shown and laid out. Target: model + widgets under 150 ms.
* A tool list of 500 tools (name, title, description, annotation badges): the workbench's real
  `ToolList`, and beside it the stand-in this benchmark used before that list existed (a `QListView`
  over a small `QAbstractListModel` with a painting delegate, text built lazily). Target: under
  300 ms to shown.
* The form's figures: "first paint" is what the user waits for; `ToolForm` runs `check_schema`
  (≈0.3 ms per subschema, cold) right after the first paint, and the last form row includes it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from common import Row, median, quick
from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QApplication,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from inspector.schema import build
from inspector.schema.validate import _compiled
from inspector.ui.form import FormView, ToolForm
from inspector.ui.tools.tool_list import ToolList, badges

FORM_TARGET_MS = 150
LIST_TARGET_MS = 300
SCALARS: list[dict[str, Any]] = [
    {"type": "string", "minLength": 1, "description": "A short text field."},
    {"type": "integer", "minimum": 0, "maximum": 10_000, "default": 5},
    {"enum": ["low", "normal", "high"], "default": "normal"},
    {"type": "boolean", "default": False},
]


def nested_schema(depth: int = 4, fanout: int = 3) -> dict[str, Any]:
    """Objects `depth` levels deep, each with 4 scalars and `fanout` child objects: 199 properties."""

    def level(d: int) -> dict[str, Any]:
        props: dict[str, Any] = {f"field_{d}_{i}": {**s, "title": f"Field {d}.{i}"} for i, s in enumerate(SCALARS)}
        if d < depth - 1:
            props.update({f"child_{d}_{i}": level(d + 1) for i in range(fanout)})
        return {"type": "object", "description": f"Level {d}.", "properties": props, "required": list(props)[3:]}

    schema = level(0)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def count_properties(schema: dict[str, Any]) -> int:
    props = schema.get("properties", {})
    return len(props) + sum(count_properties(p) for p in props.values() if p.get("type") == "object")


def tools(n: int = 500) -> list[dict[str, Any]]:
    hints = [{"readOnlyHint": True}, {"destructiveHint": True, "idempotentHint": True}, {"openWorldHint": True}, {}]
    return [
        {
            "name": f"tool_{i:03d}",
            "title": f"Tool number {i}",
            "description": f"Does thing {i}: " + "reads the input, transforms it and returns a result. " * 3,
            "annotations": hints[i % len(hints)],
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
        }
        for i in range(n)
    ]


class ToolListModel(QAbstractListModel):
    """Thin adapter over a list of tool dicts; display text is built on first use and cached."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        super().__init__()
        self.items = items
        self._text: dict[int, tuple[str, str, str]] = {}

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.items)

    def texts(self, row: int) -> tuple[str, str, str]:
        if row not in self._text:
            tool = self.items[row]
            title = f"{tool.get('name', '?')}  —  {tool.get('title', '')}"
            self._text[row] = (title, str(tool.get("description", ""))[:200], "  ".join(badges(tool)))
        return self._text[row]

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.texts(index.row())[0]
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.texts(index.row())[1]
        return None


class ToolDelegate(QStyledItemDelegate):
    """Two lines per tool: "name — title" plus badges, then the description, elided."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(300, option.fontMetrics.height() * 2 + 10)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        model: ToolListModel = index.model()  # type: ignore[assignment]
        title, description, marks = model.texts(index.row())
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, option.widget)
        metrics, rect = option.fontMetrics, option.rect.adjusted(6, 4, -6, -4)
        line = metrics.height()
        painter.drawText(
            QRect(rect.x(), rect.y(), rect.width(), line),
            Qt.AlignmentFlag.AlignLeft,
            metrics.elidedText(title, Qt.TextElideMode.ElideRight, rect.width() - 120),
        )
        painter.drawText(QRect(rect.x(), rect.y(), rect.width(), line), Qt.AlignmentFlag.AlignRight, marks)
        painter.drawText(
            QRect(rect.x(), rect.y() + line, rect.width(), line),
            Qt.AlignmentFlag.AlignLeft,
            metrics.elidedText(description, Qt.TextElideMode.ElideRight, rect.width()),
        )


def _timed(make: Callable[[], Any], runs: int, show: bool = False) -> float:
    """Median ms of `make()` (plus `show()` and one event-loop pass when `show`), validator cache cold."""
    app = QApplication.instance()
    times = []
    for _ in range(runs):
        _compiled.cache_clear()
        started = time.perf_counter()
        widget = make()
        if show:
            widget.show()
            app.processEvents()  # type: ignore[union-attr]  # layout and first paint (and deferred work)
        times.append((time.perf_counter() - started) * 1000)
        if hasattr(widget, "deleteLater"):
            widget.deleteLater()
            app.processEvents()  # type: ignore[union-attr]
    return median(times)


def _form_view(schema: dict[str, Any]) -> FormView:
    view = FormView(build(schema))
    view.expand_all()
    return view


def _tool_form(schema: dict[str, Any], checked: bool) -> ToolForm:
    form = ToolForm(schema)
    form.resize(700, 900)
    if checked:
        form.fallback_note()  # forces the deferred check_schema now
    return form


class _FirstPaint(QObject):
    """Records when a widget is first painted."""

    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and self.at is None:
            self.at = time.perf_counter()
        return False


def _first_paint(schema: dict[str, Any], runs: int) -> float:
    """Median ms from `ToolForm(schema)` to the form's first paint (the deferred check runs after it)."""
    app = QApplication.instance()
    times = []
    for _ in range(runs):
        _compiled.cache_clear()
        probe = _FirstPaint()
        started = time.perf_counter()
        form = ToolForm(schema)
        form.view.installEventFilter(probe)
        form.resize(700, 900)
        form.show()
        while probe.at is None:
            app.processEvents()  # type: ignore[union-attr]
        times.append((probe.at - started) * 1000)
        form.deleteLater()
        app.processEvents()  # type: ignore[union-attr]
    return median(times)


def _list_view(items: list[dict[str, Any]]) -> QListView:
    view = QListView()
    view.setUniformItemSizes(True)
    view.setItemDelegate(ToolDelegate(view))
    view.setModel(ToolListModel(items))
    view.resize(360, 900)
    return view


def _tool_list(items: list[dict[str, Any]]) -> ToolList:
    """The workbench's real tool list (search box, model, two-line rows with badges)."""
    view = ToolList()
    view.set_listing(SimpleNamespace(tools=items, findings=[]))
    view.resize(360, 900)
    return view


def run() -> list[Row]:
    app = QApplication.instance() or QApplication([])
    runs = 5 if quick() else 15
    schema = nested_schema()
    n = count_properties(schema)
    _timed(lambda: _tool_form(schema, True), 2, show=True)  # warm-up: imports, fonts, style
    model_ms = _timed(lambda: build(schema), runs)
    model_unchecked_ms = _timed(lambda: build(schema, check=False), runs)
    view_ms = _timed(lambda: _form_view(schema), runs)
    shown_ms = _first_paint(schema, runs)
    shown_checked_ms = _timed(lambda: _tool_form(schema, True), runs, show=True)
    listing = tools(500)
    _timed(lambda: _list_view(listing), 2, show=True)
    list_ms = _timed(lambda: _list_view(listing), runs, show=True)
    widget_ms = _timed(lambda: _tool_list(listing), runs, show=True)
    del app
    form_target, list_target = f"< {FORM_TARGET_MS} ms", f"< {LIST_TARGET_MS} ms"
    return [
        Row(f"form model, {n} props 4 deep: build() incl. cold check_schema", model_ms, "ms"),
        Row("form model without check_schema (lazy tree: root only)", model_unchecked_ms, "ms"),
        Row(
            f"form model + all widgets built ({n} props, all open), cold",
            view_ms,
            "ms",
            target=form_target,
            ok=view_ms < FORM_TARGET_MS,
        ),
        Row(
            "ToolForm 700x900: new → first paint (check_schema runs after)",
            shown_ms,
            "ms",
            target=form_target,
            ok=shown_ms < FORM_TARGET_MS,
        ),
        Row("ToolForm 700x900: new → shown, laid out, painted, checked", shown_checked_ms, "ms"),
        Row(
            "tool list, 500 tools: QListView+model+delegate, shown (stand-in)",
            list_ms,
            "ms",
            target=list_target,
            ok=list_ms < LIST_TARGET_MS,
        ),
        Row(
            "tool list, 500 tools: the workbench's ToolList, shown",
            widget_ms,
            "ms",
            target=list_target,
            ok=widget_ms < LIST_TARGET_MS,
        ),
    ]


if __name__ == "__main__":
    import sys

    from run import print_table

    sys.exit(print_table(run()) or 0)
