"""`mcp-lens run` as a real process: a collection that passes on one version of a server fails on the
changed version at exactly the steps whose behaviour changed, each with its reason, in JUnit."""

from __future__ import annotations

import sys
from pathlib import Path
from xml.etree import ElementTree as ET

from lens_support import run_lens

from inspector.checks.collection import Collection
from inspector.cli import exit_codes

SERVER = Path(__file__).resolve().parents[1] / "servers/echo_versions.py"


def collection() -> Collection:
    c = Collection("echo versions")
    c.add_step(
        "tools/call",
        {"name": "echo", "arguments": {"message": "hello"}},
        name="echo keeps the message",
        expect=[{"kind": "equals", "path": "$.result.content[0].text", "value": "hello"}],
    )
    c.add_step("tools/call", {"name": "stats"}, name="stats fit the schema", expect=[{"kind": "output_schema"}])
    c.add_step("tools/call", {"name": "ping_tool"}, name="ping tool", expect=[{"kind": "success"}])
    return c


def test_a_changed_server_fails_the_steps_that_changed(tmp_path: Path) -> None:
    path = tmp_path / "checks.json"
    collection().save(path)
    junit = tmp_path / "junit.xml"

    def run(version: str):
        target = ["--", sys.executable, str(SERVER), version]
        return run_lens("run", str(path), "--format", "junit", "--output", str(junit), *target)

    first = run("1")
    assert first.returncode == exit_codes.OK, first.stdout + first.stderr
    assert ET.parse(junit).getroot().find(".//failure") is None

    second = run("2")
    assert second.returncode == exit_codes.ASSERTION_FAILED, second.stdout + second.stderr
    failed = {
        case.get("name"): case.find("failure").get("message")
        for case in ET.parse(junit).getroot().iter("testcase")
        if case.find("failure") is not None
    }
    assert set(failed) == {"s1 echo keeps the message", "s2 stats fit the schema"}, failed
    assert '"HELLO", expected "hello"' in failed["s1 echo keeps the message"]
    assert "is not of type 'integer'" in failed["s2 stats fit the schema"]
