"""The doctor's Skills checks (skills-list, skills-verify) against tests/servers/skills_server.py's planted faults
and the demo's two good skills."""

from __future__ import annotations

import json
import sys

import pytest
from lens_support import REPO

from inspector.cli.doctor import main as doctor

FAULTS = [sys.executable, str(REPO / "tests/servers/skills_server.py")]


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    doctor(["--format", "json", "--protocol-era", "modern", *argv])
    return json.loads(capsys.readouterr().out)


def test_each_planted_skill_fault_is_found_and_named(capsys: pytest.CaptureFixture[str]) -> None:
    report = _report(capsys, "--", *FAULTS)
    assert {"skills-list", "skills-verify"} <= set(report["checks"])
    found = [(f["check"], f["message"]) for f in report["findings"] if f["check"].startswith("skills-")]
    assert ("skills-list", "17,825,873 bytes in all") in found  # the 16 MiB limit, from the entry alone
    assert any(c == "skills-verify" and m.startswith("digest mismatch: expected sha256:") for c, m in found)
    assert any(c == "skills-verify" and "frontmatter is not YAML" in m for c, m in found)
    assert ("skills-list", 'resources is "dynamic": no digests, so nothing read can be verified') in found
    assert len(found) == 4, found
    ours = [f for f in report["findings"] if f["check"] in {"skills-list", "skills-verify"}]
    assert all(f["section"].startswith("Skills extension") for f in ours)


def test_the_demo_s_skills_pass_and_a_server_without_skills_is_told_not_applicable(capsys) -> None:
    report = _report(capsys, "--demo")
    assert {"skills-list", "skills-verify"} <= set(report["checks"])
    assert not [f for f in report["findings"] if f["check"].startswith("skills-")]
    doctor(["--format", "json", "--protocol-era", "legacy", "--demo"])
    legacy = json.loads(capsys.readouterr().out)
    assert "skills-list" not in legacy["checks"]
    assert "does not declare io.modelcontextprotocol/skills" in json.dumps(legacy)


def test_a_bad_cache_hint_on_skills_list_is_a_doctor_finding(capsys: pytest.CaptureFixture[str]) -> None:
    report = _report(capsys, "--", *FAULTS, "--bad-cache")
    found = {f["message"]: f for f in report["findings"] if f["check"] == "skills-list"}
    assert "ttlMs -5 is not a non-negative integer" in found, found
    assert found["ttlMs -5 is not a non-negative integer"]["path"] == "$.ttlMs"
    assert 'cacheScope "<b>weird</b>" is neither public nor private' in found, found
