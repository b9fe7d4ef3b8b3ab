"""Shared bits of the form widgets: colours, the form context, type summaries.

Every server-provided string (titles, descriptions, enum labels, examples) goes through a label
with `Qt.PlainText`, or `setText`/`setPlaceholderText` of an editor: never rich text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QWidget

from inspector.content.visible import visible
from inspector.schema import MISSING, FieldSpec, Kind, State, json_text

if TYPE_CHECKING:
    from inspector.ui.form.row import FieldRow

AUTO_EXPAND_DEPTH = 3  # containers deeper than this start collapsed (their widgets are built on opening)
MAX_ROWS = 400  # rows shown per object / array / map; the rest stay editable in the JSON tab
ERROR_COLOUR = QColor("#c01c28")


def set_error_colour(widget: QWidget) -> None:
    palette = widget.palette()
    palette.setColor(QPalette.ColorRole.WindowText, ERROR_COLOUR)
    widget.setPalette(palette)


def short(value: Any, limit: int = 60) -> str:
    """JSON text of a value for a hint (strings without quotes)."""
    if isinstance(value, str):
        return visible(value if len(value) <= limit else value[: limit - 1] + "…", one_line=True)
    return visible(json_text(value, limit), one_line=True)


def _range(low: Any, high: Any, unit: str = "") -> str:
    if low is not None and high is not None:
        return f"{short(low)}–{short(high)}{unit}"
    if low is not None:
        return f"≥ {short(low)}{unit}"
    return f"≤ {short(high)}{unit}" if high is not None else ""


def _bounds(spec: FieldSpec) -> str:
    """A number's range: "5–480" when both ends are inclusive, else each end with its own sign ("> 0, ≤ 300").

    When a schema gives both an inclusive and an exclusive bound on one side, the tighter one is shown."""
    low, low_sign = _tighter(spec.minimum, spec.exclusive_minimum, max)
    high, high_sign = _tighter(spec.maximum, spec.exclusive_maximum, min)
    if low is not None and high is not None and low_sign == "≥" and high_sign == "≤":
        return f"{short(low)}–{short(high)}"
    ends = [
        f"{low_sign} {short(low)}" if low is not None else "",
        f"{high_sign} {short(high)}" if high is not None else "",
    ]
    return ", ".join(end for end in ends if end)


def _tighter(inclusive: Any, exclusive: Any, pick: Callable[[Any, Any], Any]) -> tuple[Any, str]:
    """(bound, sign) of one side: the tighter of an inclusive and an exclusive bound (exclusive on a tie)."""
    sign = "≥" if pick is max else "≤"
    if exclusive is None:
        return inclusive, sign
    strict = sign.replace("≥", ">").replace("≤", "<")
    if inclusive is None or pick(inclusive, exclusive) == exclusive:
        return exclusive, strict
    return inclusive, sign


def describe(spec: FieldSpec) -> str:
    """A short type summary shown next to the field name, e.g. "integer · 5–480 · step 5"."""
    parts: list[str] = []
    kind = spec.kind
    if kind is Kind.STRING:
        parts = ["string", spec.format or "", _range(spec.min_length, spec.max_length, " chars")]
    elif kind in (Kind.NUMBER, Kind.INTEGER):
        step = f"step {short(spec.multiple_of)}" if spec.multiple_of else ""
        parts = [kind.value, _bounds(spec), step]
    elif kind is Kind.ARRAY:
        item = spec.items()
        what = f"array of {item.title or item.kind.value}" if item is not None and not spec.prefix() else "array"
        parts = [what, _range(spec.min_items, spec.max_items, " items")]
    elif kind is Kind.UNION:
        parts = ["one of " + " | ".join(spec.variant_labels[:6]) + (" | …" if len(spec.variant_labels) > 6 else "")]
    elif kind is Kind.MAP:
        parts = ["map"]
    elif kind is Kind.ENUM:
        parts = ["choice"]
    elif kind is Kind.ANY:
        parts = ["JSON"]
    elif kind is not Kind.OBJECT:
        parts = [kind.value]
    if spec.nullable:
        parts.append("nullable")
    return " · ".join(p for p in parts if p)


def default_hint(spec: FieldSpec) -> str:
    return "" if spec.default is MISSING else f"default: {short(spec.default)}"


class FormContext:
    """What every widget of one form shares: change notification and the rows for error display."""

    def __init__(self, on_changed: Callable[[State], None], palette: QPalette, font: QFont) -> None:
        self._on_changed = on_changed
        self._font = font
        self._fonts: dict[tuple[bool, bool], QFont] = {}
        self.rows: dict[int, FieldRow] = {}  # id(state) → row; a row keeps its state alive
        self.building = False
        self.dim_palette = QPalette(palette)
        colour = palette.color(QPalette.ColorRole.WindowText)
        colour.setAlpha(150)
        self.dim_palette.setColor(QPalette.ColorRole.WindowText, colour)
        self.error_palette = QPalette(palette)
        self.error_palette.setColor(QPalette.ColorRole.WindowText, ERROR_COLOUR)

    def name_font(self, bold: bool, strike: bool) -> QFont:
        """Shared fonts for field names (bold for top-level fields and containers, struck out if deprecated)."""
        if (bold, strike) not in self._fonts:
            font = QFont(self._font)
            font.setBold(bold)
            font.setStrikeOut(strike)
            self._fonts[bold, strike] = font
        return self._fonts[bold, strike]

    def register(self, row: FieldRow) -> None:
        self.rows[id(row.state)] = row

    def forget(self, widget: QWidget) -> None:
        """Drop the rows of a widget that is about to be deleted."""
        from inspector.ui.form.row import FieldRow

        for row in [widget, *widget.findChildren(FieldRow)]:
            state = getattr(row, "state", None)
            if state is not None and self.rows.get(id(state)) is row:
                del self.rows[id(state)]

    def row_for(self, state: State | None) -> FieldRow | None:
        """The nearest row showing `state` or one of its ancestors."""
        while state is not None:
            row = self.rows.get(id(state))
            if row is not None and row.state is state and shiboken6.isValid(row):
                return row
            state = state.parent
        return None

    def edited(self, state: State) -> None:
        """A widget changed `state`: update the chrome of its row and its ancestors', then notify."""
        node: State | None = state
        while node is not None:
            row = self.rows.get(id(node))
            if row is not None and row.state is node and shiboken6.isValid(row):
                row.update_chrome(live=node is state)
            node = node.parent
        if not self.building:
            self._on_changed(state)
