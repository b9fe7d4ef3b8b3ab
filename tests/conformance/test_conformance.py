"""The official MCP conformance suite against our client core (tests/conformance/run.py), as one slow test."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.slow


@pytest.mark.timeout(900)
def test_conformance_suite_matches_baseline() -> None:
    if not (HERE / "node_modules/@modelcontextprotocol/conformance").exists():
        pytest.fail(f"the conformance suite is not installed: run scripts/test (npm ci in {HERE})")
    proc = subprocess.run([sys.executable, str(HERE / "run.py")], capture_output=True, text=True, timeout=1200)
    print(proc.stdout)
    assert "Conformance:" in proc.stdout, proc.stderr[-2000:]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    required = [line for line in proc.stdout.splitlines() if line.startswith("Required")]
    done, total = required[0].rsplit(": ", 1)[1].split(" ")[0].split("/")
    assert done == total and int(total) >= 18, required


def _runner():
    spec = importlib.util.spec_from_file_location("conformance_run", HERE / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_runner_fails_on_new_failures_and_stale_entries(capsys) -> None:
    run = _runner()
    good, bad = run.Outcome("a", 3, 0, 0), run.Outcome("b", 1, 2, 0, "boom")
    assert run.report({"a": good}, {}) == 0
    assert run.report({"a": good, "b": bad}, {}) == 1  # unexpected failure
    assert run.report({"a": good, "b": bad}, {"b": "known reason"}) == 0  # expected failure
    assert run.report({"a": good}, {"a": "fixed since"}) == 1  # stale baseline entry
    assert run.report({"a": run.Outcome("a", 2, 0, 1)}, {}) == 1  # a warning is not a pass
    assert run.report({}, {}, expected=["c"]) == 1  # a scenario that produced nothing
    assert run._strip_timestamp("auth/metadata-default-2026-11-22T11-12-42-498Z") == "auth/metadata-default"
    assert "Conformance: 1/2 scenarios passed" in capsys.readouterr().out


def test_baseline_entries_have_reasons() -> None:
    baseline = _runner().load_baseline()
    assert all(len(reason) > 20 for reason in baseline.values())
