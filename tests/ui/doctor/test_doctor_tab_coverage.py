"""The Doctor tab says its coverage (issue 25, point 1): the score line says how many of the table's
checks ran, and the line under it which did not and why, on the demo run through the tab's own buttons; its
Checks page lists them all; while it runs, the progress bar stands at each check's place in the table."""

from __future__ import annotations

from lens_support import DEMO
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLabel, QProgressBar, QPushButton, QTableWidget

from inspector.config.profile import ServerProfile
from inspector.doctor.table import CHECKS
from inspector.traffic.store import TrafficStore
from inspector.ui.doctor import DoctorTab
from inspector.ui.session import SessionController

DEMO_PROFILE = ServerProfile(name="demo", transport="stdio", command=DEMO[0], args=DEMO[1:])


def named(parent, kind, name: str):
    return next(w for w in parent.findChildren(kind) if w.accessibleName() == name)


def test_the_tab_says_how_many_checks_ran_and_why_the_others_did_not(qtbot, qloop, tmp_path) -> None:
    settings = QSettings(str(tmp_path / "lens.ini"), QSettings.Format.IniFormat)
    tab = DoctorTab(SessionController(TrafficStore()), settings, lambda: DEMO_PROFILE)
    qtbot.addWidget(tab)
    tab.resize(1280, 800)
    tab.show()
    progress = named(tab, QProgressBar, "Doctor progress")
    places: list[int] = []
    progress.valueChanged.connect(places.append)  # each check's place in the table as it starts
    named(tab, QPushButton, "Run doctor").click()
    dialog = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "doctorToolsDialog" and w.isVisible())
    named(dialog, QPushButton, "Start").click()
    score = named(tab, QLabel, "Doctor score")
    qtbot.waitUntil(lambda: score.text().startswith("Score "), timeout=60_000)
    report = tab.report
    assert report is not None
    ids = [check.id for check in CHECKS]
    assert progress.maximum() == len(CHECKS) and places[0] == ids.index("connects") + 1, places
    assert ids.index("unknown-tool") + 1 in places and ids.index("stdout") + 1 in places, places
    ran = sum(o.status == "ran" for o in report.coverage)
    assert score.text().startswith(f"Score 84/100 · {ran} of {len(CHECKS)} checks ran — "), score.text()
    # the line under it: how many did not run and which, short enough to read whole; why, one click away
    line = named(tab, QLabel, "Doctor coverage")
    not_run = [o.check for o in report.coverage if o.status != "ran"]
    assert line.text() == f"Not run: {len(not_run)} of {len(CHECKS)} checks: {', '.join(not_run)}.", line.text()
    assert (
        "ping" in not_run and "host-acceptance" in not_run and "connects-legacy" not in not_run
    )  # it answers initialize
    assert line.isVisible() and not line.elided(), line.text()
    assert "How the score is computed: 100 - 10 per error" in score.toolTip()
    why = named(tab, QPushButton, "Why not…")
    qtbot.mouseClick(why, Qt.MouseButton.LeftButton)

    # the Checks page lists every check of the table in its order, each that did not run with the reason
    table = named(tab, QTableWidget, "Doctor checks")
    qtbot.waitUntil(table.isVisible, timeout=5_000)
    assert tab.pages.tabText(tab.pages.currentIndex()) == "Checks"
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    column = {name: header.index(name) for name in ("Status", "Found", "Why not / what it checks")}
    rows = {
        table.item(r, 0).text(): [table.item(r, c).text() for c in column.values()] for r in range(table.rowCount())
    }
    assert list(rows) == [check.id for check in CHECKS]
    assert rows["ping"] == ["not applicable", "", "2026-07-28 removed ping"]
    assert rows["tools-list"] == ["ran", "1 error", "tools/list: each tool as the spec says"]
    assert rows["structured-content"][0] == "ran" and rows["structured-content"][1].endswith(" notes")  # timings
    # no host chosen: said in the app's words (where a user chooses one), not the command line's
    assert rows["host-acceptance"] == [
        "not applicable",
        "",
        "no host chosen: pick one in the Tools tab's Host check or the Budget's Host picker",
    ]
    shown = [w.text() for w in tab.findChildren(QLabel)] + [
        table.item(r, c).text() + table.item(r, c).toolTip()
        for r in range(table.rowCount())
        for c in range(table.columnCount())
    ]
    assert not any("mcp-lens doctor --host" in text for text in shown)
