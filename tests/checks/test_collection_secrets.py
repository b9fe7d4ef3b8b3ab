"""A server's secrets in a collection are ``${NAME}`` references named after where they came from (the
same name in its recorded entry and in every step), which `mcp-lens run` fills from --input, the
environment or the saved profile; `<redacted>` (an older file) is never sent: refused, naming the field.
Against a loopback server that logs every request's target, headers and body."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from canary_support import fresh_home
from lens_support import REPO, free_port, posix_only, run_lens, serve

from inspector.checks.collection import Collection, load, reach_of
from inspector.checks.secret_references import secret_references
from inspector.cli import exit_codes
from inspector.config.profile import ServerProfile

SERVER = str(REPO / "tests" / "servers" / "header_log.py")
PW, TOKEN, REGION = "pw-Secret-9x7", "tok-Secret-4k2q", "eu-Region-77"
SESSION, BEARER = "sess-Secret-abc123", "bearer-Secret-xyz789"
SECRETS = (PW, TOKEN, REGION, SESSION, BEARER)


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    port, log = free_port(), tmp_path / "wire.jsonl"
    for _ in serve([sys.executable, SERVER, str(port), str(log)], port):
        yield port, log


def profile_at(port: int, **headers: str) -> ServerProfile:
    return ServerProfile(
        name="shop",
        transport="http",
        url=f"http://user:{PW}@127.0.0.1:{port}/mcp?token={TOKEN}&region={REGION}",
        headers=headers or {"X-Session": SESSION, "Authorization": f"Bearer {BEARER}"},
    )


def save_echo(path: Path, profile: ServerProfile) -> list[str]:
    """What Save to collection… does for an echo call whose message holds the token and the session."""
    collection = Collection("shop")
    secrets = secret_references(profile)
    message = f"pasted {TOKEN} and {SESSION} and {PW}"
    _step, notes = collection.add_step(
        "tools/call",
        {"name": "echo", "arguments": {"message": message}},
        server="shop",
        reach=reach_of(profile),
        secrets=secrets,
        expect=[{"kind": "success"}],
    )
    collection.save(path)
    return notes


def test_secrets_are_saved_as_named_references(tmp_path: Path) -> None:
    path = tmp_path / "shop.json"
    notes = save_echo(path, profile_at(8123))
    text = path.read_text()
    assert "<redacted>" not in text and not [s for s in SECRETS if s in text], text
    entry = load(path).servers["shop"]
    assert entry["url"] == "http://user:${URL_PASSWORD}@127.0.0.1:8123/mcp?token=${URL_TOKEN}&region=${URL_REGION}"
    assert entry["headers"] == {"X-Session": "${X_SESSION}", "Authorization": "Bearer ${AUTHORIZATION}"}
    message = load(path).steps[0].params["arguments"]["message"]
    assert message == "pasted ${URL_TOKEN} and ${X_SESSION} and ${URL_PASSWORD}"
    assert any("${URL_TOKEN}" in note for note in notes), notes


def wire(log: Path) -> str:
    return log.read_text() if log.exists() else ""


def test_run_fills_the_references_and_sends_no_placeholder(logged, tmp_path: Path) -> None:
    port, log = logged
    path = tmp_path / "shop.json"
    save_echo(path, profile_at(port, **{"X-Session": SESSION}))  # no Authorization: the URL's user:password is Basic
    env = fresh_home(tmp_path)  # no saved profile
    refused = run_lens("run", str(path), env=env)
    assert refused.returncode == exit_codes.USAGE, refused.stderr
    assert "${URL_TOKEN}" in refused.stderr and "${URL_PASSWORD}" in refused.stderr
    assert wire(log) == ""  # nothing sent
    answers = {"URL_PASSWORD": PW, "URL_TOKEN": TOKEN, "X_SESSION": SESSION}
    inputs = ["--input", f"URL_REGION={REGION}"]
    result = run_lens("run", str(path), *inputs, "--format", "json", env={**env, **answers})
    assert result.returncode == exit_codes.OK, result.stdout + result.stderr
    seen = wire(log)
    assert "%3Credacted%3E" not in seen and "<redacted>" not in seen and "${" not in seen
    lines = [json.loads(line) for line in seen.splitlines()]
    targets = {line["target"] for line in lines if "target" in line}
    assert f"/mcp?token={TOKEN}&region={REGION}" in targets, targets
    headers = {k.lower(): v for line in lines for k, v in line.get("headers", [])}
    assert headers["x-session"] == SESSION
    import base64

    assert headers["authorization"] == "Basic " + base64.b64encode(f"user:{PW}".encode()).decode()
    assert any(f"pasted {TOKEN} and {SESSION} and {PW}" in line.get("body", "") for line in lines)
    report = json.loads(result.stdout)
    assert report["steps"][0]["status"] == "passed"
    assert not [s for s in SECRETS if s in result.stdout]  # the report shows the references again


def test_an_older_files_redacted_values_are_refused_naming_the_field(logged, tmp_path: Path) -> None:
    port, log = logged
    url = f"http://127.0.0.1:{port}/mcp"
    older = {
        "format": "mcp-lens-collection",
        "version": 1,
        "name": "older",
        "servers": {
            "clean": {"type": "http", "url": url},
            "hidden": {"type": "http", "url": url + "?token=<redacted>", "headers": {"X-Session": "<redacted>"}},
        },
        "steps": [
            {"id": "s1", "name": "echo", "server": "clean", "method": "tools/call",
             "params": {"name": "echo", "arguments": {"message": "pasted <redacted> here"}}, "expect": []},
            {"id": "s2", "name": "list", "server": "hidden", "method": "tools/list", "params": {}, "expect": []},
        ],
    }  # fmt: skip
    path = tmp_path / "older.json"
    path.write_text(json.dumps(older))
    result = run_lens("run", str(path), "--format", "json", env=fresh_home(tmp_path))
    assert result.returncode == exit_codes.ASSERTION_FAILED, result.stdout + result.stderr
    steps = json.loads(result.stdout)["steps"]
    assert "params.arguments.message holds <redacted>" in steps[0]["reason"], steps[0]
    assert "url, headers.X-Session holds <redacted>" in steps[1]["reason"], steps[1]
    assert "redacted" not in wire(log)


def test_a_second_servers_secret_of_the_same_kind_gets_its_own_name(tmp_path: Path) -> None:
    from inspector.checks.secret_references import reference_values

    shop = profile_at(8123)
    other = ServerProfile(name="back office", transport="http", url="http://127.0.0.1:8124/mcp?token=other-Token-55x")
    collection = Collection("two")
    for profile in (shop, other):
        secrets = secret_references(profile)
        collection.add_step(
            "tools/call",
            {"name": "echo", "arguments": {"message": f"token {profile.url.partition('token=')[2].partition('&')[0]}"}},
            server=profile.name,
            reach=reach_of(profile),
            secrets=secrets,
        )
    assert collection.servers["back office"]["url"].endswith("?token=${BACK_OFFICE_URL_TOKEN}")
    assert collection.steps[1].params["arguments"]["message"] == "token ${BACK_OFFICE_URL_TOKEN}"
    assert collection.steps[0].params["arguments"]["message"] == "token ${URL_TOKEN}"
    values = reference_values([shop, other])  # what Run all fills them with: each server's own
    assert (values["URL_TOKEN"], values["BACK_OFFICE_URL_TOKEN"]) == (TOKEN, "other-Token-55x")


def test_a_step_saved_with_redacted_text_says_it_will_not_be_sent() -> None:
    collection = Collection("from the log")
    _step, notes = collection.add_step("tools/call", {"name": "echo", "arguments": {"message": "a <redacted> b"}})
    assert any("params.arguments.message holds <redacted>" in note and "not sent" in note for note in notes), notes


def test_a_local_servers_env_flags_and_dsn_passwords_become_references() -> None:
    profile = ServerProfile(
        name="local",
        transport="stdio",
        command="python",
        args=["srv.py", "--api-key=abcdef123456", "--token", "tok-zz-99887766"],
        env={"API_TOKEN": "envtok-123456", "DATABASE_URL": "postgres://lens:dsnpw-777@db/app", "PLAIN": "hello"},
    )
    entry = reach_of(profile)
    assert entry["args"] == ["srv.py", "--api-key=${API_KEY}", "--token", "${TOKEN}"]
    assert entry["env"] == {
        "API_TOKEN": "${API_TOKEN}",
        "DATABASE_URL": "postgres://lens:${DATABASE_URL_PASSWORD}@db/app",
        "PLAIN": "hello",
    }


@posix_only("pty (a terminal for the run to ask at)")
def test_run_at_a_terminal_asks_for_what_nothing_gives(logged, tmp_path: Path) -> None:
    import os
    import pty
    import subprocess

    port, log = logged
    path = tmp_path / "shop.json"
    collection = Collection("ask")
    collection.add_step(
        "tools/call", {"name": "echo", "arguments": {"message": "asked ${ASKED_VALUE}"}}, server="shop",
        reach={"type": "http", "url": f"http://127.0.0.1:{port}/mcp"},
    )  # fmt: skip
    collection.save(path)
    main, child = pty.openpty()
    env = {**os.environ, **fresh_home(tmp_path)}
    env.pop("ASKED_VALUE", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector", "run", str(path)], stdin=child, stdout=subprocess.PIPE, stderr=child,
        env=env,
    )  # fmt: skip
    os.close(child)
    seen = b""
    while b"${ASKED_VALUE}: " not in seen:
        chunk = os.read(main, 1024)
        assert chunk, seen
        seen += chunk
    os.write(main, b"typed-at-the-terminal\n")
    out, _ = process.communicate(timeout=120)
    os.close(main)
    assert process.returncode == exit_codes.OK, out
    assert b"asked typed-at-the-terminal" in log.read_bytes()
