"""The doctor's checks are one table (`inspector/doctor/table.py`): ids, what each checks, in the order
they run. A real run reports the checks it ran (`checks` in the JSON report) in the table's order."""

from __future__ import annotations

import json
import sys

import pytest
from lens_support import REPO

from inspector.cli.doctor import main as doctor
from inspector.doctor.table import CHECKS, Stage

FAULTS = [sys.executable, str(REPO / "tests/servers/doctor_faults.py")]


def test_each_check_has_one_id_and_says_what_it_checks() -> None:
    ids = [i for check in CHECKS for i in check.ids]
    assert len(ids) == len(set(ids)), ids
    assert all(check.what and check.stage in Stage for check in CHECKS)
    assert [check.stage for check in CHECKS] == sorted((check.stage for check in CHECKS), key=list(Stage).index)


@pytest.mark.parametrize(
    "target",
    [["--demo"], ["--demo", "--protocol-era", "legacy"], [*FAULTS, "healthy"], [*FAULTS, "stdout-noise"]],
    ids=["demo", "demo-legacy", "healthy", "stdout-noise"],
)
def test_a_run_reports_its_checks_in_the_tables_order(capsys: pytest.CaptureFixture[str], target: list[str]) -> None:
    doctor(["--format", "json", "--timeout", "30", *target])
    ran = json.loads(capsys.readouterr().out)["checks"]
    order = [i for check in CHECKS for i in check.ids]
    assert set(ran) <= set(order), set(ran) - set(order)
    assert ran == [i for i in order if i in ran]
    assert {"connects", "handshake", "pagination", "tools-list", "list-changed", "unknown-tool"} <= set(ran)


# What `mcp-lens doctor --demo --protocol-era legacy` ran before the table existed (3f1e9ce): the table
# keeps the ids and their order.
DEMO_LEGACY_BEFORE = [
    "connects",
    "handshake",
    "pagination",
    "tools-list",
    "tool-form",
    "schema-examples",
    "tool-name",
    "budget",
    "resources-list",
    "prompts-list",
    "list-changed",
    "ping",
    "unknown-tool",
    "invalid-arguments",
    "structured-content",
    "resources-read",
    "templates-expand",
    "prompts-get",
    "stdout",
    "stderr",
]


# Checks added since (issue 25 point 2) that run on the demo over stdio in the legacy era.
ADDED_SINCE = ["resource-not-found"]


def test_the_demo_runs_the_checks_it_ran_before_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    doctor(["--format", "json", "--timeout", "30", "--demo", "--protocol-era", "legacy"])
    ran = json.loads(capsys.readouterr().out)["checks"]
    assert [c for c in ran if c not in ADDED_SINCE] == DEMO_LEGACY_BEFORE
    assert set(ADDED_SINCE) <= set(ran)
