"""The doctor does not blame a server for its own choices or its own failures to read: a tool that asks
for input the doctor does not declare it can give (the demo's order_coffee: elicitation, -32021) is
skipped with that reason, not a finding; the prompts of a prompts/list that could not be read are
"skipped: prompts/list could not be read", not "not applicable: the server lists no prompts"."""

from __future__ import annotations

import json
import sys

import pytest
from lens_support import REPO

from inspector.cli.doctor import main as doctor

FAULTS = [sys.executable, str(REPO / "tests/servers/doctor_faults.py")]


def _report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    doctor(["--format", "json", "--timeout", "30", "--no-budget", *argv])
    return json.loads(capsys.readouterr().out)


def test_a_tool_needing_input_the_doctor_does_not_declare_is_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    report = _report(capsys, "--demo")
    blamed = [f for f in report["findings"] if "order_coffee" in f["path"] and f["check"] == "structured-content"]
    assert not blamed, blamed
    doctor(["--format", "text", "--timeout", "30", "--no-budget", "--demo"])
    text = capsys.readouterr().out
    assert "order_coffee" in text and "the doctor does not declare" in text, text[-3000:]


def test_prompts_of_an_unreadable_list_are_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    report = _report(capsys, *FAULTS, "null-prompts")
    assert any(f["check"] == "prompts-list" for f in report["findings"]), report["findings"]
    said = {c["check"]: c for c in report["coverage"]["checks"]}["prompts-get"]
    assert (said["status"], said["reason"]) == ("skipped", "prompts/list could not be read"), said
