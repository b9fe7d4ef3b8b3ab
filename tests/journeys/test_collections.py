"""Saved calls with assertions (issue 15, points 1 and 3), driven in the app as launched: calls saved
from History into a new collection, run in the Collections tab, run headless, an assertion edited."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree

from lens_support import run_lens
from PySide6.QtWidgets import QAbstractItemView, QLabel
from test_traffic import call, choose_file, click_row

DEMO = "Demo server"


def save_shown_call(lens, path: Path | None) -> None:
    """The result's Save to collection…: the file chosen in the file dialog (else the one remembered)."""
    lens.click("Save the shown call to a collection")
    lens.find("Save to collection")
    if path is not None:
        lens.click("Choose a collection file")
        choose_file(lens, path)
    lens.click("Save the step")
    lens.wait(lambda: not lens.has("Save the step") or "needs these references" in lens.texts(), what="saved")
    if lens.has("Save the step"):  # it names the ${NAME} references the step needs, then Done closes it
        lens.click("Save the step")
    lens.wait(lambda: not lens.has("Save the step"), what="the dialog closed")


def outcome(lens) -> str:
    return lens.find("Step outcome", QLabel).text()


def test_save_calls_run_them_in_the_app_and_headless_then_fail_an_edited_assertion(lens, tmp_path: Path) -> None:
    path = tmp_path / "smoke.json"
    lens.start()
    call(lens, "Echo (echo)", message="hello-15")
    lens.wait(lambda: any(b"hello-15" in e.raw and e.direction == "in" for e in lens.wire()))
    save_shown_call(lens, path)
    call(lens, "get_weather", city="Lisbon")
    lens.wait(lambda: any(b"Lisbon" in e.raw and e.direction == "in" for e in lens.wire()))
    save_shown_call(lens, None)
    log = lens.find("Traffic log", QAbstractItemView)
    lens.wait(lambda: log.model().rowCount() == len(lens.wire()), what="every entry listed")
    sent = next(e.seq for e in lens.wire() if e.direction == "out" and b"get_weather" in e.raw)
    click_row(lens, log, next(r for r in range(log.model().rowCount()) if log.model().index(r, 0).data() == str(sent)))
    lens.click("Save to collection…")
    lens.click("Save the step")
    lens.wait(lambda: not lens.has("Save the step") or "needs these references" in lens.texts(), what="saved")
    if lens.has("Save the step"):  # it says which secrets became ${NAME} references, then Done closes it
        lens.click("Save the step")
    lens.wait(lambda: not lens.has("Save the step"), what="the dialog closed")
    saved = json.loads(path.read_text())
    assert [(s["server"], s["method"], s["params"]) for s in saved["steps"]] == [
        (DEMO, "tools/call", {"name": "echo", "arguments": {"message": "hello-15"}}),
        (DEMO, "tools/call", {"name": "get_weather", "arguments": {"city": "Lisbon"}}),
        (DEMO, "tools/call", {"name": "get_weather", "arguments": {"city": "Lisbon"}}),
    ]
    assert saved["steps"][1]["expect"] == [{"kind": "success"}, {"kind": "output_schema"}]

    lens.tab("Collections")
    lens.click_item("Collection steps", "get_weather")
    calls_before = len(lens.sent("tools/call"))
    lens.click("Run all steps")
    lens.wait_text("3 of 3 passed")
    assert len(lens.sent("tools/call")) == calls_before + 3  # on the open session: in its traffic log too
    assert "passed" in outcome(lens)
    assert "Lisbon" in lens.find("Step request and response").toPlainText()

    junit = run_lens("run", str(path), "--format", "junit", "--", sys.executable, "-m", "inspector.demo")
    assert junit.returncode == 0, junit.stderr
    suite = ElementTree.fromstring(junit.stdout).iter("testsuite").__next__()
    assert (suite.get("tests"), suite.get("failures")) == ("3", "0")

    lens.click_item("Collection steps", "echo")
    expect = [{"kind": "equals", "path": "$.result.content[0].text", "value": "goodbye"}]
    lens.type("Step assertions", json.dumps(expect))
    lens.click("Save the step's assertions")
    lens.wait_text("Saved.")
    lens.click("Run the selected step")
    lens.wait_text("0 of 1 passed")
    assert "failed" in outcome(lens) and "goodbye" in outcome(lens)
    assert json.loads(path.read_text())["steps"][0]["expect"] == expect
