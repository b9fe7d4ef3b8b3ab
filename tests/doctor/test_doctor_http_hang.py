"""A Streamable HTTP server that never answers the doctor's own requests (tests/servers/doctor_http_faults.py
``--hang-doctor``: the connection's requests are answered, the probes beside it are not): each check made
of such probes says it was skipped and why, in plain words; none passes silently or blames the server
for an answer it never gave ("answered HTTP nothing")."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest
from lens_support import REPO, free_port, run_lens, serve

SERVER = REPO / "tests/servers/doctor_http_faults.py"
PROBED = {"legacy": ("dns-rebinding", "session-lifecycle"), "modern": ("dns-rebinding", "mcp-headers", "stateless")}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    port = free_port()
    for _ in serve([sys.executable, str(SERVER), "--port", str(port), "--hang-doctor"], port):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_checks_whose_probes_go_unanswered_are_skipped_and_say_why(url: str, era: str) -> None:
    # 5 s per probe: the probes are never answered, the connection's requests may take their time
    done = run_lens(
        "doctor", "--server-url", url, "--protocol-era", era, "--format", "json", "--no-budget", "--timeout", "5",
        timeout=300,
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert report["era"] == era, done.stdout[-2000:]
    checks = {c["check"]: c for c in report["coverage"]["checks"]}
    for check in PROBED[era]:
        said = checks[check]
        assert said["status"] == "skipped", said
        assert "did not answer the doctor's own" in said["reason"] and "5 s" in said["reason"], said
    findings = [(f["check"], f["message"]) for f in report["findings"]]
    assert not [f for f in findings if f[0] in PROBED[era]], findings
    assert not [f for f in findings if "HTTP nothing" in f[1]], findings
