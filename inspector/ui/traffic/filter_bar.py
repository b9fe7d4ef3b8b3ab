"""The bar above the traffic log: filter text, direction, kind, "errors only", counts, Follow."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget

from inspector.apps.bridge import TRANSPORT as APP_TRANSPORT
from inspector.traffic.entry import PROBE_KIND, Direction, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.ui.widgets.plain_text import item_text

DIRECTIONS = [
    ("All directions", None),
    ("→ to server", Direction.OUT),
    ("← from server", Direction.IN),
    ("• inspector", Direction.META),
]
TEXT_DELAY_MS = 150  # typing pauses this long before the index is rebuilt
ALL_SERVERS = "All servers"
APP_KIND = "app (MCP Apps bridge)"  # in the Kind filter: every message between an MCP App and MCP Lens
PROBE_ITEM = f"{PROBE_KIND} (MCP Lens's own)"  # in the Kind filter: our own probes, fallbacks and teardown


class TrafficFilterBar(QWidget):
    """Emits `filterChanged` when the user changes the filter (typing is debounced)."""

    filterChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Connected, not passed as `timeout=`: PySide6 6.12 calls a signal given as a keyword, which fails.
        self._text_timer = QTimer(self, singleShot=True, interval=TEXT_DELAY_MS)
        self._text_timer.timeout.connect(self.filterChanged.emit)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("Filter: text in the message, method, kind, notes (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setAccessibleName("Traffic filter")
        self.filter_edit.textChanged.connect(lambda _: self._text_timer.start())
        self.direction_combo = QComboBox(self)
        for text, direction in DIRECTIONS:
            self.direction_combo.addItem(text, direction)
        self.direction_combo.setAccessibleName("Direction")
        self.kind_combo = QComboBox(self)
        self.kind_combo.addItem("All kinds", None)
        for kind in Kind:
            self.kind_combo.addItem(kind.value, kind)
        self.kind_combo.addItem(APP_KIND, APP_TRANSPORT)  # an MCP App's bridge: every kind, that transport
        self.kind_combo.addItem(PROBE_ITEM, PROBE_KIND)  # every kind, sent by MCP Lens on its own
        self.kind_combo.setItemData(
            self.kind_combo.count() - 1,
            "Requests MCP Lens sends on its own to find something out or to tidy up (the era probe, its "
            "fallback, a stream it ends), with their answers; a refusal of one is not an error",
            Qt.ItemDataRole.ToolTipRole,
        )
        self.kind_combo.setAccessibleName("Kind")
        self.server_combo = QComboBox(self)  # shown once the log holds more than one server's traffic
        self.server_combo.addItem(ALL_SERVERS, None)
        self.server_combo.setAccessibleName("Server filter")
        self.server_combo.setToolTip("Show one server's traffic, or every server's")
        self.server_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.server_combo.hide()
        self.server_combo.currentIndexChanged.connect(self._changed)
        self.errors_check = QCheckBox("Errors only", self)
        self.errors_check.setToolTip(
            "Unparsable lines, JSON-RPC errors, tool isError and entries with notes "
            "(not a refusal of MCP Lens's own probes: Kind › probe shows those)"
        )
        self.direction_combo.currentIndexChanged.connect(self._changed)
        self.kind_combo.currentIndexChanged.connect(self._changed)
        self.errors_check.toggled.connect(self._changed)
        self.count_label = QLabel(self)
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.count_label.setToolTip("entries shown / entries recorded")
        self.count_label.setAccessibleName("Entries shown")
        self.follow_button = QToolButton(self)
        self.follow_button.setText("Follow")
        self.follow_button.setCheckable(True)
        self.follow_button.setChecked(True)
        self.follow_button.setToolTip("Keep the newest entry in view (pauses while you scroll up)")
        self._layout = layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter_edit, 1)
        for widget in (self.server_combo, self.direction_combo, self.kind_combo, self.errors_check):
            layout.addWidget(widget)
        for widget in (self.count_label, self.follow_button):
            layout.addWidget(widget)

    def add_server(self, name: str) -> None:
        """Offer `name` in the server filter (the filter shows once there are two)."""
        if self.server_combo.findData(name) < 0:
            self.server_combo.addItem(item_text(name), name)  # a name from a config file
        self.server_combo.setVisible(self.server_combo.count() > 2)

    def servers(self) -> list[str]:
        return [self.server_combo.itemData(i) for i in range(1, self.server_combo.count())]

    def add_trailing(self, widget: QWidget) -> None:
        """Add a control for the whole log (e.g. Clear) at the end of the bar."""
        self._layout.addWidget(widget)

    def current_filter(self) -> TrafficFilter:
        direction = self.direction_combo.currentData()
        kind = self.kind_combo.currentData()
        server = self.server_combo.currentData()
        transport = APP_TRANSPORT if kind == APP_TRANSPORT else None  # (kinds are strings too: StrEnum)
        probes = kind == PROBE_KIND
        kind = None if transport is not None or probes else kind
        return TrafficFilter(
            text=self.filter_edit.text(),
            directions=frozenset([direction]) if direction is not None else frozenset(),
            kinds=frozenset([kind]) if kind is not None else frozenset(),
            transports=frozenset([transport]) if transport is not None else frozenset(),
            errors_only=self.errors_check.isChecked(),
            probes=probes,
            servers=frozenset([server]) if server is not None else frozenset(),
        )

    def reset(self) -> None:
        """Back to "show everything", with one `filterChanged`."""
        widgets = (self.filter_edit, self.direction_combo, self.kind_combo, self.errors_check, self.server_combo)
        for widget in widgets:
            widget.blockSignals(True)
        self.filter_edit.clear()
        self.direction_combo.setCurrentIndex(0)
        self.kind_combo.setCurrentIndex(0)
        self.server_combo.setCurrentIndex(0)
        self.errors_check.setChecked(False)
        for widget in widgets:
            widget.blockSignals(False)
        self._changed()

    def set_counts(self, shown: int, total: int) -> None:
        self.count_label.setText(f"{shown:,} / {total:,}")

    def _changed(self, *_: object) -> None:
        self._text_timer.stop()
        self.filterChanged.emit()
