"""Saved calls with assertions (issue 15, points 1 and 3), driven in the app as launched: calls saved
from History into a new collection, run in the Collections tab, run headless, an assertion edited."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree

from lens_support import run_lens
from PySide6.QtWidgets import QLabel
from test_traffic import call, choose_file

DEMO = "Demo server"


def save_shown_call(lens, path: Path | None) -> None:
    """The result's Save to collection…: the file chosen in the file dialog (else the one remembered)."""
    lens.click("Save the shown call to a collection")
    lens.find("Save to collection")
    if path is not None:
        lens.click("Choose a collection file")
        choose_file(lens, path)
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
    saved = json.loads(path.read_text())
    assert [(s["server"], s["method"], s["params"]["name"]) for s in saved["steps"]] == [
        (DEMO, "tools/call", "echo"),
        (DEMO, "tools/call", "get_weather"),
    ]
    assert saved["steps"][1]["expect"] == [{"kind": "success"}, {"kind": "output_schema"}]

    lens.tab("Collections")
    lens.click_item("Collection steps", "get_weather")
    calls_before = len(lens.sent("tools/call"))
    lens.click("Run all steps")
    lens.wait_text("2 of 2 passed")
    assert len(lens.sent("tools/call")) == calls_before + 2  # on the open session: in its traffic log too
    assert "passed" in outcome(lens)
    assert "Lisbon" in lens.find("Step request and response").toPlainText()

    junit = run_lens("run", str(path), "--format", "junit", "--", sys.executable, "-m", "inspector.demo")
    assert junit.returncode == 0, junit.stderr
    suite = ElementTree.fromstring(junit.stdout).iter("testsuite").__next__()
    assert (suite.get("tests"), suite.get("failures")) == ("2", "0")

    lens.click_item("Collection steps", "echo")
    expect = [{"kind": "equals", "path": "$.result.content[0].text", "value": "goodbye"}]
    lens.type("Step assertions", json.dumps(expect))
    lens.click("Save the step's assertions")
    lens.wait_text("Saved.")
    lens.click("Run the selected step")
    lens.wait_text("0 of 1 passed")
    assert "failed" in outcome(lens) and "goodbye" in outcome(lens)
    assert json.loads(path.read_text())["steps"][0]["expect"] == expect
