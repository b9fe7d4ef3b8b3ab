"""The Doctor tab (issue 15, points 4–5), driven in the app as launched: the demo's bill, a JUnit export,
and a broken second server's planted fault named in its own tab while the demo's report is kept."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

from lens_support import REPO
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QListWidget, QPlainTextEdit, QTableView
from test_accessibility import unnamed
from test_traffic import choose_file
from test_workspace import save_servers, tool_names

from inspector.ui.traffic.viewer_window import ViewerWindow

FAULTS = str(REPO / "tests/servers/doctor_faults.py")


def tool_choices(lens) -> dict[str, bool]:
    """The dialog's tools: the tool name (the text before " — ") → ticked."""
    view = lens.find("Tools the doctor may call", QListWidget)
    return {
        view.item(i).text().split(" — ")[0]: view.item(i).checkState() == Qt.CheckState.Checked
        for i in range(view.count())
    }


def test_doctor_on_the_demo_then_on_a_broken_second_server(lens, tmp_path: Path) -> None:
    save_servers(lens, {"broken": {"command": sys.executable, "args": [FAULTS, "invalid-schema"]}})
    lens.start()
    lens.wait(lambda: "Echo (echo)" in " ".join(tool_names(lens)), what="the demo's tools")
    lens.tab("Doctor")
    lens.click("Run doctor")
    # the dialog lists the live session's tools: readOnlyHint ones ticked, the others not, and says why
    choices = tool_choices(lens)
    assert choices["echo"] and choices["get_weather"]
    assert not choices["delete_note"] and not choices["schedule_meeting"]
    lens.find("The doctor never calls a tool you did not tick.", QLabel)
    lens.click_item("Tools the doctor may call", "book_table")
    lens.key("Space", lens.find("Tools the doctor may call"))  # untick a read-only tool: the doctor must not call it
    assert not tool_choices(lens)["book_table"]
    missing = unnamed(lens)
    lens.click("Start")
    lens.wait_text("Score 84/100")
    # the score says its coverage, and the line under it which checks did not run and why
    score = lens.find("Doctor score", QLabel).text()
    ran = re.search(r"^Score 84/100 · (\d+) of (\d+) checks ran — ", score)
    assert ran and int(ran.group(1)) < int(ran.group(2)), score
    coverage = lens.find("Doctor coverage", QLabel)
    assert coverage.isVisible() and re.search(r"^Not run: \d+ of \d+ checks: .*\bping\b", coverage.text())
    lens.click("Why not…")  # the Checks page: every check of the table, whether it ran, and why not
    lens.click_item("Doctor checks", "ping")
    assert lens.shows("2026-07-28 removed ping") and lens.shows("structuredContent fits the outputSchema")
    lens.tab("Findings")
    assert lens.shows("tool 'list_roots' answered in") and not lens.shows("tool 'book_table' answered in")
    rule = "100 - 10 per error - 3 per warning (floor 0); info findings cost nothing"
    assert rule in lens.find("Doctor score", QLabel).toolTip()
    assert not lens.sent("tools/call")  # the doctor uses its own connections: the live session is not disturbed
    lens.click_item("Doctor findings", "route_request_bad_headers")
    detail = lens.find("Finding detail", QPlainTextEdit).toPlainText()
    assert (
        "x-mcp-header" in detail
        and re.search(r"\$\.tools\[\d+\] \(route_request_bad_headers\)\.inputSchema", detail)
        and "Server features › Tools" in detail
    )
    missing |= unnamed(lens)
    assert not missing, missing

    lens.click("Export JUnit…")
    exported = tmp_path / "doctor.xml"
    choose_file(lens, exported)
    lens.wait(exported.exists, what="the JUnit file")
    suite = ET.parse(exported).getroot().find("testsuite")
    assert suite is not None and int(suite.get("failures", "0")) == 3

    # the broken server, not even connected: its own tab, its own report; the demo's is kept
    lens.click_item("Servers", "broken")
    lens.click("Run doctor")
    assert lens.shows("The server's tool list is not known here (not connected).")  # and says what it will call
    lens.click("Start")
    lens.wait_text("invalid JSON Schema: 'integr'")
    assert not lens.shows("Score 84/100")
    lens.click_item("Servers", "Demo server")
    lens.wait_text("Score 84/100")
    assert lens.quit() == 0


def test_doctor_on_server_everything_over_http_finds_no_dns_rebinding_protection(lens, everything_http: str) -> None:
    """Issue 25 point 2: what the official suite's server mode fails on server-everything over HTTP (no
    Host/Origin check, an ended session answered 400), the Doctor tab says too, with its coverage."""
    lens.start(everything_http)
    lens.wait_connected()
    lens.tab("Doctor")
    lens.click("Run doctor")
    lens.click("Start")
    lens.wait_text("a web page can reach this server by DNS rebinding", timeout=60_000)
    assert lens.shows("Host: evil.example.com and Origin: http://evil.example.com was served (HTTP 200)")
    assert lens.shows("a request on the session DELETE ended was answered HTTP 400")
    score = lens.find("Doctor score", QLabel).text()
    assert re.search(r"^Score \d+/100 · \d+ of \d+ checks ran — ", score), score
    coverage = lens.find("Doctor coverage", QLabel)
    assert coverage.isVisible() and "mcp-headers" in coverage.text(), coverage.text()
    lens.click("Why not…")
    lens.click_item("Doctor checks", "mcp-headers")
    assert lens.shows("a 2026-07-28 rule"), "the Checks page says why mcp-headers did not run"
    lens.tab("Findings")
    lens.click_item("Doctor findings", "DNS rebinding")
    detail = lens.find("Finding detail", QPlainTextEdit).toPlainText()
    assert "Streamable HTTP › Security warning" in detail and "HTTP 4xx" in detail

    # Probe traffic…: every exchange the doctor sent, its probes marked, read-only, apart from the live log
    lens.click("Probe traffic…")
    lens.wait(lambda: any(isinstance(w, ViewerWindow) for w in lens.widgets()), what="the doctor's traffic window")
    viewer = next(w for w in lens.widgets() if isinstance(w, ViewerWindow))
    assert viewer.windowTitle().startswith("The doctor's own traffic: ") and "(read-only)" in viewer.windowTitle()
    model = lens.find("Traffic log", QTableView, top=viewer).model()
    cells = [str(model.index(r, c).data()) for r in range(model.rowCount()) for c in range(model.columnCount())]
    assert "doctor probe" in cells and "initialize" in cells, sorted(set(cells))[:40]
    names = {w.accessibleName() for w in lens.widgets(top=viewer)}
    assert "Re-send…" not in names and "Clear" not in names
    logs = [t for t in lens.widgets(QTableView) if t.accessibleName() == "Traffic log" and t.window() is lens.window]
    live = logs[0].model()  # the main window's log (the doctor's window is a child of the Doctor tab)
    live_cells = {str(live.index(r, c).data()) for r in range(live.rowCount()) for c in range(live.columnCount())}
    assert "doctor probe" not in live_cells
    assert lens.quit() == 0
