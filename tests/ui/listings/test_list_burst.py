"""A burst of notifications/resources/list_changed while the Resources tab is shown costs one listing in
flight and at most one after it, not one listing per notification."""

from __future__ import annotations

import sys
from pathlib import Path

from ui_support import connect

from inspector.config.profile import ServerProfile
from inspector.traffic.entry import Direction, Kind
from inspector.ui.main_window import MainWindow

BURST = Path(__file__).resolve().parents[2] / "servers" / "list_burst.py"


def listed(window: MainWindow) -> int:
    return sum(
        1
        for e in window.store
        if e.direction is Direction.OUT and e.kind is Kind.REQUEST and e.method == "resources/list"
    )


def test_a_burst_of_list_changed_is_one_more_listing(qtbot, window: MainWindow) -> None:
    profile = ServerProfile(name="burst", command=sys.executable, args=[str(BURST)], protocol_era="legacy")
    connect(qtbot, window, profile)
    tab = window.resources_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.listings >= 1, timeout=20000)
    before = listed(window)
    bench = window.workbench
    qtbot.waitUntil(lambda: bench.tools.select("burst"), timeout=20000)
    assert not bench.form.set_arguments({"count": 6})
    record = bench.call_current()
    assert record is not None
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    qtbot.waitUntil(lambda: listed(window) > before and tab.refresh_button.isEnabled(), timeout=20000)
    qtbot.wait(500)  # a listing queued behind the one in flight starts as that one ends
    qtbot.waitUntil(lambda: tab.refresh_button.isEnabled(), timeout=20000)
    assert len([e for e in window.store if e.method == "notifications/resources/list_changed"]) == 6
    assert listed(window) - before <= 2  # one in flight, at most one queued
    assert tab.resources.items and tab.list_status.text().startswith("listed at")
