"""``mcp-lens doctor --host NAME`` (issue 25 point 3): a section per chosen host saying what it does with each
tool (accepted, changed: how, refused: why, each reason with its rule's source), in text, JSON and JUnit, and
exit 14 for CI when a chosen host refuses a tool. Against real servers: the demo, server-everything and
tests/servers/host_acceptance.py."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET

import pytest
from lens_support import EVERYTHING, REPO, run_lens

from inspector.cli.exit_codes import DOCTOR_FINDINGS, OK, USAGE

HOSTS_SERVER = ["--", sys.executable, str(REPO / "tests/servers/host_acceptance.py")]
QUICK = ("--no-budget", "--timeout", "30")


def doctor(*args: str) -> tuple[int, str, str]:
    done = run_lens("doctor", *QUICK, *args, timeout=180)
    return done.returncode, done.stdout, done.stderr


def test_json_has_a_section_per_host_with_each_verdict_and_its_rule() -> None:
    code, out, err = doctor("--format", "json", "--host", "OpenAI strict", "--host", "claude-code", *HOSTS_SERVER)
    assert code == DOCTOR_FINDINGS, err  # OpenAI strict refuses four of the five tools
    report = json.loads(out)
    strict, claude = report["hosts"]
    assert (strict["host"], claude["host"]) == ("openai-strict", "claude-code")
    assert strict["counts"] == {"accepted": 1, "changed": 0, "refused": 4}
    assert claude["counts"] == {"accepted": 2, "changed": 1, "refused": 2}  # files.read's dot, find's root anyOf
    verdicts = {t["tool"]: t for t in strict["tools"]}
    assert verdicts["lookup_order"]["verdict"] == "accepted"
    search = verdicts["search"]
    assert search["verdict"] == "refused" and {r["rule"] for r in search["reasons"]} == {
        "strict-closed",
        "strict-required",
        "schema-refused",
    }
    for reason in search["reasons"]:
        assert reason["source"] and reason["checked"] and reason["status"] in ("confirmed", "unconfirmed")
    manual = {t["tool"]: t for t in claude["tools"]}["manual"]
    assert manual["host_name"] == "mcp__host-acceptance__manual" and manual["verdict"] == "changed"
    assert manual["summary"].endswith("description cut at 2,048 characters (948 lost)")
    coverage = {c["check"]: c for c in report["coverage"]["checks"]}
    assert coverage["host-acceptance"]["status"] == "ran"
    # a host's verdicts are its own section, not findings about the server's protocol: the score leaves them out
    assert [f for f in report["findings"] if f["check"] == "host-acceptance"] == []
    code, out, err = doctor("--format", "json", *HOSTS_SERVER)
    assert code == OK, err
    alone = json.loads(out)

    def judged(findings: list[dict]) -> list[tuple[str, str, str]]:  # a timing note's figures differ run to run
        return [(f["severity"], f["check"], f["path"]) for f in findings]

    assert alone["score"] == report["score"] and judged(alone["findings"]) == judged(report["findings"])


def test_text_says_each_host_and_tool() -> None:
    code, out, err = doctor("--host", "openai-strict", *HOSTS_SERVER)
    assert code == DOCTOR_FINDINGS, err
    section = out[out.index("HOST OpenAI strict") :]
    assert section.startswith(
        "HOST OpenAI strict (server host-acceptance): 1 accepted, 0 changed, 4 refused — apart from the score: "
        "what this host does with the tools, not a protocol defect (exit 14 when it refuses one)"
    )
    assert "OpenAI strict refuses" not in out[: out.index("HOST OpenAI strict")]  # no finding, no error counted
    assert "  ✓ lookup_order: accepted as is" in section
    assert "  ✗ search: refused: additionalProperties is not false at inputSchema" in section
    assert "      strict-closed [confirmed]: every object schema must say additionalProperties: false" in section
    assert "OpenAI Structured Outputs guide" in section and "checked 2026-11-27" in section


def test_junit_has_a_suite_per_host_and_a_case_per_tool() -> None:
    code, out, err = doctor("--format", "junit", "--host", "openai-strict", "--host", "gemini", *HOSTS_SERVER)
    assert code == DOCTOR_FINDINGS, err
    suites = ET.fromstring(out)
    doctor_suite, strict, gemini = suites.findall("testsuite")
    assert strict.get("name") == "mcp-lens doctor --host openai-strict: host-acceptance"
    cases = strict.findall("testcase")
    assert [c.get("name") for c in cases] == ["lookup_order", "search", "files.read", "manual", "find"]
    assert strict.get("tests") == "5" and strict.get("failures") == "4" == str(len(strict.findall("testcase/failure")))
    assert gemini.get("failures") == str(len(gemini.findall("testcase/failure")))
    total = sum(int(s.get("tests")) for s in (doctor_suite, strict, gemini))
    failures = sum(int(s.get("failures")) for s in (doctor_suite, strict, gemini))
    assert suites.get("tests") == str(total) and suites.get("failures") == str(failures)
    assert "strict-closed" in cases[1].find("failure").text


@pytest.mark.npm
def test_a_host_that_accepts_every_tool_exits_0_and_says_so() -> None:
    if not EVERYTHING.exists():
        pytest.fail(f"{EVERYTHING} is missing: run scripts/test, which installs the npm test servers")
    code, out, err = doctor("--host", "cursor", "--", "node", str(EVERYTHING), "stdio")
    assert code == OK, out + err
    assert "HOST Cursor (server mcp-servers/everything): 13 accepted, 0 changed, 0 refused" in out


def test_the_demo_without_a_host_says_the_check_does_not_apply() -> None:
    code, out, err = doctor("--format", "json", "--demo")
    assert code == OK, err
    report = json.loads(out)
    coverage = {c["check"]: c for c in report["coverage"]["checks"]}["host-acceptance"]
    assert coverage["status"] == "not applicable" and "--host" in coverage["reason"]
    assert report["hosts"] == []


def test_an_unknown_host_is_a_usage_error_naming_the_hosts() -> None:
    code, _out, err = doctor("--host", "netscape", "--demo")
    assert code == USAGE and "unknown host 'netscape'" in err and "openai-strict" in err


# What a terminal obeys or hides and XML 1.0 refuses: C0 but tab, newline and CR; DEL and C1; bidi controls.
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
HOSTILE = ["--", sys.executable, str(REPO / "tests/servers/hostile_text.py"), "/nonexistent/fifo"]


@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_hostile_tool_names_reach_the_host_sections_escaped(fmt: str, tmp_path) -> None:
    """Written to a file (``--output``): stdout has a guard of its own, a file only what the report wrote."""
    written = tmp_path / f"report.{fmt}"
    hosts = ("--host", "claude-code", "--host", "gemini")
    code, _, err = doctor("--format", fmt, *hosts, "--output", str(written), *HOSTILE)
    assert code in (OK, DOCTOR_FINDINGS) and "Traceback" not in err, err[-2000:]
    out = written.read_text(encoding="utf-8")
    assert not RAW.findall(out), sorted(set(RAW.findall(out)))
    if fmt == "text":
        assert out.count("\nHOST ") == 2 and "\\x1b" in out[out.index("\nHOST ") :]
    elif fmt == "json":
        assert [h["host"] for h in json.loads(out)["hosts"]] == ["claude-code", "gemini"]
    else:
        assert len(ET.fromstring(out).findall("testsuite")) == 3
