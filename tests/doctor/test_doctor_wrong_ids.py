"""`mcp-lens doctor` against a server that answers with ids it was never sent (tests/servers/hostile.py wrong-id):
each finding its timeouts raise says which id came back instead of only "no answer"."""

from __future__ import annotations

import json
import sys

from lens_support import HOSTILE, run_lens

NEVER_SENT = "which MCP Lens never sent (it sent id "


def test_every_timeout_finding_names_the_id_that_came_instead() -> None:
    done = run_lens(
        "doctor", "--timeout", "1", "--no-budget", "--format", "json", "--", sys.executable, str(HOSTILE), "wrong-id"
    )
    assert done.returncode == 0, done.stderr
    findings = {f["check"]: f["message"] for f in json.loads(done.stdout)["findings"]}
    assert "the server answered with id 424242, " + NEVER_SENT in findings["tools/list"]
    assert "the server answered with id 424243, " + NEVER_SENT in findings["unknown-tool"]
    assert NEVER_SENT in findings["unresponsive"], findings["unresponsive"]
