"""`mcp-lens doctor` against a server that answers with ids it was never sent (tests/servers/hostile.py wrong-id):
the finding its timeouts raise says which id came back instead of only "no answer", for each request."""

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
    said = findings["tools-list"]  # tools/list hung, and the request asking whether it still answers too
    assert said.startswith("the server stopped answering after tools/list"), said
    assert "the server answered with id 424242, " + NEVER_SENT in said, said
    assert said.count(NEVER_SENT) == 2, said
