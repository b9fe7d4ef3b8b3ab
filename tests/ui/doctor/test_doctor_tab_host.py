"""The Doctor tab judges the tools by the host chosen in the Host check (issue 25 point 3): with OpenAI strict
chosen, its verdicts are said in their own line, apart from the score; with none, that check does not apply."""

from __future__ import annotations

import re

from lens_support import DEMO
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QTableWidget

from inspector.config.profile import ServerProfile
from inspector.traffic.store import TrafficStore
from inspector.ui.doctor import DoctorTab
from inspector.ui.session import SessionController

DEMO_PROFILE = ServerProfile(name="demo", transport="stdio", command=DEMO[0], args=DEMO[1:])


def named(parent, kind, name: str):
    return next(w for w in parent.findChildren(kind) if w.accessibleName() == name)


def test_the_host_checks_host_is_judged_in_the_doctor_tab(qtbot, qloop, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "lens.ini"), QSettings.Format.IniFormat)
    settings.setValue("budget/host", "openai-strict")  # as the Host check leaves it
    tab = DoctorTab(SessionController(TrafficStore()), settings, lambda: DEMO_PROFILE)
    qtbot.addWidget(tab)
    tab.resize(1280, 800)
    tab.show()
    named(tab, QPushButton, "Run doctor").click()
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "doctorToolsDialog" and w.isVisible())
    named(dialog, QPushButton, "Start").click()
    score = named(tab, QLabel, "Doctor score")
    qtbot.waitUntil(lambda: score.text().startswith("Score "), timeout=60_000)
    report = tab.report
    assert report is not None and [h.host.name for h in report.hosts] == ["openai-strict"]
    outcome = next(o for o in report.coverage if o.check == "host-acceptance")
    assert outcome.status == "ran"
    # the host's verdicts are not findings: the score is the server's (84, as with no host), the host line says them
    assert [f for f in report.findings if f.check == "host-acceptance"] == []
    assert score.text().startswith("Score 84/100 · "), score.text()
    hosts = named(tab, QLabel, "Doctor host verdicts")
    assert hosts.isVisible() and hosts.text().startswith("Host OpenAI strict, apart from the score: "), hosts.text()
    assert re.search(r"refuses [1-9]\d* of \d+ tools \(.*\becho\b", hosts.toolTip()), hosts.toolTip()
    # the Checks page says what the check does in the app's words: the host is chosen in the Host check
    table = named(tab, QTableWidget, "Doctor checks")
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "host-acceptance")
    what = table.item(row, 3).text()
    assert "Host check" in what and "--host" not in what, what
