"""A server that stops answering (tests/servers/doctor_faults.py ``hang-resources-list``: a stdio legacy
server that reads nothing more once asked resources/list): the doctor blames the request that hung, not
a later probe; every finding belongs to a check of the table; checks that do not apply to the server
(HTTP-only, 2026-07-28-only) say "not applicable", as on a healthy stdio server, not "not reached"."""

from __future__ import annotations

import json
import sys
from xml.etree import ElementTree as ET

import pytest
from lens_support import REPO

from inspector.cli.doctor import main as doctor
from inspector.doctor.table import CHECKS

HANGS = [sys.executable, str(REPO / "tests/servers/doctor_faults.py"), "hang-resources-list"]
NOT_FOR_STDIO_LEGACY = ("dns-rebinding", "session-lifecycle", "mcp-headers", "stateless", "input-required", "caching")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, ET.Element]:
    """The JSON report and the JUnit file of one run each (8 s per unanswered request: the hang is certain,
    the answers before it need not be quick)."""
    folder = tmp_path_factory.mktemp("hang")
    doctor(["--format", "json", "--timeout", "8", "--no-budget", "--output", str(folder / "r.json"), *HANGS])
    doctor(["--format", "junit", "--timeout", "8", "--no-budget", "--output", str(folder / "r.xml"), *HANGS])
    return json.loads((folder / "r.json").read_text(encoding="utf-8")), ET.parse(folder / "r.xml").getroot()


def test_every_finding_belongs_to_a_check_of_the_table(runs: tuple[dict, ET.Element]) -> None:
    report, _ = runs
    ids = {i for check in CHECKS for i in check.ids}
    assert {f["check"] for f in report["findings"]} <= ids, [(f["check"], f["message"]) for f in report["findings"]]


def test_the_request_that_hung_is_blamed(runs: tuple[dict, ET.Element]) -> None:
    report, _ = runs
    said = [f["message"] for f in report["findings"] if f["severity"] == "error"]
    assert any("stopped answering after resources/list hung" in m for m in said), said
    assert not any("unknown tool" in m for m in said), said
    checks = {c["check"]: c for c in report["coverage"]["checks"]}
    assert checks["unknown-tool"]["status"] == "skipped", checks["unknown-tool"]


def test_checks_that_do_not_apply_say_so_after_a_hang(runs: tuple[dict, ET.Element]) -> None:
    report, junit = runs
    checks = {c["check"]: c for c in report["coverage"]["checks"]}
    for check in NOT_FOR_STDIO_LEGACY:
        assert checks[check]["status"] == "not applicable", checks[check]
    cases = {case.get("name"): case for case in junit.iter("testcase")}
    for check in NOT_FOR_STDIO_LEGACY:
        skipped = cases[check].find("skipped")
        assert skipped is not None and "not reached" not in (skipped.get("message") or ""), ET.tostring(cases[check])
