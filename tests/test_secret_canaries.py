"""Secret canaries through the headless ways in: `--cli --record`, `tokens`, `doctor`, the tap and
`tap --install`. A server profile carries a unique value in every field a user can fill (env under
known and unknown names, a DSN, headers, URL query, flags, `${input:…}` references); afterwards every
file MCP Lens wrote (under fresh HOME/XDG folders, and the records and reports asked for) is searched
for each value, plain, URL-encoded and JSON-escaped, and what the commands printed is searched too.

No file may hold a canary here: none of these commands writes the user's own configuration (the
config file the test gives them lives in `input/`, outside the searched folders). Files MCP Lens
writes are user-only (0600), its folders 0700.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from canary_support import CANARY_SERVER, Canaries, fresh_home, leaked_text, leaks, loose_permissions
from lens_support import REPO, free_port, run_lens, serve

CALL = ["--method", "tools/call", "--tool-name", "echo", "--tool-args-json", '{"message": "hello"}']


@pytest.fixture
def canaries() -> Canaries:
    return Canaries.make()


@pytest.fixture
def canary_http(canaries: Canaries) -> Iterator[str]:
    """The canary server over Streamable HTTP on a free loopback port; yields its URL (no query)."""
    port = free_port()
    for _ in serve([*CANARY_SERVER, "--http", str(port)], port, {"PYTHONPATH": str(REPO)}):
        yield f"http://127.0.0.1:{port}/mcp"


@pytest.fixture
def setup(tmp_path: Path, canaries: Canaries, canary_http: str) -> tuple[dict[str, str], Path, Path]:
    """(environment, config file, output folder): the config names `canary-stdio` and `canary-http`."""
    env = fresh_home(tmp_path)
    config = tmp_path / "input" / "mcp.json"
    config.parent.mkdir()
    servers = {"canary-stdio": canaries.stdio_entry(), "canary-http": canaries.http_entry(canary_http)}
    servers["canary-gone"] = canaries.http_entry(f"http://127.0.0.1:{free_port()}/mcp")  # nothing listens
    config.write_text(json.dumps({"mcpServers": servers}, indent=2))
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    return env, config, out


def assert_clean(canaries: Canaries, tmp_path: Path, result: subprocess.CompletedProcess[str]) -> None:
    assert not leaked_text(canaries, result.stdout), result.stdout
    assert not leaked_text(canaries, result.stderr), result.stderr
    assert not leaks(canaries, [tmp_path / "home", tmp_path / "out"])


@pytest.mark.parametrize("server", ["canary-stdio", "canary-http"])
def test_cli_record_holds_no_secret(server: str, setup, canaries: Canaries, tmp_path: Path) -> None:
    env, config, out = setup
    record = out / f"{server}.jsonl"
    # a tool argument named like a secret (issue 21 point 2): hidden by value, in the request and the answer
    args = json.dumps(canaries.tool_arguments())
    result = run_lens(
        "--cli", "--config", str(config), "--server", server, *canaries.input_args(), *CALL[:-1], args,
        "--record", str(record), env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    text = record.read_text()
    assert "hello" in text and "<redacted>" in text  # the call is there, its secrets are not
    assert_clean(canaries, tmp_path, result)
    assert not loose_permissions([record])


def test_cli_error_of_a_server_dying_at_start_says_no_secret(setup, canaries: Canaries, tmp_path: Path) -> None:
    env, config, out = setup
    args = ["--cli", "--config", str(config), "--server", "canary-stdio", *canaries.input_args(), *CALL]
    result = run_lens(*args, "--record", str(out / "died.jsonl"), env={**env, "CANARY_EXIT": "1"})
    assert result.returncode != 0 and "canary server started with" in result.stderr, result.stderr
    assert_clean(canaries, tmp_path, result)


def test_errors_of_an_unreachable_server_say_no_secret(setup, canaries: Canaries, tmp_path: Path) -> None:
    env, config, out = setup
    target = ["--config", str(config), "--server", "canary-gone", *canaries.input_args()]
    cli = run_lens("--cli", *target, *CALL, "--record", str(out / "gone.jsonl"), env=env)
    assert cli.returncode != 0 and "connect" in cli.stderr.lower(), cli.stderr
    assert_clean(canaries, tmp_path, cli)
    doctor = run_lens("doctor", *target, "--format", "json", "--output", str(out / "gone-doctor.json"), env=env)
    assert "stopped answering" in (out / "gone-doctor.json").read_text(), doctor.stderr
    assert_clean(canaries, tmp_path, doctor)


def test_run_report_holds_no_secret(setup, canaries: Canaries, tmp_path: Path) -> None:
    env, config, out = setup
    collection = out / "steps.json"
    steps = [{"id": "s1", "name": "echo", "method": "tools/call", "params": {"name": "echo", "arguments": {}}}]
    collection.write_text(json.dumps({"format": "mcp-lens-collection", "version": 1, "name": "c", "steps": steps}))
    collection.chmod(0o600)
    for server in ("canary-stdio", "canary-http"):
        report = out / f"{server}-report.json"
        args = ["run", str(collection), "--config", str(config), "--server", server, *canaries.input_args()]
        result = run_lens(*args, "--format", "json", "--output", str(report), env=env)
        assert report.exists(), result.stderr
        assert_clean(canaries, tmp_path, result)


@pytest.mark.parametrize("server", ["canary-stdio", "canary-http"])
def test_tokens_says_no_secret(server: str, setup, canaries: Canaries, tmp_path: Path) -> None:
    env, config, out = setup
    snapshot = out / "snapshot.json"
    args = ["tokens", "--config", str(config), "--server", server, *canaries.input_args(), "--save", str(snapshot)]
    result = run_lens(*args, env=env)
    assert result.returncode == 0, result.stderr
    assert "echo" in result.stdout and "echo" in snapshot.read_text()
    assert_clean(canaries, tmp_path, result)
    assert not loose_permissions([snapshot])


@pytest.mark.parametrize("server", ["canary-stdio", "canary-http"])
def test_doctor_report_holds_no_secret(server: str, setup, canaries: Canaries, tmp_path: Path) -> None:
    env, config, out = setup
    report = out / "doctor.json"
    args = ["doctor", "--config", str(config), "--server", server, *canaries.input_args()]
    result = run_lens(*args, "--format", "json", "--output", str(report), env=env, timeout=180)
    assert report.exists(), result.stderr
    assert json.loads(report.read_text())
    assert_clean(canaries, tmp_path, result)
    assert not loose_permissions([report])


def test_tap_record_holds_no_secret(canaries: Canaries, tmp_path: Path) -> None:
    env = fresh_home(tmp_path)
    entry = canaries.stdio_entry()
    # A host resolves its `${input:…}` references before it starts the tap: under a plain name, a value
    # shaped like no credential cannot be told from any other setting, so this one is not planted here.
    del entry["env"]["FOO_SETTING"]
    command = [entry["command"], *entry["args"]]
    tap = subprocess.Popen(
        [sys.executable, "-m", "inspector", "tap", "--name", "canary", "--", *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**env, "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", **entry["env"]},
        cwd=tmp_path,
    )
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "host", "version": "1"}}
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    tap.stdin.write(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    tap.stdin.flush()
    answered = b""
    while answered.count(b"\n") < 2:  # initialize and tools/list answered
        chunk = tap.stdout.readline()
        assert chunk, tap.stderr.read()
        answered += chunk
    tap.stdin.close()
    assert tap.wait(60) == 0
    server_said = tap.stderr.read()
    assert canaries["arg-apikey"].encode() in server_said  # the server did print them (the tap passes stderr on)
    data_home = Path(env["XDG_DATA_HOME"])
    records = list((data_home / "mcp-lens" / "taps").glob("*.jsonl"))
    assert records and b"tools/list" in records[0].read_bytes()
    assert not leaks(canaries, [tmp_path / "home"])
    assert not loose_permissions([data_home / "mcp-lens"])


def test_tap_install_diff_shows_no_secret(canaries: Canaries, tmp_path: Path) -> None:
    env = fresh_home(tmp_path)
    config = tmp_path / "home" / ".cursor" / "mcp.json"
    config.parent.mkdir()
    entry = canaries.stdio_entry()
    entry["env"]["FOO_SETTING"] = canaries["input-env"]
    config.write_text(json.dumps({"mcpServers": {"canary": entry}}, indent=2))
    result = subprocess.run(
        [sys.executable, "-m", "inspector", "tap", "--install", str(config), "--server", "canary"],
        input="n\n",
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(REPO)},
        cwd=tmp_path,
        timeout=60,
    )
    assert "--api-key" in result.stdout and "DB_PASS" in result.stdout, result.stdout + result.stderr
    assert not leaked_text(canaries, result.stdout), result.stdout
    assert not leaked_text(canaries, result.stderr), result.stderr


@pytest.fixture
def auth_extension_canaries(tmp_path: Path) -> Iterator[tuple[str, Canaries, dict[str, str]]]:
    """The auth extensions' secrets as canaries (the client secret, the IdP's client secret, the ID token
    signed by a key the test server trusts), and that server (tests/servers/auth_extensions.py, DPoP with
    nonces, the canary as its client secret): (URL, canaries, the environment that holds them)."""
    import time

    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "trusted.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    now = int(time.time())
    claims = {"iss": "https://idp.example.test", "sub": "canary", "aud": "idp-client", "iat": now, "exp": now + 600}
    canaries = Canaries()
    canaries.values["oauth-client-secret"] = "canary oauth client secret " + _hex()
    canaries.values["idp-client-secret"] = "canary idp client secret " + _hex()
    canaries.values["id-token"] = jwt.encode(claims, key, algorithm="ES256")
    port = free_port()
    server = [sys.executable, str(REPO / "tests/servers/auth_extensions.py"), str(port), str(public)]
    server += ["--dpop", "--nonce", "--client-secret", canaries["oauth-client-secret"]]
    env = {
        **fresh_home(tmp_path),
        "EMA_SECRET": canaries["oauth-client-secret"],
        "IDP_SECRET": canaries["idp-client-secret"],
        "ID_TOKEN": canaries["id-token"],
    }
    for _ in serve(server, port):
        yield f"http://127.0.0.1:{port}", canaries, env


def _hex() -> str:
    import secrets

    return secrets.token_hex(8)


def test_the_auth_extensions_secrets_reach_no_file_and_no_output(auth_extension_canaries, tmp_path: Path) -> None:
    """Enterprise-managed authorization with DPoP from the CLI, recorded: the client secrets and the ID token
    are in no file MCP Lens wrote (the record, the token store) and in nothing it printed."""
    base, canaries, env = auth_extension_canaries
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    flags = ["--oauth-grant", "enterprise", "--oauth-client-id", "ema-client"]
    flags += ["--oauth-client-secret-env", "EMA_SECRET"]
    flags += ["--oauth-idp-token-endpoint", f"{base}/idp/token", "--oauth-idp-client-id", "idp-client"]
    flags += ["--oauth-idp-client-secret-env", "IDP_SECRET", "--oauth-jwt-env", "ID_TOKEN", "--dpop"]
    flags += ["--secrets-file"]  # no keyring here: ticked, so the token store is written (and checked)
    record = out / "ema.jsonl"
    call = ["--method", "tools/call", "--tool-name", "whoami"]
    result = run_lens("--cli", f"{base}/mcp", *flags, *call, "--record", str(record), env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "/idp/token" in record.read_text() and "<redacted>" in record.read_text()
    assert_clean(canaries, tmp_path, result)
    assert list((tmp_path / "home").rglob("auth/*.json"))  # the token store was written, and holds none of them
    assert not loose_permissions([record, *(tmp_path / "home").rglob("auth")])
