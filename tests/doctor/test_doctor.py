"""`mcp-lens doctor` against real servers: the demo (every finding explained) and our broken servers,
each planted fault found and named; once as a real process with JUnit output and --fail-on."""

from __future__ import annotations

import json
import sys
from xml.etree import ElementTree as ET

import pytest
from lens_support import REPO, run_lens

from inspector.cli import exit_codes
from inspector.cli.doctor import main as doctor

FAULTS = [sys.executable, str(REPO / "tests/servers/doctor_faults.py")]

# The demo's findings, each explained: it keeps a tool with bad header parameters to show the flag;
# its SDK answers an unknown tool with isError (the spec asks for -32602); show_resources takes a
# non-boolean include_binary without complaint; order_coffee asks for input the doctor cannot give.
DEMO_EXPLAINED = {
    ("error", "tools-list", "route_request_bad_headers"),
    ("warning", "unknown-tool", "isError: true"),
    ("warning", "invalid-arguments", "show_resources"),
}


def _doctor_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = doctor(["--format", "json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_the_demo_gets_a_bill_where_every_finding_is_explained(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _doctor_json(capsys, "--demo", "--fail-on", "error")
    assert report["era"] == "modern" and report["server"]["name"] == "mcp-lens-demo"
    assert {"connects", "handshake", "tools-list", "tool-form", "budget", "unknown-tool", "stdout"} <= set(
        report["checks"]
    )
    unexplained = [
        f
        for f in report["findings"]
        if f["severity"] != "info"
        and not any(
            (f["severity"], f["check"]) == (sev, check) and text in f["message"] for sev, check, text in DEMO_EXPLAINED
        )
    ]
    assert unexplained == []
    assert all(f["section"] and f["expected"] and f["path"] for f in report["findings"])
    assert report["score"] == 100 - 10 - 3 - 3 and code == exit_codes.DOCTOR_FINDINGS


@pytest.mark.parametrize(
    ("fault", "severity", "check", "text"),
    [
        ("stdout-noise", "error", "stdout", "'debug: server starting on stdout'"),
        ("invalid-schema", "error", "tools-list", "invalid JSON Schema: 'integr'"),
        ("unbuildable-schema", "warning", "tool-form", "the form cannot express dependentSchemas"),
        ("endless-pages", "error", "pagination", "pagination never ends (still a nextCursor after 50 pages)"),
        ("crash-unknown-tool", "error", "unknown-tool", "crashed the server"),
        ("hang-unknown-tool", "error", "unknown-tool", "hangs: no answer within 0.5 s"),
    ],
)
def test_each_planted_fault_is_found_and_named(
    capsys: pytest.CaptureFixture[str], fault: str, severity: str, check: str, text: str
) -> None:
    code, report = _doctor_json(capsys, "--timeout", "0.5", "--no-budget", "--fail-on", "warning", *FAULTS, fault)
    named = [f for f in report["findings"] if (f["severity"], f["check"]) == (severity, check) and text in f["message"]]
    assert named, report["findings"]
    assert code == exit_codes.DOCTOR_FINDINGS
    errors = {f["check"] for f in report["findings"] if f["severity"] == "error"}
    # the healthy part of the server raises nothing else (a hang also leaves the server unresponsive)
    assert errors <= {check, "unresponsive"}, report["findings"]


def test_a_failed_list_says_its_method_once(capsys: pytest.CaptureFixture[str]) -> None:
    _code, report = _doctor_json(capsys, "--timeout", "5", "--no-budget", *FAULTS, "no-templates")
    failed = [f["message"] for f in report["findings"] if f["check"] == "resources-list"]
    assert failed and failed[0].startswith("resources/templates/list failed: "), report["findings"]
    assert failed[0].count("resources/templates/list failed") == 1, failed[0]


def test_a_healthy_server_passes_fail_on_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _doctor_json(capsys, "--no-budget", "--fail-on", "error", *FAULTS, "healthy")
    assert code == exit_codes.OK and report["counts"]["error"] == 0 and report["era"] == "legacy"
    assert any(f["check"] == "ping" and "median" in f["message"] for f in report["findings"])


def test_the_real_process_writes_junit_and_exits_14() -> None:
    done = run_lens("doctor", "--format", "junit", "--fail-on", "error", "--no-budget", *FAULTS, "stdout-noise")
    assert done.returncode == exit_codes.DOCTOR_FINDINGS, done.stderr
    suite = ET.fromstring(done.stdout).find("testsuite")
    assert suite is not None and int(suite.get("failures", "0")) >= 1
    failures = {case.get("name"): case.find("failure") for case in suite.iter("testcase")}
    assert failures["stdout"] is not None and failures["stdout"].get("type") == "error"
    assert failures["connects"] is None and "not JSON-RPC" in (failures["stdout"].text or "")


def test_server_everything_connects_legacy_and_its_one_warning_is_named(
    capsys: pytest.CaptureFixture[str], everything: str
) -> None:
    code, report = _doctor_json(capsys, "--no-budget", "--fail-on", "error", "node", everything)
    assert code == exit_codes.OK and report["era"] == "legacy" and report["counts"]["error"] == 0
    warnings = [(f["check"], f["message"]) for f in report["findings"] if f["severity"] == "warning"]
    assert warnings == [("unknown-tool", "an unknown tool gives a tool result with isError: true")]


def test_a_server_that_cannot_start_is_one_error_and_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _doctor_json(capsys, "--no-budget", str(REPO / "no-such-server"))
    assert code == exit_codes.CONNECTION and report["score"] == 0
    assert [f["check"] for f in report["findings"]] == ["connects"]
