"""Auth extension failures in the app, in words (issue 26): a token endpoint refusing the JWT-bearer grant, an
identity provider refusing the token exchange, a server that keeps asking for a new DPoP nonce; each against
the real loopback authorization server of tests/servers/auth_extensions.py, the user connecting a saved server
and reading the status bar and the Auth tab."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from journey_support import Lens, shown_text
from lens_support import free_port, serve

SERVER = Path(__file__).parents[1] / "servers" / "auth_extensions.py"
WAIT = 60_000


@pytest.fixture(scope="module")
def trusted(tmp_path_factory) -> tuple[ec.EllipticCurvePrivateKey, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path_factory.mktemp("trusted") / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return key, public


def _sign(key: ec.EllipticCurvePrivateKey, **claims: object) -> str:
    now = int(time.time())
    return jwt.encode({"iat": now, "exp": now + 900, **claims}, key, algorithm="ES256")


def _save(lens: Lens, name: str, url: str, extras: dict) -> None:
    folder = lens.home / ".config" / "mcp-lens"
    folder.mkdir(parents=True, exist_ok=True)
    servers = {name: {"type": "http", "url": url}}
    mine = {"version": 1, "servers": {name: extras}}  # the Auth tab's grant settings, as Save to profile keeps them
    (folder / "servers.json").write_text(json.dumps({"mcpServers": servers, "x-mcp-lens": mine}))


def _connect_saved(lens: Lens, name: str) -> None:
    lens.start()
    lens.click_item("Servers", name, double=True)


def _sign_in_failed(lens: Lens) -> tuple[str, str, str]:
    """What the user reads after the failed connect: the status bar, the Auth tab's state, the server panel."""
    lens.wait_status(lambda text: "Sign-in failed" in text, timeout=WAIT)
    status = lens.status()
    lens.tab("Auth")
    auth = lens.find("Auth state")
    lens.wait(lambda: "Sign-in failed" in shown_text(auth), timeout=WAIT, what="the Auth tab says the sign-in failed")
    panel = shown_text(lens.find("Connection state"))
    for text in (status, shown_text(auth), panel):
        assert "AuthError" not in text and "ConnectFailed" not in text, text
    return status, shown_text(auth), panel


def test_a_refused_jwt_bearer_grant_is_said_with_the_token_endpoint_s_answer(lens: Lens, trusted, tmp_path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    (tmp_path / "workload.jwt").write_text(_sign(trusted[0], sub="w", aud="https://elsewhere.example"))
    extras = {
        "oauthGrant": "workload",
        "oauthClientId": "journey",
        "oauthAssertionFile": str(tmp_path / "workload.jwt"),
    }
    for _ in serve([sys.executable, str(SERVER), str(port), str(trusted[1])], port):
        _save(lens, "workload", f"{base}/mcp", extras)
        _connect_saved(lens, "workload")
        status, auth, panel = _sign_in_failed(lens)
        said = (
            f"the authorization server refused the JWT-bearer grant: its token endpoint {base}/token answered HTTP 400"
        )
        assert f"Sign-in failed: {said}" in status and "see the Auth tab" in status, status
        assert "HTTP 401" not in status and "HTTP 401" not in panel, (status, panel)
        assert said in auth and "invalid_grant: workload JWT: Audience doesn't match" in auth, auth
        assert "Check the grant's settings (client id, workload JWT, issuer) in the Auth tab" in auth, auth
        assert said in panel, panel
        assert lens.quit() == 0


def test_a_refused_token_exchange_is_said_as_the_identity_provider_s(lens: Lens, trusted, tmp_path) -> None:
    stranger = ec.generate_private_key(ec.SECP256R1())  # an ID token the identity provider did not issue
    (tmp_path / "id.jwt").write_text(_sign(stranger, iss="https://idp.example.test", sub="alice", aud="idp-client"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extras = {
        "oauthGrant": "enterprise",
        "oauthClientId": "ema-client",
        "oauthClientSecret": "ema-secret",
        "oauthIdpTokenEndpoint": f"{base}/idp/token",
        "oauthIdpClientId": "idp-client",
        "oauthAssertionFile": str(tmp_path / "id.jwt"),
    }
    for _ in serve([sys.executable, str(SERVER), str(port), str(trusted[1])], port):
        _save(lens, "enterprise", f"{base}/mcp", extras)
        _connect_saved(lens, "enterprise")
        status, auth, panel = _sign_in_failed(lens)
        said = (
            f"the identity provider refused the token exchange: its token endpoint {base}/idp/token answered HTTP 400"
        )
        assert f"Sign-in failed: {said}" in status, status
        assert said in auth and "invalid_grant: ID token:" in auth, auth
        assert "Check the identity provider's settings" in auth, auth
        assert said in panel, panel
        assert lens.quit() == 0


def test_a_server_that_keeps_asking_for_a_new_dpop_nonce_is_said_to_be_at_fault(lens: Lens, trusted, tmp_path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    (tmp_path / "workload.jwt").write_text(_sign(trusted[0], sub="w", aud=base))
    extras = {
        "oauthGrant": "workload",
        "oauthClientId": "journey",
        "oauthAssertionFile": str(tmp_path / "workload.jwt"),
        "oauthDpop": True,
    }
    for _ in serve([sys.executable, str(SERVER), str(port), str(trusted[1]), "--dpop", "--nonce-always"], port):
        _save(lens, "nonces", f"{base}/mcp", extras)
        _connect_saved(lens, "nonces")
        status, auth, panel = _sign_in_failed(lens)
        said = f"the MCP server's endpoint {base}/mcp kept asking for a new DPoP nonce"
        assert f"Sign-in failed: {said}" in status, status
        assert said in auth and "stopped after one retry" in auth, auth
        assert "its DPoP nonce handling looks broken: tell the server's operator" in auth, auth
        assert said in panel, panel
        assert lens.quit() == 0
