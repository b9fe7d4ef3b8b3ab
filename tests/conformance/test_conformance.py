"""The official MCP conformance suite against our client core (tests/conformance/run.py), as one slow test."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.slow


@pytest.mark.timeout(1800)  # a timed-out scenario is run again alone (run.py), on a loaded machine
def test_conformance_suite_matches_baseline_and_every_scored_scenario_passes() -> None:
    for suite in ("@modelcontextprotocol/conformance", "conformance-next"):
        if not (HERE / "node_modules" / suite).exists():
            pytest.fail(f"the conformance suite {suite} is not installed: run scripts/test (npm ci in {HERE})")
    proc = subprocess.run([sys.executable, str(HERE / "run.py")], capture_output=True, text=True, timeout=1700)
    print(proc.stdout)
    assert "Conformance (" in proc.stdout, proc.stderr[-2000:]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    scored = {line.split(")")[0].split("(")[1]: line for line in proc.stdout.splitlines() if line.startswith("Scored")}
    assert set(scored) == {"0.1.16", "2026-07-28", "2025-11-25"}, scored
    minimum = {"0.1.16": 18, "2026-07-28": 32, "2025-11-25": 18}
    for name, line in scored.items():
        done, total = line.rsplit(": ", 1)[1].split(" ")[0].split("/")
        assert done == total and int(total) >= minimum[name], line


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
    assert run.report({"a": good, "b": bad}, {("0.1.16", "b"): "known reason"}) == 0  # expected failure
    assert run.report({"a": good, "b": bad}, {("2026-07-28", "b"): "known"}) == 1  # listed for another set
    assert run.report({"a": good, "b": bad}, {("2026-07-28", "b"): "known"}, set_name="2026-07-28") == 0
    assert run.report({"a": good}, {("0.1.16", "a"): "fixed since"}) == 1  # stale baseline entry
    assert run.report({"a": run.Outcome("a", 2, 0, 1)}, {}) == 1  # a warning is not a pass
    assert run._strip_timestamp("auth/metadata-default-2026-11-22T11-12-42-498Z") == "auth/metadata-default"
    assert "Conformance (0.1.16): 1/2 scenarios passed" in capsys.readouterr().out
    result = run.SetResult("2026-07-28", {"a": good, "b": bad}, {"a", "b"})
    assert result.scored_line() == "Scored (2026-07-28): 1/2 scenarios passed"


def test_a_scenario_that_produced_nothing_fails() -> None:
    run = _runner()
    result = run.gather("2026-07-28", ["c"], Path("/nonexistent"))
    assert not result.outcomes["c"].ok


def test_the_requirement_sets_are_read_from_the_suite() -> None:
    run = _runner()
    scored, not_scored = run.read_requirements(run.SUITE_NEXT / "requirements" / "2026-07-28.yaml")
    assert len(scored) == 32 and "tools_call" in scored and "auth/authorization-server-migration" in scored
    assert not_scored["auth/dpop"] == "extension"
    assert not_scored["json-schema-2020-12-preservation"] == "added-after-release"
    assert "tasks-lifecycle" not in not_scored  # server leg
    scored_old, _ = run.read_requirements(run.SUITE_NEXT / "requirements" / "2025-11-25.yaml")
    assert len(scored_old) == 18 and "initialize" in scored_old


def test_baseline_entries_name_a_set_and_have_reasons_and_no_scored_scenario_is_listed() -> None:
    run = _runner()
    baseline = run.load_baseline()
    assert all(len(reason) > 20 for reason in baseline.values())
    for revision in run.REVISIONS:
        scored, _ = run.read_requirements(run.SUITE_NEXT / "requirements" / f"{revision}.yaml")
        assert not {scenario for (name, scenario) in baseline if name == revision} & set(scored)


AUTH_EXTENSIONS = (
    "auth/client-credentials-basic",
    "auth/client-credentials-jwt",
    "auth/enterprise-managed-authorization",
    "auth/dpop",
    "auth/dpop-nonce",
    "auth/wif-jwt-bearer",
)


def test_the_six_auth_extension_scenarios_run_in_both_revisions_and_none_is_an_expected_failure() -> None:
    """Each runs in the --requirements runs (not scored), so the suite test above fails if one stops passing."""
    run = _runner()
    baseline = run.load_baseline()
    for revision in run.REVISIONS:
        _, not_scored = run.read_requirements(run.SUITE_NEXT / "requirements" / f"{revision}.yaml")
        assert set(AUTH_EXTENSIONS) <= set(not_scored), revision
        assert not {(revision, scenario) for scenario in AUTH_EXTENSIONS} & set(baseline)


def test_the_client_speaks_the_era_the_suite_asks_for() -> None:
    sys.path.insert(0, str(HERE))
    try:
        import client
    finally:
        sys.path.remove(str(HERE))
    assert client.era_for("2026-07-28") == "2026-07-28"
    assert client.era_for("2025-11-25") == "2025-11-25"
    assert client.era_for(None) == "legacy"  # suite 0.1.16 says nothing: the handshake era


def test_the_four_skills_scenarios_run_in_the_2026_set_and_none_is_an_expected_failure(tmp_path) -> None:
    """Skills (SEP-2640): no requirements file lists them, so the runner plans them one by one; the suite test
    above then fails if one is SKIPPED (0 checks passed is no pass) or fails."""
    run = _runner()
    planned = [args[1] for _, args, _ in run.plan("2026-07-28", None, tmp_path) if args[0] == "--scenario"]
    assert planned == [
        "sep-2640-client-no-prefetch",
        "sep-2640-client-verify-digest",
        "sep-2640-client-verify-size",
        "sep-2640-client-verify-frontmatter",
    ]
    assert not {scenario for (_, scenario) in run.load_baseline()} & set(planned)
    assert not run.Outcome("sep-2640-client-no-prefetch", 0, 0, 0).ok  # all SKIPPED: not a pass


def test_a_scenario_that_timed_out_is_retried_alone_once_and_said_so_and_a_real_failure_is_not(capsys) -> None:
    """On a loaded machine (load 30-45) the full run lost scenarios to server/discover timeouts that passed alone:
    such a failure is run again alone, once, and the report says so; any other failure stands as it came."""
    run = _runner()
    stderr = "[client stderr: ConnectFailed: no answer to server/discover within 60s]"
    slow = run.Outcome("a", 0, 1, 0, f"client-ran: {stderr}")
    wrong = run.Outcome("b", 2, 1, 0, "tools-call: expected 3, got 4")
    again = run.Outcome("c", 0, 1, 0, "client: Client timed out after 120000ms")
    result = run.SetResult("2026-07-28", {"a": slow, "b": wrong, "c": again, "d": run.Outcome("d", 1, 0, 0)}, set())
    asked: list[tuple[str, str]] = []

    def alone(name: str, scenario: str):
        asked.append((name, scenario))
        return run.Outcome(scenario, 3, 0, 0) if scenario == "a" else again

    run.retry_timeouts([result], alone)
    assert asked == [("2026-07-28", "a"), ("2026-07-28", "c")]  # each once; the real failure b is not retried
    assert result.outcomes["a"].ok and result.outcomes["a"].retried.startswith("timed out in the full run")
    assert not result.outcomes["b"].ok and not result.outcomes["b"].retried
    assert not result.outcomes["c"].ok and "timed out again when run alone" in result.outcomes["c"].retried
    assert run.report(result.outcomes, {}, set_name="2026-07-28") == 1  # c still fails: nothing hidden
    out = capsys.readouterr().out
    assert "ok    a (not scored)" not in out or "retried alone once" in out
    assert "retried alone once: passed" in out and "retried alone once: timed out again" in out
    assert run.timed_out(slow) and run.timed_out(again) and not run.timed_out(wrong)


def test_the_harness_gives_a_loaded_machine_generous_timeouts() -> None:
    run = _runner()
    assert run.TIMEOUT_MS >= 300_000
    sys.path.insert(0, str(HERE))
    try:
        import client
    finally:
        sys.path.remove(str(HERE))
    assert client.CONNECT_TIMEOUT_S >= 180 and client.REQUEST_TIMEOUT_S >= 180
