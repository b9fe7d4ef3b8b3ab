"""Secret canaries through a collection: a call saved as Save to collection… saves it (its message holding
three of the server's secrets) and `mcp-lens run` replays it, against a loopback server that logs every
request's target, headers and body. The collection file holds no canary and no `<redacted>`; a run
without the answers sends nothing at all; a run with them sends the real values, never `<redacted>`,
and writes no canary anywhere."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from canary_support import Canaries, fresh_home, leaked_text, leaks, loose_permissions
from lens_support import REPO, free_port, run_lens, serve

from inspector.checks.collection import Collection, reach_of
from inspector.checks.secret_references import secret_references
from inspector.cli import exit_codes
from inspector.config.profile import ServerProfile
from inspector.config.references import resolve_profile

SERVER = str(REPO / "tests" / "servers" / "header_log.py")


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    port, log = free_port(), tmp_path / "listener.jsonl"
    for _ in serve([sys.executable, SERVER, str(port), str(log)], port):
        yield f"http://127.0.0.1:{port}/mcp", log


def test_a_collection_keeps_and_sends_no_placeholder_and_leaks_no_canary(listener, tmp_path: Path) -> None:
    url, log = listener
    canaries = Canaries.make()
    entry = canaries.http_entry(url)
    profile = resolve_profile(ServerProfile.from_entry("canary-http", entry), {}, canaries.inputs())
    secrets = secret_references(profile)
    message = f"pasted {canaries['query-token']} and {canaries['bearer']} and {canaries['x-session']}"
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    path = out / "canary.json"
    collection = Collection("canary")
    collection.add_step(
        "tools/call",
        {"name": "echo", "arguments": {"message": message}},
        server="canary-http",
        reach=reach_of(profile),
        secrets=secrets,
        expect=[{"kind": "success"}],  # as Save to collection… writes it
    )
    collection.save(path)
    saved = path.read_bytes()
    assert not canaries.found_in(saved) and b"<redacted>" not in saved, saved.decode()

    env = fresh_home(tmp_path)  # no saved profile: reached as the collection records it
    refused = run_lens("run", str(path), env=env)
    assert refused.returncode == exit_codes.USAGE, refused.stderr
    assert not log.exists() or log.read_text() == ""  # nothing reached the listener

    answers = [word for value, name in secrets.items() for word in ("--input", f"{name}={value}")]
    report = out / "report.json"
    result = run_lens("run", str(path), *answers, "--format", "json", "--output", str(report), env=env)
    assert result.returncode == exit_codes.OK, result.stderr
    wire = log.read_bytes()
    assert b"redacted" not in wire and b"${" not in wire, wire.decode()
    lines = [json.loads(line) for line in wire.decode().splitlines()]
    assert any(line.get("body", "").find(canaries["bearer"]) >= 0 for line in lines)  # the real values went
    assert not leaked_text(canaries, result.stdout + result.stderr)
    assert not leaks(canaries, [tmp_path / "home", out])
    assert not loose_permissions([path, report])
