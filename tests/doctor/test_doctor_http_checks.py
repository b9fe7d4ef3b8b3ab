"""The doctor's HTTP checks (`doctor/http_checks`, `modern_checks`, `resource_checks`) against the HTTP
server of planted faults, `tests/servers/doctor_http_faults.py`: each fault found and named in the era it
belongs to, the clean server with none of them, and every exchange of the doctor's own marked as its
probe in the traffic."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest
from lens_support import REPO, free_port, run_lens, serve

SERVER = REPO / "tests/servers/doctor_http_faults.py"
HTTP_CHECKS = {
    "dns-rebinding",
    "session-lifecycle",
    "mcp-headers",
    "stateless",
    "caching",
    "resource-not-found",
    "input-required",
    "sse-streams",
}


def faulty(*faults: str, options: tuple[str, ...] = ()) -> Iterator[str]:
    port = free_port()
    argv = [sys.executable, str(SERVER), "--port", str(port), *options]
    for fault in faults:
        argv += ["--fault", fault]
    for _ in serve(argv, port):
        yield f"http://127.0.0.1:{port}/mcp"


def doctor_json(url: str, era: str, *more: str) -> dict:
    done = run_lens(
        "doctor",
        "--server-url",
        url,
        "--protocol-era",
        era,
        "--format",
        "json",
        "--no-budget",
        "--timeout",
        "60",
        *more,
    )
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def found(report: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for finding in report["findings"]:
        if finding["severity"] in ("error", "warning") and finding["check"] in HTTP_CHECKS:
            out.setdefault(finding["check"], []).append(finding["message"])
    return out


@pytest.fixture
def clean() -> Iterator[str]:
    yield from faulty()


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_the_clean_server_passes_every_http_check_that_applies(clean: str, era: str) -> None:
    report = doctor_json(clean, era)
    assert report["era"] == era
    assert found(report) == {}
    ran = set(report["checks"])
    common = {"dns-rebinding", "resource-not-found", "sse-streams"}
    own = {"session-lifecycle"} if era == "legacy" else {"mcp-headers", "stateless", "caching", "input-required"}
    assert common | own <= ran


@pytest.mark.parametrize(
    ("fault", "era", "check", "text"),
    [
        ("host", "legacy", "dns-rebinding", "Host: evil.example.com and Origin: http://evil.example.com was served"),
        ("host", "modern", "dns-rebinding", "was served (HTTP 200)"),
        ("session", "legacy", "session-lifecycle", "a session id the server never issued was answered HTTP 200"),
        ("session", "legacy", "session-lifecycle", "a request on the session DELETE ended was answered HTTP 200"),
        ("not-found", "legacy", "resource-not-found", "gave error -32000"),
        ("not-found", "modern", "resource-not-found", "gave error -32000"),
        ("headers", "modern", "mcp-headers", "tools/list with Mcp-Method: 'prompts/list' was answered HTTP 200"),
        ("headers", "modern", "mcp-headers", "resources/read with no Mcp-Name header was answered HTTP 200"),
        ("caching", "modern", "caching", "tools/list: no ttlMs; no cacheScope"),
        ("input-on-list", "modern", "input-required", "prompts/list answered with an input_required result"),
        ("trust-state", "modern", "input-required", "finished the call with a requestState the doctor changed"),
        ("streams", "legacy", "sse-streams", "2 were refused or cut off: HTTP 200, HTTP 409, HTTP 409"),
    ],
)
def test_each_planted_http_fault_is_found_and_named(fault: str, era: str, check: str, text: str) -> None:
    for url in faulty(fault):
        findings = found(doctor_json(url, era))
        assert any(text in message for message in findings.get(check, [])), findings
        assert set(findings) == {check}, findings  # one fault, one check


def test_the_doctors_own_exchanges_are_marked_as_its_probes_in_the_traffic(clean: str) -> None:
    import asyncio

    from inspector.cli.args import CliArgs
    from inspector.cli.connect import connect, profile_of
    from inspector.doctor.engine import run_doctor
    from inspector.traffic.entry import DOCTOR_PROBE, Direction
    from inspector.traffic.store import TrafficStore

    store = TrafficStore()
    args = CliArgs(server_url=clean, protocol_era="legacy")
    profile = profile_of(args)
    report = asyncio.run(run_doctor(lambda era: connect(args, profile, store, None), target=clean, era="legacy"))
    assert "dns-rebinding" in report.ran and "session-lifecycle" in report.ran
    ours = [e for e in store if e.probe == DOCTOR_PROBE]
    sent = [e for e in ours if e.direction is Direction.OUT]
    assert any(e.http and ["Host", "evil.example.com"] in e.http.get("headers", []) for e in sent)
    assert any(e.http and e.http.get("method") == "DELETE" for e in sent)
    assert any(e.method == "resources/read" for e in sent)  # the unknown resource, through the connection
    answers = [e for e in ours if e.direction is Direction.IN]
    assert any(e.http and e.http.get("status") == 404 for e in answers)  # the ended session's answer
    assert not [e for e in ours if e.flagged], "a refusal the doctor asked for is no flag"


def test_doctor_record_saves_every_exchange_the_doctor_sent_marked_as_its_own(clean: str, tmp_path) -> None:
    """``--record FILE``: the doctor's connections and probes in one record, as File › Open session reads it."""
    from inspector.traffic.jsonl import read

    record = tmp_path / "doctor.jsonl"
    done = run_lens("doctor", "--server-url", clean, "--no-budget", "--timeout", "60", "--record", str(record))
    assert done.returncode == 0, done.stdout + done.stderr
    assert record.stat().st_mode & 0o777 == 0o600
    store, meta, bad = read(record)
    assert bad == [] and meta["servers"] and all("(doctor" in name for name in meta["servers"])
    assert "the doctor's own traffic" in meta["about"]
    sent = [e for e in store if e.direction.value == "out"]
    assert {"server/discover", "tools/list"} <= {e.method for e in sent}  # its connection's requests
    probes = [e for e in sent if e.probe == "doctor probe"]
    assert any(e.http and ["Host", "evil.example.com"] in e.http.get("headers", []) for e in probes)
    assert sum(e.method == "tools/list" for e in probes) >= 3  # sse-streams: three at once
    assert all(e.source in meta["servers"] for e in store)
    from inspector.traffic.record_store import RecordStore  # what File › Open session… reads it with

    opened = RecordStore(record)
    try:
        opened.update()
        assert len(opened) == len(store) and opened.meta["servers"] == meta["servers"]
        assert [e.probe for e in opened] == [e.probe for e in store]
    finally:
        opened.close()


def test_the_probes_carry_the_profiles_headers_and_a_401_skips_the_check_with_its_reason() -> None:
    for url in faulty("host", options=("--token", "s3cret")):  # the profile's credentials reach the probes
        report = doctor_json(url, "legacy", "--header", "Authorization: Bearer s3cret")
        assert "dns-rebinding" in found(report) and "session-lifecycle" in report["checks"]
    for url in faulty("host", options=("--deny-doctor",)):  # signed in apart from the probes: no guess
        report = doctor_json(url, "legacy")
        assert found(report) == {} and "dns-rebinding" not in report["checks"]
        said = {c["check"]: c for c in report["coverage"]["checks"]}
        for check in ("dns-rebinding", "session-lifecycle"):
            assert said[check]["status"] == "skipped" and "401" in said[check]["reason"], said[check]
