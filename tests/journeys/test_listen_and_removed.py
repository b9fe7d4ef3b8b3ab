"""subscriptions/listen and what 2026-07-28 removes or deprecates, as a user meets them (issue 13 points 4, 6):
one Subscribe button for both eras, the listen stream's own line in the traffic log, the log level per
request, Ping offered only in the legacy era."""

from __future__ import annotations

import re
import sys

from journey_support import strip_mnemonic
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLabel
from test_traffic import call, choose, log, shown_rows

COUNTER = "demo://live/counter"
LEGACY_DEMO = ("--protocol-era", "legacy", sys.executable, "-m", "inspector.demo")


def subscribe_to_the_counter(lens) -> None:
    lens.tab("Resources")
    lens.click_item("Resource list", COUNTER)
    lens.click("Subscribe", QAbstractButton)
    lens.find("Subscribed ✓", QAbstractButton)
    lens.wait(lambda: re.search(r"[2-9]\d* updates, last at", lens.texts()), 30_000, "two updates")


def server_menu_action(lens, name: str) -> QAction:
    server = next(a.menu() for a in lens.window.menuBar().actions() if strip_mnemonic(a.text()) == "Server")
    return next(a for a in server.actions() if strip_mnemonic(a.text()) == name)


def logs(lens) -> list[str]:
    return [e.parsed()["params"]["level"] for e in lens.wire() if e.method == "notifications/message"]


def test_modern_subscribe_joins_the_listen_stream_and_its_line_says_listening(lens) -> None:
    lens.start()  # the demo, era auto: 2026-07-28
    lens.wait(lambda: lens.sent("subscriptions/listen"), what="the listen stream opened after connect")
    first = lens.sent("subscriptions/listen")[0]["params"]["notifications"]
    assert first == {"toolsListChanged": True, "promptsListChanged": True, "resourcesListChanged": True}

    subscribe_to_the_counter(lens)
    last = lens.sent("subscriptions/listen")[-1]["params"]["notifications"]
    assert last["resourceSubscriptions"] == [COUNTER]
    assert not lens.sent("resources/subscribe")
    assert "listen" in lens.find("Subscribed ✓", QAbstractButton).toolTip()

    rows = shown_rows(log(lens))
    listen_rows = [r for r in rows if r["Method"] == "subscriptions/listen" and r[""] == "→"]
    assert listen_rows[-1]["Status"] == "listening" and listen_rows[-1]["Kind"] == "request"
    assert listen_rows[0]["Status"] == "replaced"  # "listen stream replaced by a stream with a new filter"
    assert listen_rows[0]["Kind"] == "teardown"  # MCP Lens ended it itself: its own kind, not an error
    listen_line = [e for e in lens.wire() if e.method == "subscriptions/listen" and e.kind.value == "request"][-1]
    updates = [e for e in lens.wire() if e.method == "notifications/resources/updated"]
    assert updates and updates[-1].peer_seq == listen_line.seq  # the stream's events pair with its line

    lens.click("Subscribed ✓", QAbstractButton)  # unsubscribe: a new stream without the counter
    lens.find("Subscribe", QAbstractButton)
    lens.wait(lambda: "resourceSubscriptions" not in lens.sent("subscriptions/listen")[-1]["params"]["notifications"])


def test_legacy_subscribe_uses_resources_subscribe(lens) -> None:
    lens.start(*LEGACY_DEMO)
    subscribe_to_the_counter(lens)
    assert [m["params"] for m in lens.sent("resources/subscribe")] == [{"uri": COUNTER}]
    assert not lens.sent("subscriptions/listen")
    assert "resources/subscribe" in lens.find("Subscribed ✓", QAbstractButton).toolTip()


def test_ping_is_removed_in_the_modern_era_and_says_why(lens) -> None:
    lens.start()
    ping = server_menu_action(lens, "Ping")
    assert not ping.isEnabled()
    assert ping.toolTip().startswith("ping is removed in 2026-07-28")
    assert ping.statusTip() == ping.toolTip()
    lens.key("Ctrl+Shift+P")
    lens.qtbot.wait(300)
    assert not lens.sent("ping")


def test_ping_is_offered_in_the_legacy_era(lens) -> None:
    lens.start(*LEGACY_DEMO)
    assert server_menu_action(lens, "Ping").isEnabled()
    lens.key("Ctrl+Shift+P")
    lens.wait_status(lambda text: re.search(r"Ping: \d+(\.\d+)? ms round trip", text) is not None)
    assert len(lens.sent("ping")) == 1


def test_modern_log_level_is_per_request_and_logging_marked_deprecated(lens) -> None:
    lens.start()
    lens.menu("View", "Notifications")
    lens.find("logging: deprecated in 2026-07-28", QLabel)
    assert lens.find("Log level", QComboBox).currentText() == "no logs"  # nothing asked for: a modern server sends none
    choose(lens, "Log level", "warning")
    assert not lens.sent("logging/setLevel")
    lens.tab("Tools")
    call(lens, "emit_logs")
    lens.wait(lambda: lens.sent("tools/call"), what="the call")
    assert lens.sent("tools/call")[-1]["params"]["_meta"]["io.modelcontextprotocol/logLevel"] == "warning"
    lens.wait(lambda: len(logs(lens)) == 2, what="two log messages")
    assert logs(lens) == ["warning", "error"]
    assert not lens.sent("logging/setLevel")


def test_legacy_log_level_sends_set_level(lens) -> None:
    lens.start(*LEGACY_DEMO)
    lens.menu("View", "Notifications")
    assert lens.find("Log level", QComboBox).currentText() == "server default"
    assert not lens.shows("logging: deprecated in 2026-07-28")
    choose(lens, "Log level", "error")
    lens.wait(lambda: lens.sent("logging/setLevel"), what="logging/setLevel")
    assert lens.sent("logging/setLevel")[0]["params"] == {"level": "error"}


def test_modern_subscribe_over_streamable_http(lens, demo_http) -> None:
    lens.start(demo_http)  # era auto: the demo answers server/discover, so 2026-07-28 and stateless HTTP
    lens.wait(lambda: lens.sent("subscriptions/listen"), what="the listen stream opened after connect")
    subscribe_to_the_counter(lens)
    assert lens.sent("subscriptions/listen")[-1]["params"]["notifications"]["resourceSubscriptions"] == [COUNTER]
    assert not lens.sent("resources/subscribe")
    listen_line = [e for e in lens.wire() if e.method == "subscriptions/listen" and e.kind.value == "request"][-1]
    assert listen_line.status == "listening" and listen_line.transport == "http"


def test_legacy_subscribe_over_streamable_http(lens, demo_http) -> None:
    lens.start("--protocol-era", "legacy", demo_http)
    subscribe_to_the_counter(lens)
    assert [m["params"] for m in lens.sent("resources/subscribe")] == [{"uri": COUNTER}]
    assert not lens.sent("subscriptions/listen")
