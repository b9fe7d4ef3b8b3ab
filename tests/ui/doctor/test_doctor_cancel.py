"""The Doctor tab's Cancel: a doctor stuck on a hanging server stops at once, its connection closed,
and the tab is ready to run again (the last report, if any, kept)."""

from __future__ import annotations

import sys

from lens_support import REPO
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QPushButton

from inspector.config.profile import ServerProfile
from inspector.traffic.store import TrafficStore
from inspector.ui.doctor import DoctorTab
from inspector.ui.session import SessionController

HANGS = ServerProfile(
    name="hangs",
    transport="stdio",
    command=sys.executable,
    args=[str(REPO / "tests/servers/doctor_faults.py"), "hang-unknown-tool"],
)


def button(parent, name: str) -> QPushButton:
    return next(b for b in parent.findChildren(QPushButton) if b.accessibleName() == name)


def calls_made(tab: DoctorTab) -> bool:
    stores = tab.connections.stores.values() if tab.connections else []
    return any(e.direction == "out" and e.method == "tools/call" for store in stores for e in store)


def test_cancel_stops_a_doctor_stuck_on_a_hanging_server(qtbot, qloop, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "lens.ini"), QSettings.Format.IniFormat)
    tab = DoctorTab(SessionController(TrafficStore()), settings, lambda: HANGS)
    qtbot.addWidget(tab)
    tab.show()
    button(tab, "Run doctor").click()
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "doctorToolsDialog" and w.isVisible())
    button(dialog, "Start").click()
    cancel = button(tab, "Cancel doctor")
    qtbot.waitUntil(lambda: cancel.isVisible() and tab.progress.isVisible(), timeout=3000)
    qtbot.waitUntil(lambda: calls_made(tab), timeout=5000)  # into the probes: the unknown tool's call hangs 5 s
    cancel.click()
    qtbot.waitUntil(lambda: tab.score.text() == "The doctor was cancelled.", timeout=2000)
    assert button(tab, "Run doctor").isEnabled() and not cancel.isVisible() and not tab.progress.isVisible()
    assert not button(tab, "Export JUnit…").isEnabled()  # no report yet
