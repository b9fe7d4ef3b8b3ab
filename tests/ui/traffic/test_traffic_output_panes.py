"""The dock's Server output and Notifications panes: lines labelled by source, following the newest entry."""

from __future__ import annotations

from factories import notification

from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.ui.traffic.output_panes import NotificationsPane, ServerOutputPane


def test_server_output_labels_the_servers_lines_and_ours(qtbot) -> None:
    store = TrafficStore()
    pane = ServerOutputPane(store)
    qtbot.addWidget(pane)
    store.record(Direction.META, "stdio", Kind.LIFECYCLE, b"started pid 1: server")
    store.record(Direction.IN, "stdio", Kind.STDERR, b"<b>warning</b> from the server\r\n")
    store.record_failure("stdio", "process exited with code 3", "exit code 3")
    qtbot.waitUntil(lambda: "exited" in pane.text.toPlainText(), timeout=2000)
    sources = [line.split()[1:3] for line in pane.text.toPlainText().splitlines()]
    assert sources == [["lens", "started"], ["stderr", "<b>warning</b>"], ["lens", "process"]]


def notify(store: TrafficStore, n: int) -> None:
    params = {"level": "info", "data": f"message {n}"}
    notification(store, "notifications/message", params)


def at_end(pane: NotificationsPane) -> bool:
    bar = pane.table.verticalScrollBar()
    return bar.maximum() > 0 and bar.value() == bar.maximum()


def test_notifications_follow_the_newest_until_scrolled_up(qtbot) -> None:
    store = TrafficStore()
    pane = NotificationsPane(store)
    qtbot.addWidget(pane)
    pane.resize(600, 300)
    pane.show()
    qtbot.waitExposed(pane)
    for n in range(40):
        notify(store, n)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 40 and at_end(pane), timeout=2000)
    pane.resize(600, 200)  # a smaller pane moves the end: it stays there
    qtbot.waitUntil(lambda: at_end(pane), timeout=2000)
    pane.table.verticalScrollBar().setValue(0)  # the user scrolls up: it stays
    notify(store, 40)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 41, timeout=2000)
    qtbot.wait(50)
    assert pane.table.verticalScrollBar().value() == 0 and not pane.follower.following
    pane.table.scrollToBottom()  # back at the end: following again
    notify(store, 41)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 42 and at_end(pane), timeout=2000)
