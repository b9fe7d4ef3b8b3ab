"""The detail pane under the traffic log: one entry as pretty JSON, exact text, HTTP headers, notes.

Only the visible tab is filled: selecting a 20 MB entry costs one plain preview, not three views.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QPlainTextEdit, QTabWidget, QVBoxLayout, QWidget

from inspector.content.visible import visible
from inspector.traffic.entry import Entry
from inspector.traffic.rounds import round_words
from inspector.ui.traffic.http_exchange import Exchange, exchange_text, find_exchange
from inspector.ui.widgets.json_view import JsonView
from inspector.ui.widgets.plain_text import PlainLabel

TAB_JSON, TAB_RAW, TAB_HEADERS = range(3)
_NOTES_MAX = 2000


def headers_text(http: dict[str, Any]) -> str:
    """A readable listing of an entry's HTTP metadata (headers arrive already redacted)."""
    lines: list[str] = []
    if http.get("method") or http.get("url"):
        lines.append(f"{http.get('method', '')} {http.get('url', '')}".strip())
    if "status" in http:
        lines.append(f"HTTP {http.get('status')} {http.get('reason') or ''}".rstrip())
    if http.get("elapsed_ms") is not None:
        lines.append(f"elapsed: {http['elapsed_ms']} ms")
    if http.get("request_seq") is not None:
        lines.append(f"request: #{http['request_seq']}")
    headers = http.get("headers")
    if headers:
        lines += ["", "Headers:"]
        for pair in headers:
            if isinstance(pair, list | tuple) and len(pair) == 2:
                lines.append(f"  {pair[0]}: {pair[1]}")
            else:
                lines.append(f"  {json.dumps(pair, ensure_ascii=False)}")
    sse = http.get("sse")
    if isinstance(sse, dict) and sse:
        lines += ["", "Server-sent event:"]
        lines += [f"  {key}: {value}" for key, value in sse.items()]
    known = {"method", "url", "status", "reason", "elapsed_ms", "request_seq", "headers", "sse"}
    other = {key: value for key, value in http.items() if key not in known}
    if other:
        lines += ["", "Other:"]
        lines += [f"  {key}: {json.dumps(value, ensure_ascii=False)}" for key, value in other.items()]
    return "\n".join(lines)


def notes_text(entry: Entry) -> str:
    parts = []
    parts += round_words(entry)  # a round of a multi round-trip call; requestState as opaque data
    if entry.parse_error:
        parts.append(f"Parse error: {entry.parse_error}")
    if entry.notes:
        parts.append("Notes: " + "; ".join(entry.notes))
    text = "   ".join(parts)
    return text if len(text) <= _NOTES_MAX else text[:_NOTES_MAX] + "…"


class EntryDetail(QWidget):
    """Tabs "JSON", "Raw", "Headers" and a notes line for one entry; `set_entry(None)` empties it. With the
    `store`, the Headers tab shows the whole HTTP exchange the entry belongs to (request and response)."""

    def __init__(self, parent: QWidget | None = None, store: Any = None) -> None:
        super().__init__(parent)
        self.store = store
        self.exchange: Exchange | None = None  # the HTTP exchange of the entry shown
        self.tabs = QTabWidget(self)
        self.json_view = JsonView(self)
        self.raw_view = JsonView(self)
        self.headers_view = QPlainTextEdit(self)
        self.headers_view.setReadOnly(True)
        self.headers_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.json_view.edit.setAccessibleName("Message JSON")
        self.raw_view.edit.setAccessibleName("Message as sent")
        self.headers_view.setAccessibleName("HTTP headers")
        self.tabs.addTab(self.json_view, "JSON")
        self.tabs.addTab(self.raw_view, "Raw")
        self.tabs.addTab(self.headers_view, "Headers")
        self.tabs.currentChanged.connect(self._fill_current)
        self.notes = PlainLabel(parent=self)
        self.notes.setWordWrap(True)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notes.setAccessibleName("Entry notes")
        self.notes.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.notes)
        layout.addWidget(self.tabs, 1)
        self.entry: Entry | None = None
        self._filled: set[int] = set()
        self._awaiting: int | None = None  # the request seq whose response headers are not recorded yet
        self._refill = QTimer(self)
        self._refill.setSingleShot(True)
        self._refill.timeout.connect(self.refresh)
        if store is not None:
            store.subscribe(self._on_append)

    def set_entry(self, entry: Entry | None) -> None:
        self.entry = entry
        self._filled.clear()
        self.exchange = find_exchange(self.store, entry) if self.store is not None else None
        self._awaiting = self.exchange.request_seq if self.exchange and self.exchange.response is None else None
        self.tabs.setTabEnabled(TAB_HEADERS, bool(entry is not None and (entry.http or self.exchange)))
        note = notes_text(entry) if entry is not None else ""
        self.notes.setText(note)
        self.notes.setVisible(bool(note))
        self._fill_current()

    def _on_append(self, entry: Entry) -> None:
        """The store's listener (hot path): the response to the exchange shown arrived, show its headers."""
        if self._awaiting is not None and entry.http is not None and entry.http.get("request_seq") == self._awaiting:
            try:
                self._refill.start(0)
            except RuntimeError:  # this pane is gone (its window closed): stop listening
                self.store.unsubscribe(self._on_append)

    def refresh(self) -> None:
        """Re-read the entry (its notes or pairing may have changed since it was shown)."""
        self.set_entry(self.entry)

    def _fill_current(self, *_: object) -> None:
        tab = self.tabs.currentIndex()
        if tab in self._filled:
            return
        self._filled.add(tab)
        entry = self.entry
        if tab == TAB_JSON:
            if entry is None:
                self.json_view.clear()
            else:
                self.json_view.show_json(entry.raw)
        elif tab == TAB_RAW:
            if entry is None:
                self.raw_view.clear()
            else:
                self.raw_view.show_raw(entry.raw)
        elif tab == TAB_HEADERS:
            http = entry.http if entry is not None else None
            if self.exchange is not None:
                text = exchange_text(self.exchange)
                extra = headers_text({"sse": http["sse"]}) if http and http.get("sse") else ""
                self.headers_view.setPlainText(visible(f"{text}\n\n{extra}" if extra else text))
            else:
                self.headers_view.setPlainText(visible(headers_text(http)) if http else "Not an HTTP entry.")
