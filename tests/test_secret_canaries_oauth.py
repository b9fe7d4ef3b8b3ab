"""Secret canaries through OAuth (client credentials, no browser): `mcp-lens --cli --record` against the
loopback machine-to-machine server of tests/auth, with the client secret kept in the profile. Neither the
client secret (nor its HTTP Basic form) nor the access token the server issued may appear in any file
MCP Lens wrote or in what it printed, except where each belongs:

- `input/servers.json`: the user's configuration, given to the command (the client secret is in it);
- the token store's file (`…/mcp-lens/auth/*.json`, 0600), only when the user ticked `--secrets-file`
  (no keyring here): then its job is to keep the token. Not ticked, no file holds it.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from canary_support import fresh_home, loose_permissions
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from lens_support import REPO, free_port, run_lens, serve

AUTH_TESTS = REPO / "tests" / "auth"
sys.path.insert(0, str(AUTH_TESTS))
from machine_server import CLIENT_ID, CLIENT_SECRET  # noqa: E402


@pytest.fixture
def machine_server(tmp_path: Path) -> Iterator[str]:
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    port = free_port()
    for _ in serve([sys.executable, str(AUTH_TESTS / "machine_server.py"), str(port), str(public)], port):
        yield f"http://127.0.0.1:{port}"


def _write_config(tmp_path: Path, machine_server: str) -> Path:
    config = tmp_path / "input" / "servers.json"
    config.parent.mkdir()
    client = {"oauthClientId": CLIENT_ID, "oauthClientSecret": CLIENT_SECRET, "oauthGrant": "client_credentials"}
    extras = {"m2m": client}
    servers = {"m2m": {"type": "http", "url": f"{machine_server}/mcp"}}
    config.write_text(json.dumps({"mcpServers": servers, "x-mcp-lens": {"version": 1, "servers": extras}}))
    return config


def test_without_a_keyring_or_the_tick_no_file_holds_the_token(machine_server: str, tmp_path: Path) -> None:
    env = fresh_home(tmp_path)
    config = _write_config(tmp_path, machine_server)
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    record = out / "oauth.jsonl"
    call = ["--method", "tools/call", "--tool-name", "whoami"]
    result = run_lens("--cli", "--config", str(config), "--server", "m2m", *call, "--record", str(record), env=env)
    assert result.returncode == 0, result.stderr
    assert "machine client" in result.stdout
    assert "No keyring on this machine: the token is kept for this session only" in result.stderr
    token = re.compile(rb"m2m-[A-Za-z0-9_-]{22}")  # what machine_server issues
    basic = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode())
    written = [p for p in [*(tmp_path / "home").rglob("*"), *out.rglob("*")] if p.is_file()]
    assert record in written
    for path in written:
        data = path.read_bytes()
        assert not token.search(data) and CLIENT_SECRET.encode() not in data and basic not in data, path
    assert not [p for p in (tmp_path / "home").rglob("*.json") if "auth" in p.parts]


def test_client_secret_and_token_appear_nowhere_else(machine_server: str, tmp_path: Path) -> None:
    env = fresh_home(tmp_path)
    config = _write_config(tmp_path, machine_server)
    out = tmp_path / "out"
    out.mkdir(mode=0o700)
    record = out / "oauth.jsonl"
    call = ["--method", "tools/call", "--tool-name", "whoami", "--secrets-file"]
    result = run_lens("--cli", "--config", str(config), "--server", "m2m", *call, "--record", str(record), env=env)
    assert result.returncode == 0, result.stderr
    assert "machine client" in result.stdout
    assert b"grant_type=client_credentials" in record.read_bytes()  # the token exchange is in the record

    home = tmp_path / "home"
    token_files = [p for p in home.rglob("*.json") if "auth" in p.parts]
    assert token_files, sorted(str(p) for p in home.rglob("*"))
    token = json.loads(token_files[0].read_text())["tokens"]["access_token"]
    basic = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode())
    secrets = {CLIENT_SECRET.encode(), basic, token.encode()}
    written = [p for p in [*home.rglob("*"), *out.rglob("*")] if p.is_file() and p not in token_files]
    for path in written:
        data = path.read_bytes()
        assert not [s for s in secrets if s in data], path
    for printed in (result.stdout, result.stderr):
        assert not [s for s in secrets if s in printed.encode()], printed
    assert not loose_permissions([record, *token_files])
