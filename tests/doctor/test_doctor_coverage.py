"""The doctor's coverage (issue 25, point 1): every check of the table reports ran, skipped (with the
reason) or not applicable (with the reason); the score says how many ran, in text, JSON and JUnit;
JUnit's counts match its test cases; a finding about a tool, prompt or resource names it."""

from __future__ import annotations

import json
import re
import sys
from xml.etree import ElementTree as ET

import pytest
from lens_support import REPO, pypi_server_argv, run_lens

from inspector.cli.doctor import main as doctor
from inspector.doctor.table import CHECKS

FAULTS = [sys.executable, str(REPO / "tests/servers/doctor_faults.py")]
MODERN_ONLY = [sys.executable, str(REPO / "tests/servers/modern_only.py")]
STATUSES = {"ran", "skipped", "not applicable"}


def _run(capsys: pytest.CaptureFixture[str], fmt: str, *argv: str) -> str:
    doctor(["--format", fmt, "--timeout", "30", *argv])
    return capsys.readouterr().out


def _coverage(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[dict, dict[str, dict]]:
    report = json.loads(_run(capsys, "json", *argv))
    return report, {c["check"]: c for c in report["coverage"]["checks"]}


def _explained(coverage: dict) -> None:
    """Every check of the table, in its order, with a status; each one that did not run says why."""
    checks = coverage["checks"]
    assert [c["check"] for c in checks] == [check.id for check in CHECKS]
    assert all(c["status"] in STATUSES for c in checks), checks
    assert all(c["reason"] for c in checks if c["status"] != "ran"), checks
    assert not any("gave no reason" in c["reason"] for c in checks), checks
    ran = sum(c["status"] == "ran" for c in checks)
    assert (coverage["ran"], coverage["of"]) == (ran, len(CHECKS))
    assert coverage["line"] == f"{ran} of {len(CHECKS)} checks ran"


def test_the_demo_says_which_checks_ran_and_why_the_others_did_not(capsys: pytest.CaptureFixture[str]) -> None:
    report, checks = _coverage(capsys, "--demo")
    _explained(report["coverage"])
    assert checks["ping"]["status"] == "not applicable" and "2026-07-28" in checks["ping"]["reason"]
    assert checks["connects-legacy"]["status"] == "ran"  # it lists no legacy version, yet answers initialize
    assert checks["structured-content"]["status"] == "ran" and checks["budget"]["status"] == "ran"
    assert report["coverage"]["ran"] >= 18  # all but ping of the 19 checks it was written with
    # each check's section is named in the era's spec version, as its findings' are
    assert checks["ping"]["section"] == "MCP 2026-07-28 · Base protocol › Utilities › Ping"
    assert not any("MCP 2025-11-25" in c["section"] for c in checks.values()), checks


def test_connects_legacy_says_what_the_server_does_in_each_case(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 25: it said "claims no legacy protocol version" of the demo, which answers initialize."""
    said = {}
    for case, argv in {"demo": ["--demo"], "modern-only": MODERN_ONLY, "legacy": [*FAULTS, "healthy"]}.items():
        report, checks = _coverage(capsys, "--no-budget", *argv)
        found = [f["message"] for f in report["findings"] if f["check"] == "connects-legacy"]
        said[case] = (checks["connects-legacy"]["status"], checks["connects-legacy"]["reason"], found)
    status, _, found = said["demo"]
    assert status == "ran" and len(found) == 1, said["demo"]
    assert "server/discover lists no legacy protocol version, yet initialize connects too (2025-11-25)" in found[0]
    status, reason, found = said["modern-only"]
    assert status == "not applicable" and not found, said["modern-only"]
    assert reason.startswith("server/discover lists no legacy protocol version and initialize is refused"), reason
    status, reason, found = said["legacy"]
    assert (status, reason, found) == (
        "not applicable",
        "the server speaks the legacy era (initialize): it claims no other",
        [],
    )


def test_the_text_report_says_its_coverage_with_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    out = _run(capsys, "text", "--demo", "--no-budget")
    line = re.search(rf"^score 84/100 · (\d+) of {len(CHECKS)} checks ran — ", out, re.M)
    assert line, out
    assert f"CHECKS NOT RUN ({len(CHECKS) - int(line.group(1))})" in out
    assert re.search(r"^  budget: skipped: --no-budget", out, re.M), out
    assert re.search(r"^  ping: not applicable: .*2026-07-28", out, re.M), out


def test_mcp_server_time_says_why_its_output_schemas_were_not_checked(capsys: pytest.CaptureFixture[str]) -> None:
    """Its tools declare an outputSchema but need arguments without defaults: the check did not run,
    and says so, naming them (it was silently skipped, and the score said 100 from 15 of 19)."""
    report, checks = _coverage(capsys, "--no-budget", *pypi_server_argv("time"))
    _explained(report["coverage"])
    structured = checks["structured-content"]
    assert structured["status"] == "skipped", structured
    assert "get_current_time" in structured["reason"] and "convert_time" in structured["reason"], structured
    assert checks["budget"] == {**checks["budget"], "status": "skipped", "reason": "--no-budget: no tokenizer loaded"}
    assert checks["resources-read"]["status"] == "not applicable"


def test_mcp_server_time_says_it_in_text_and_junit_too(capsys: pytest.CaptureFixture[str]) -> None:
    why = "skipped: no defaults for its required arguments (get_current_time, convert_time)"
    out = _run(capsys, "text", "--no-budget", *pypi_server_argv("time"))
    assert re.search(rf"^score 100/100 · \d+ of {len(CHECKS)} checks ran — ", out, re.M), out
    assert f"  structured-content: {why}\n" in out, out
    done = run_lens("doctor", "--format", "junit", "--no-budget", *pypi_server_argv("time"), timeout=180)
    cases = {c.get("name"): c for c in ET.fromstring(done.stdout).iter("testcase")}
    skipped = cases["structured-content"].find("skipped")
    assert skipped is not None and skipped.get("message") == why


def test_a_legacy_server_pings_and_has_no_other_era(capsys: pytest.CaptureFixture[str]) -> None:
    report, checks = _coverage(capsys, "--no-budget", *FAULTS, "healthy")
    _explained(report["coverage"])
    assert checks["ping"]["status"] == "ran"
    assert checks["connects-legacy"]["status"] == "not applicable" and "legacy" in checks["connects-legacy"]["reason"]
    assert checks["invalid-arguments"]["status"] == "ran"


def test_a_crash_skips_the_checks_after_it_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    report, checks = _coverage(capsys, "--no-budget", *FAULTS, "crash-unknown-tool")
    _explained(report["coverage"])
    assert checks["unknown-tool"]["status"] == "ran" and checks["stdout"]["status"] == "ran"
    for later in ("invalid-arguments", "structured-content", "resources-read", "prompts-get"):
        assert checks[later]["status"] == "skipped" and "server" in checks[later]["reason"], checks[later]


def test_a_server_that_cannot_start_ran_one_check(capsys: pytest.CaptureFixture[str]) -> None:
    report, checks = _coverage(capsys, "--no-budget", str(REPO / "no-such-server"))
    _explained(report["coverage"])
    assert [c for c, v in checks.items() if v["status"] == "ran"] == ["connects"]
    assert "could not connect" in checks["handshake"]["reason"]
    assert report["coverage"]["line"] == f"1 of {len(CHECKS)} checks ran"


def test_junit_counts_match_its_test_cases_and_skips_say_why() -> None:
    """One test case per check of the table; `tests=` counts them, `skipped=` and `failures=` too."""
    done = run_lens("doctor", "--format", "junit", "--timeout", "30", "--demo", timeout=180)
    root = ET.fromstring(done.stdout)
    suite = root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [check.id for check in CHECKS]
    assert int(suite.get("tests", "-1")) == len(cases) == int(root.get("tests", "-1"))
    skipped = [c for c in cases if c.find("skipped") is not None]
    failed = [c for c in cases if c.find("failure") is not None]
    assert int(suite.get("skipped", "-1")) == len(skipped) == int(root.get("skipped", "-1")) >= 2
    assert int(suite.get("failures", "-1")) == len(failed) == int(root.get("failures", "-1"))
    assert {"tools-list", "unknown-tool", "invalid-arguments"} <= {c.get("name") for c in failed}
    assert all(len(c.findall("failure")) == 1 for c in failed)
    ping = next(c for c in cases if c.get("name") == "ping").find("skipped")
    assert ping is not None and ping.get("message", "").startswith("not applicable: ")
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["coverage"] == f"{len(cases) - len(skipped)} of {len(CHECKS)} checks ran" and props["score"] == "84"
    # the tools' timings are notes of the check that called them, not a test case of their own
    structured = next(c for c in cases if c.get("name") == "structured-content")
    assert "answered in" in (structured.findtext("system-out") or "")


def test_findings_about_a_tool_name_it_beside_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(_run(capsys, "json", "--demo"))
    paths = [(f["check"], f["path"]) for f in report["findings"]]
    tool = re.compile(r"\$\.tools\[\d+\] \(route_request_bad_headers\)\.inputSchema")
    assert any(check == "tools-list" and tool.fullmatch(path) for check, path in paths), paths
    called = re.compile(r"\$\.tools\[\d+\] \(show_resources\)")
    assert any(check == "invalid-arguments" and called.fullmatch(path) for check, path in paths), paths
    budget = [f["path"] for f in report["findings"] if f["check"].startswith("budget/")]
    assert budget and all(re.match(r"\$\.tools\[\d+\] \(\w+\)", p) for p in budget), budget


def test_prompts_resources_and_templates_are_named_too() -> None:
    from inspector.doctor.report import DoctorReport

    report = DoctorReport(target="t")
    report.name_items("prompts", [{"name": "greet"}, {"title": "no name"}, {"name": "two\nlines\tand a tab"}])
    report.name_items("resources", [{"uri": "file:///a", "name": "A file"}, {"uri": "file:///b"}])
    report.name_items("resourceTemplates", [{"uriTemplate": "x://{id}", "name": "by id"}])
    paths = ("$.prompts[0]", "$.prompts[1].name", "$.prompts[2]", "$.resources[0] read", "$.resources[1]")
    for path in (*paths, "$.resourceTemplates[0]", "$.prompts[3]"):
        report.add("warning", "c", path, "m", "e", "s")
    assert [f.path for f in report.findings] == [
        "$.prompts[0] (greet)",
        "$.prompts[1].name",
        "$.prompts[2] (two\\nlines\\tand a tab)",  # a path stays one line
        "$.resources[0] (A file) read",
        "$.resources[1] (file:///b)",
        "$.resourceTemplates[0] (by id)",
        "$.prompts[3]",  # past the list
    ]
