"""``mcp-lens run`` as a real process against the demo server over stdio."""

from __future__ import annotations

import json
import sys
from xml.etree import ElementTree as ET

from lens_support import run_lens

from inspector.checks.collection import Collection
from inspector.cli import exit_codes
from inspector.cli.run import main
from inspector.config.store import ProfileStore
from inspector.demo.launch import demo_profile

DEMO = [sys.executable, "-m", "inspector.demo"]


def demo_collection() -> Collection:
    """Five steps: structured output against its schema, a saved value used by the next step, an
    unknown tool, a JSON-RPC error code, and the tool list's latency and token total."""
    c = Collection("demo smoke")
    weather, _ = c.add_step(
        "tools/call",
        {"name": "get_weather", "arguments": {"city": "Paris"}},
        name="weather in Paris",
        expect=[
            {"kind": "output_schema"},
            {"kind": "equals", "path": "$.result.structuredContent.city", "value": "Paris"},
        ],
    )
    weather.save = {"city": "$.result.structuredContent.city"}
    c.add_step(
        "tools/call",
        {"name": "echo", "arguments": {"message": "city=${steps.s1.city}"}},
        name="echo the saved city",
        expect=[
            {"kind": "equals", "path": "$.result.content[0].text", "value": "city=Paris"},
            {"kind": "content", "type": "text", "count": 1},
        ],
    )
    c.add_step("tools/call", {"name": "no_such_tool"}, name="unknown tool", expect=[{"kind": "is_error"}])
    c.add_step(
        "tools/call",
        {"name": "simulate_error", "arguments": {"mode": "protocol"}},
        name="protocol error",
        expect=[{"kind": "error_code", "code": -32602}],
    )
    c.add_step(
        "tools/list",
        {},
        name="tool list",
        expect=[{"kind": "latency_under", "ms": 5000}, {"kind": "tokens_under", "tokens": 50_000}],
    )
    return c


def test_a_collection_passes_then_a_changed_expectation_fails_in_junit(tmp_path) -> None:
    path = tmp_path / "smoke.json"
    collection = demo_collection()
    collection.save(path)
    passing = run_lens("run", str(path), "--format", "json", "--", *DEMO)
    assert passing.returncode == exit_codes.OK, passing.stdout + passing.stderr
    report = json.loads(passing.stdout)
    assert [s["status"] for s in report["steps"]] == ["passed"] * 5
    assert report["steps"][0]["saved"] == {"city": "Paris"}
    echo_wire = report["steps"][1]["wire"]
    assert [w["direction"] for w in echo_wire] == ["out", "in"]
    assert '"message":"city=Paris"' in echo_wire[0]["raw"]

    collection.steps[1].expect[0]["value"] = "city=Rome"  # the server "changed"
    collection.save(path)
    junit = tmp_path / "junit.xml"
    failing = run_lens("run", str(path), "--format", "junit", "--output", str(junit), "--", *DEMO)
    assert failing.returncode == exit_codes.ASSERTION_FAILED, failing.stderr
    assert "demo smoke: 4/5 passed, 1 failed" in failing.stderr
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and (suite.get("tests"), suite.get("failures")) == ("5", "1")
    failed = [case for case in suite.iter("testcase") if case.find("failure") is not None]
    assert [case.get("name") for case in failed] == ["s2 echo the saved city"]
    failure = failed[0].find("failure")
    assert failure is not None
    assert failure.get("message") == '$.result.content[0].text is "city=Paris", expected "city=Rome"'
    out = failed[0].findtext("system-out") or ""
    assert '"name":"echo"' in out and '"text":"city=Paris"' in out


def test_an_unreachable_server_exits_3_and_a_missing_variable_is_usage(tmp_path, capsys) -> None:
    path = tmp_path / "c.json"
    collection = Collection("c")
    collection.add_step("tools/list", {})
    collection.save(path)
    assert main([str(path), "--", str(tmp_path / "no-such-server")]) == exit_codes.CONNECTION
    assert "could not connect to the server" in capsys.readouterr().out
    collection.add_step("tools/call", {"name": "x", "arguments": {"password": "hunter2"}})
    collection.save(path)
    assert main([str(path), "--demo"]) == exit_codes.USAGE
    assert "${PASSWORD}" in capsys.readouterr().err


def test_steps_go_to_the_saved_profiles_they_name(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    store = ProfileStore()
    store.load()
    store.add(demo_profile())
    store.save()
    collection = Collection("by profile")
    monkeypatch.setenv("GREETING_TOKEN", "s3cr3t-value")
    collection.add_step(
        "tools/call",
        {"name": "echo", "arguments": {"message": "${GREETING_TOKEN}"}},
        server="Demo server",
        expect=[{"kind": "equals", "path": "$.result.content[0].text", "value": "no"}],
    )
    collection.add_step("tools/list", {}, server="Gone")
    collection.add_step("tools/list", {}, server="Demo server")
    path = tmp_path / "c.json"
    collection.save(path)
    assert main([str(path), "--format", "json"]) == exit_codes.ASSERTION_FAILED
    report = json.loads(capsys.readouterr().out)
    assert [s["status"] for s in report["steps"]] == ["failed", "unreachable", "passed"]
    assert (
        report["steps"][1]["reason"]
        == "could not connect to server 'Gone': no saved server profile named 'Gone' (Demo server), "
        "and the collection records no way to reach it"
    )
    # the secret the step sent and the server echoed is written back as its reference
    assert report["steps"][0]["reason"] == '$.result.content[0].text is "${GREETING_TOKEN}", expected "no"'
    assert (
        "s3cr3t" not in json.dumps(report) and '"message":"${GREETING_TOKEN}"' in report["steps"][0]["wire"][0]["raw"]
    )


def test_a_url_target_runs_through_the_sdk_connection(demo_http, tmp_path, capsys) -> None:
    path = tmp_path / "c.json"
    demo_collection().save(path)
    assert main([str(path), "--server-url", demo_http, "--format", "text"]) == exit_codes.OK
    assert "demo smoke: 5/5 passed" in capsys.readouterr().out
