"""TrafficView: selection and pairing, detail pane, big entries, hostile text, actions, screenshot."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from factories import call_result, notification, request, response, rpc, tool
from PySide6.QtGui import QGuiApplication, Qt  # QtGui's Qt namespace adds mightBeRichText
from PySide6.QtWidgets import QDialogButtonBox, QLabel

from inspector.traffic.entry import Direction, Kind
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.detail import TAB_HEADERS, TAB_JSON, TAB_RAW
from inspector.ui.traffic.model import COL_METHOD, COL_STATUS
from inspector.ui.traffic.view import TrafficView
from inspector.ui.widgets.json_view import BIG_BYTES, PREVIEW_CHARS, pretty_json_bounded

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
OUT, IN = Direction.OUT, Direction.IN
IMG = '<img src="file:///etc/passwd">'
LINK = '<a href="https://x">x</a>'


def populate(store: TrafficStore) -> None:
    store.record(Direction.META, "stdio", Kind.LIFECYCLE, b"started pid 4242: python weather_server.py")
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcp-lens", "version": "0.1"}}
    request(store, 0, "initialize", init)
    result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "weather"}}
    response(store, 0, result)
    notification(store, "notifications/initialized", direction=OUT)
    request(store, 1, "tools/list")
    tools = [tool("forecast", None, {"type": "object", "properties": {"city": {"type": "string"}}})]
    response(store, 1, {"tools": tools})
    request(store, 2, "tools/call", {"name": "forecast", "arguments": {}})
    store.record(IN, "stdio", Kind.STDERR, b"INFO fetching forecast for Paris")
    notification(store, "notifications/message", {"level": "info", "data": "50%"})
    response(store, 2, call_result("rain", is_error=True))
    store.record_message(IN, "stdio", b"Traceback (most recent call last): \xff\xfe not UTF-8")
    request(store, 3, "ping")
    response(store, 3, error={"code": -32601, "message": "Method not found"})
    response(store, 99)


@pytest.fixture
def view(qtbot) -> TrafficView:
    store = TrafficStore()
    view = TrafficView(store)
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    return view


def settle(qtbot, view: TrafficView) -> None:
    qtbot.waitUntil(lambda: view.model.total() == len(view.store), timeout=5000)


def test_select_request_then_jump_to_response_with_ctrl_j(qtbot, view: TrafficView) -> None:
    populate(view.store)
    settle(qtbot, view)
    call = next(e for e in view.store if e.method == "tools/call" and e.kind is Kind.REQUEST)
    assert view.select_seq(call.seq)
    assert view.selected_entry() is call
    response_row = view.model.row_of_seq(call.peer_seq)
    assert view.model.is_peer_row(response_row), "the paired response is tinted"
    assert "paired with response" in view.status_label.text()
    view.activateWindow()
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert view.selected_entry().seq == call.peer_seq
    assert view.table.currentIndex().row() == response_row
    assert view.model.is_peer_row(view.model.row_of_seq(call.seq)), "and now the request is the tinted one"
    qtbot.keyClick(view.table, Qt.Key.Key_J, Qt.KeyboardModifier.ControlModifier)
    assert view.selected_entry() is call

    view.filter_edit.setText("forecast")
    view.apply_filter()
    assert view.selected_entry() is call, "the selection survives a filter change"
    view.kind_combo.setCurrentIndex(view.kind_combo.findData(Kind.REQUEST))
    assert view.model.rowCount() == 1
    assert not view.jump_to_pair()
    assert "hidden by the current filter" in view.status_label.text()
    qtbot.keyClick(view.table, Qt.Key.Key_Escape)
    assert view.filter_edit.text() == "" and view.model.rowCount() == len(view.store)
    qtbot.keyClick(view.table, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert view.filter_edit.hasFocus()


def test_response_arriving_after_selection_enables_the_pair(qtbot, view: TrafficView) -> None:
    request(view.store, 1, "tools/call", {"name": "slow"})
    settle(qtbot, view)
    assert view.select_seq(1) and not view.pair_action.isEnabled()
    response(view.store, 1, call_result())
    qtbot.waitUntil(view.pair_action.isEnabled, timeout=2000)
    assert "paired with response #2" in view.status_label.text() and view.model.is_peer_row(1)


def test_detail_shows_pretty_json_raw_bytes_and_headers(qtbot, view: TrafficView) -> None:
    populate(view.store)
    http = {"method": "POST", "url": "http://127.0.0.1:1/mcp", "headers": [["authorization", "Bearer <redacted>"]]}
    request(view.store, 7, "ping", transport="http", http=http)
    settle(qtbot, view)
    listing = next(e for e in view.store if e.method == "tools/list" and e.kind is Kind.RESPONSE)
    view.select_seq(listing.seq)
    detail = view.detail
    assert detail.tabs.currentIndex() == TAB_JSON
    assert detail.json_view.text() == json.dumps(json.loads(listing.raw), indent=2)
    assert detail.json_view.highlighted and not detail.json_view.truncated
    assert not detail.tabs.isTabEnabled(TAB_HEADERS), "stdio entries have no HTTP headers"

    garbage = next(e for e in view.store if e.kind is Kind.UNPARSABLE)
    view.select_seq(garbage.seq)
    detail.tabs.setCurrentIndex(TAB_RAW)
    assert detail.raw_view.text() == "Traceback (most recent call last): \\xff\\xfe not UTF-8"
    assert detail.notes.isVisibleTo(view) and "Parse error: not UTF-8" in detail.notes.text()
    detail.tabs.setCurrentIndex(TAB_JSON)
    assert not detail.json_view.highlighted, "not JSON: shown as text"

    sent = view.store[len(view.store) - 1]
    view.select_seq(sent.seq)
    assert detail.tabs.isTabEnabled(TAB_HEADERS)
    detail.tabs.setCurrentIndex(TAB_HEADERS)
    headers = detail.headers_view.toPlainText()
    assert "POST http://127.0.0.1:1/mcp" in headers and "authorization: Bearer <redacted>" in headers
    assert view.curl_action.isEnabled()


def test_big_entry_selects_at_once_and_formats_on_demand(qtbot, view: TrafficView) -> None:
    text = "x" * 20_000_000
    big = response(view.store, 5, call_result(text))
    response(view.store, 6, call_result("y" * 300_000))
    settle(qtbot, view)
    started = time.perf_counter()
    assert view.select_seq(big.seq)
    QGuiApplication.processEvents()
    elapsed = time.perf_counter() - started
    assert elapsed < 1.0, f"selecting a 20 MB entry took {elapsed:.2f}s"
    pane = view.detail.json_view
    assert pane.truncated and not pane.highlighted
    assert pane.text() == big.raw[:PREVIEW_CHARS].decode()
    assert pane.format_button.isVisibleTo(view)
    assert not pane.all_button.isVisibleTo(view), "a 20 MB line cannot be laid out quickly: not offered"
    assert "19.1 MB" in pane.info.text() and "Copy message copies it all" in pane.info.text()
    started = time.perf_counter()
    view.detail.tabs.setCurrentIndex(TAB_RAW)
    QGuiApplication.processEvents()
    assert time.perf_counter() - started < 1.0 and view.detail.raw_view.truncated
    view.detail.tabs.setCurrentIndex(TAB_JSON)

    medium = view.store[1]
    assert len(medium.raw) > BIG_BYTES
    view.select_seq(medium.seq)
    assert not pane.highlighted and pane.format_button.isVisibleTo(view) and pane.all_button.isVisibleTo(view)
    pane.format_now()
    assert pane.highlighted and pane.text().startswith('{\n  "jsonrpc": "2.0",')
    assert "[200,000 more characters: see Raw or Copy message]" in pane.text(), "a 300 KB string is shortened"
    assert not pane.format_button.isVisibleTo(view)
    qtbot.waitUntil(lambda: pane.edit.document().firstBlock().layout().formats() != [], timeout=5000)
    pane.show_all()
    assert pane.text() == medium.raw.decode() and not pane.truncated

    tools = [tool(f"tool{i}", "d" * 40) for i in range(40_000)]
    listing = response(view.store, 7, {"tools": tools})
    settle(qtbot, view)
    view.select_seq(listing.seq)
    started = time.perf_counter()
    pane.format_now()
    assert time.perf_counter() - started < 3.0
    assert pane.truncated and not pane.highlighted and pane.text().endswith("…")
    assert "cut after" in pane.info.text() and "too large to highlight" in pane.info.text()


@pytest.mark.parametrize(
    "value",
    [
        {"a": [1, 2.5, None, True, False, {}, [], 'x\n"y\u00e9\U0001f600'], "b": {"c": {"d": []}}, "": -0.0},
        [],
        {},
        3,
        "s",
        [[{"k": 1e300}]],
    ],
)
def test_bounded_pretty_printer_matches_json_dumps(value: object) -> None:
    text, cut = pretty_json_bounded(json.dumps(value).encode(), elide=10**9, max_chars=10**9)
    assert text == json.dumps(value, indent=2, ensure_ascii=False) and not cut
    short, _ = pretty_json_bounded(json.dumps({"s": "x" * 50}).encode(), elide=10, max_chars=10**9)
    assert short == '{\n  "s": "xxxxxxxxxx… [40 more characters: see Raw or Copy message]"\n}'


def test_hostile_text_stays_plain(qtbot, view: TrafficView) -> None:
    method = f"{IMG}{LINK}"
    raw = rpc(id=1, method=method, params={"note": IMG})
    entry = view.store.record_message(OUT, "stdio", raw, notes=[LINK])
    settle(qtbot, view)
    model = view.model
    assert model.data(model.index(0, COL_METHOD)) == method
    tooltip = model.data(model.index(0, COL_STATUS), Qt.ItemDataRole.ToolTipRole)
    assert LINK in tooltip and not Qt.mightBeRichText(tooltip), "tooltips must not be taken for rich text"
    view.select_seq(entry.seq)
    assert IMG in view.detail.json_view.text().replace('\\"', '"')
    assert LINK in view.detail.notes.text() and IMG in view.status_label.text()
    view.detail.tabs.setCurrentIndex(TAB_RAW)
    assert view.detail.raw_view.text() == raw.decode()
    labels = view.findChildren(QLabel)
    assert labels and all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)


def test_copy_actions_and_clear(qtbot, view: TrafficView) -> None:
    populate(view.store)
    settle(qtbot, view)
    call = next(e for e in view.store if e.method == "tools/call" and e.kind is Kind.REQUEST)
    view.select_seq(call.seq)
    assert not view.cli_action.isEnabled(), "no target known yet"
    view.set_cli_target(["python", "weather server.py"])
    assert view.cli_action.isEnabled() and not view.curl_action.isEnabled()
    view.cli_action.trigger()
    assert QGuiApplication.clipboard().text() == (
        "mcp-lens --cli --method tools/call --tool-name forecast -- python 'weather server.py'"
    )
    view.activateWindow()
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QGuiApplication.clipboard().text() == call.raw.decode()
    qtbot.keyClick(view.table, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert len(view.store) == 0 and view.model.rowCount() == 0 and view.selected_entry() is None
    assert view.count_label.text() == "0 / 0"


def test_resend_dialog_emits_method_and_params(qtbot, view: TrafficView) -> None:
    populate(view.store)
    settle(qtbot, view)
    call = next(e for e in view.store if e.method == "tools/call" and e.kind is Kind.REQUEST)
    view.select_seq(call.seq)
    dialog = view.resend_selected()
    assert dialog is not None and json.loads(dialog.editor.toPlainText()) == json.loads(call.raw)
    dialog.editor.setPlainText("{not json")
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    ok.click()
    assert dialog.isVisible() and "not valid JSON" in dialog.error.text()
    edited = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "forecast", "arguments": {"a": 1}}}
    dialog.editor.setPlainText(json.dumps(edited))
    with qtbot.waitSignal(view.resendRequested, timeout=2000) as blocker:
        ok.click()
    assert blocker.args == ["tools/call", {"name": "forecast", "arguments": {"a": 1}}]
    response = view.store.by_seq(call.peer_seq)
    view.select_seq(response.seq)
    assert not view.resend_action.isEnabled() and view.resend_selected() is None


def test_follow_pauses_when_scrolled_up(qtbot, view: TrafficView) -> None:
    for n in range(500):
        notification(view.store, "notifications/message", {"data": n})
    settle(qtbot, view)
    bar = view.table.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    assert view.follow and view.follow_button.isChecked()
    bar.setValue(0)  # the user scrolls up
    assert not view.follow and not view.follow_button.isChecked()
    notification(view.store, "notifications/message", {"data": "more"})
    settle(qtbot, view)
    assert bar.value() == 0, "paused: stays where the user is"
    bar.setValue(bar.maximum())
    assert view.follow
    notification(view.store, "notifications/message", {"data": "again"})
    settle(qtbot, view)
    assert bar.value() == bar.maximum()


def test_screenshot(qtbot, view: TrafficView) -> None:
    populate(view.store)
    view.set_cli_target(["python", "weather_server.py"])
    settle(qtbot, view)
    view.select_seq(next(e.seq for e in view.store if e.method == "tools/call"))
    QGuiApplication.processEvents()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert view.grab().save(str(ARTIFACTS / "traffic_view.png"))


def test_screenshot_dark_palette(qtbot, qapp) -> None:
    from ui_support import dark_palette

    saved = qapp.palette()
    dark = dark_palette()
    qapp.setPalette(dark)
    try:
        store = TrafficStore()
        view = TrafficView(store)
        qtbot.addWidget(view)
        view.resize(1200, 800)
        view.show()
        populate(store)
        settle(qtbot, view)
        view.select_seq(next(e.seq for e in store if e.method == "tools/call"))
        QGuiApplication.processEvents()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert view.grab().save(str(ARTIFACTS / "traffic_view_dark.png"))
    finally:
        qapp.setPalette(saved)


def test_typing_in_the_filter_filters_after_a_pause(qtbot, view: TrafficView) -> None:
    populate(view.store)
    settle(qtbot, view)
    expected = [e.seq for e in view.store if TrafficFilter(text="forecast").matches(e)]
    assert 0 < len(expected) < len(view.store)
    qtbot.keyClicks(view.filter_edit, "FORECAST")
    qtbot.waitUntil(lambda: view.model.rowCount() == len(expected), timeout=2000)
    assert [view.model.entry_at(r).seq for r in range(view.model.rowCount())] == expected
    assert view.count_label.text() == f"{len(expected)} / {len(view.store)}"
    view.filter_edit.clear()
    qtbot.waitUntil(lambda: view.model.rowCount() == len(view.store), timeout=2000)
