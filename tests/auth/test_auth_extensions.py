"""The auth extensions against a real loopback authorization server of ours (tests/servers/auth_extensions.py):
workload identity (SEP-1933), enterprise-managed authorization (SEP-990) and DPoP-bound tokens with the
servers' nonces (RFC 9449), each through `ServerAuth` as the app and the CLI build it, the OAuth tap and
the auth log; no secret in what is recorded."""

from __future__ import annotations

import asyncio
import json
import sys
import time
import urllib.request
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from lens_support import free_port, run_lens, serve

from inspector.auth.events import AuthLog
from inspector.auth.signin import ServerAuth
from inspector.auth.storage import FileBackend
from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.errors import LensError
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore

SERVER = Path(__file__).parents[1] / "servers" / "auth_extensions.py"
IDP_ISSUER, IDP_CLIENT = "https://idp.example.test", "idp-client"
EMA_CLIENT, EMA_SECRET = "ema-client", "ema-secret"


@pytest.fixture(scope="module")
def trusted(tmp_path_factory) -> tuple[ec.EllipticCurvePrivateKey, Path]:
    """The key that signs workload JWTs and ID tokens, and its public half for the server."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path_factory.mktemp("trusted") / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return key, public


def _server(trusted, *flags: str):
    port = free_port()
    for _ in serve([sys.executable, str(SERVER), str(port), str(trusted[1]), *flags], port):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture
def plain_server(trusted):
    yield from _server(trusted)


@pytest.fixture
def unbound_server(trusted):
    yield from _server(trusted, "--dpop", "--unbound")


@pytest.fixture
def foreign_resource_server(trusted):
    yield from _server(trusted, "--foreign-resource", "https://elsewhere.example/mcp")


@pytest.fixture
def dpop_server(trusted):
    yield from _server(trusted, "--dpop")


@pytest.fixture
def nonce_server(trusted):
    yield from _server(trusted, "--dpop", "--nonce")


def _stats(base: str) -> dict:
    with urllib.request.urlopen(f"{base}/stats", timeout=10) as response:
        return json.loads(response.read())


def _sign(trusted, **claims) -> str:
    now = int(time.time())
    return jwt.encode({"iat": now, "exp": now + 600, **claims}, trusted[0], algorithm="ES256")


async def _whoami(profile: ServerProfile, auth: ServerAuth, store: TrafficStore) -> str:
    transport = make_transport(profile, store, auth=auth.provider)
    async with Connection(transport, connect_timeout=60, request_timeout=60) as conn:
        assert [t["name"] for t in (await conn.list_tools()).tools] == ["whoami"]
        outcome = await conn.call_tool("whoami", {})
    return json.dumps(outcome.result)


def _recorded(store: TrafficStore) -> bytes:
    return b"\n".join(e.raw + json.dumps(e.http or {}).encode() for e in list(store))


def _workload(base: str, jwt_file: Path, **extra) -> ServerProfile:
    return ServerProfile(
        name="wif",
        transport="http",
        url=f"{base}/mcp",
        oauth_grant="workload",
        oauth_client_id="workload-client",
        oauth_assertion_file=str(jwt_file),
        **extra,
    )


def test_a_workload_jwt_from_a_file_is_the_jwt_bearer_grant_recorded_redacted(plain_server, trusted, tmp_path):
    workload = _sign(trusted, iss="https://ci.example.test", sub="repo:lens", aud=plain_server)
    (tmp_path / "token.jwt").write_text(workload + "\n")
    profile = _workload(plain_server, tmp_path / "token.jwt")
    log, store = AuthLog(), TrafficStore()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    assert auth.machine  # no browser, ever
    assert "through an auth extension" in asyncio.run(_whoami(profile, auth, store))
    (seen,) = _stats(plain_server)["token_requests"]
    assert seen["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
    assert (seen["client_id"], seen["subject"]) == ("workload-client", "repo:lens")
    # The token request is in the traffic log, its assertion redacted; the token is nowhere.
    oauth = [e for e in list(store) if e.transport == "oauth"]
    grant = next(e for e in oauth if e.raw.startswith(b"POST") and b"/token" in e.raw)
    assert b"grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer" in grant.raw
    assert b"assertion=%3Credacted%3E" in grant.raw or b"assertion=<redacted>" in grant.raw
    recorded = _recorded(store)
    assert workload.encode() not in recorded
    assert auth.storage.tokens().access_token.encode() not in recorded
    summaries = [e.summary for e in log.events]
    assert any("workload JWT read from file" in s for s in summaries), summaries


def test_a_refused_workload_jwt_fails_once_with_the_servers_reason_and_is_not_retried(plain_server, trusted, tmp_path):
    wrong = _sign(trusted, iss="https://ci.example.test", sub="repo:lens", aud="https://elsewhere.example")
    (tmp_path / "token.jwt").write_text(wrong)
    profile = _workload(plain_server, tmp_path / "token.jwt")
    log = AuthLog()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    with pytest.raises(LensError) as failure:
        asyncio.run(_whoami(profile, auth, TrafficStore()))
    assert "invalid_grant" in str(failure.value) and "audience" in str(failure.value).lower()
    assert len(_stats(plain_server)["token_requests"]) == 1  # SEP-1933: no retry, no other grant
    assert any(not e.ok and "not retried" in e.summary for e in log.events)


def test_enterprise_managed_authorization_exchanges_the_id_token_for_an_id_jag_then_a_token(
    plain_server, trusted, tmp_path, monkeypatch
):
    id_token = _sign(trusted, iss=IDP_ISSUER, sub="alice@example.test", aud=IDP_CLIENT)
    monkeypatch.setenv("LENS_TEST_ID_TOKEN", id_token)
    profile = ServerProfile(
        name="ema",
        transport="http",
        url=f"{plain_server}/mcp",
        oauth_grant="enterprise",
        oauth_client_id=EMA_CLIENT,
        oauth_client_secret=EMA_SECRET,
        oauth_idp_token_endpoint=f"{plain_server}/idp/token",
        oauth_idp_client_id=IDP_CLIENT,
        oauth_assertion_env="LENS_TEST_ID_TOKEN",
    )
    log, store = AuthLog(), TrafficStore()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    assert "through an auth extension" in asyncio.run(_whoami(profile, auth, store))
    stats = _stats(plain_server)
    (exchange,) = stats["exchanges"]
    assert exchange == {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "requested_token_type": "urn:ietf:params:oauth:token-type:id-jag",
        "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
        "audience": plain_server,
        "resource": f"{plain_server}/mcp",
        "dpop": False,
    }
    (grant,) = stats["token_requests"]
    assert (grant["client_id"], grant["subject"]) == (EMA_CLIENT, "alice@example.test")
    recorded = _recorded(store)
    for secret in (id_token, EMA_SECRET, auth.storage.tokens().access_token):
        assert secret.encode() not in recorded
    assert b"/idp/token" in recorded  # the exchange is in the traffic log, its tokens redacted
    summaries = [e.summary for e in log.events]
    assert any("ID token → ID-JAG" in s for s in summaries) and any("ID-JAG received" in s for s in summaries)


@pytest.mark.parametrize("server_fixture", ["dpop_server", "nonce_server"])
def test_dpop_binds_the_token_and_proves_each_request_answering_both_nonces(server_fixture, request, trusted, tmp_path):
    base = request.getfixturevalue(server_fixture)
    nonce = server_fixture == "nonce_server"
    (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="w", aud=base))
    profile = _workload(base, tmp_path / "token.jwt", oauth_dpop=True)
    log, store = AuthLog(), TrafficStore()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    assert "through an auth extension" in asyncio.run(_whoami(profile, auth, store))
    stats = _stats(base)
    assert [t["dpop"] for t in stats["token_requests"]] == (["nonce asked", "ok"] if nonce else ["ok"])
    presented = [r for r in stats["resource"] if r["scheme"]]
    assert presented and not [r for r in presented if "problem" in r], presented
    assert {r["scheme"] for r in presented} == {"DPoP"}
    assert sum("nonce" in r for r in presented) == (1 if nonce else 0)  # asked once, then reused
    steps = [(e.step, e.summary) for e in log.events]
    assert any(step == "dpop" and "DPoP-bound token issued" in s for step, s in steps), steps
    if nonce:
        assert sum("use_dpop_nonce" in s for _, s in steps) == 2  # token endpoint, then /mcp
    # The key and the binding are kept with the tokens: a new run presents the stored token as DPoP.
    thumbprint = auth.provider.dpop.key.thumbprint
    again = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=AuthLog())
    assert again.provider.dpop.key.thumbprint == thumbprint
    asyncio.run(_whoami(profile, again, TrafficStore()))
    assert len(_stats(base)["token_requests"]) == len(stats["token_requests"])  # no new token
    assert not [r for r in _stats(base)["resource"] if "problem" in r]
    assert (tmp_path / "auth").stat().st_mode & 0o777 == 0o700
    assert all(f.stat().st_mode & 0o777 == 0o600 for f in (tmp_path / "auth").iterdir())
    recorded = _recorded(store)
    assert b"PRIVATE KEY" not in recorded and auth.storage.tokens().access_token.encode() not in recorded
    assert b"DPoP" in recorded  # the proofs are shown as sent (public key and request facts only)


@pytest.mark.parametrize("grant", ["workload", None])
def test_a_stored_dpop_bound_token_goes_as_dpop_with_a_proof_when_the_setting_is_off(
    dpop_server, trusted, tmp_path, grant
):
    """The binding is the token's: the same URL without DPoP ticked (same grant, or none) still proves."""
    (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="w", aud=dpop_server))
    bound = _workload(dpop_server, tmp_path / "token.jwt", oauth_dpop=True)
    asyncio.run(_whoami(bound, ServerAuth(bound, backend=FileBackend(tmp_path / "auth")), TrafficStore()))
    issued = len(_stats(dpop_server)["token_requests"])
    if grant:
        unticked = _workload(dpop_server, tmp_path / "token.jwt")
    else:
        unticked = ServerProfile(name="added", transport="http", url=f"{dpop_server}/mcp")
    auth = ServerAuth(unticked, backend=FileBackend(tmp_path / "auth"))
    assert auth.state().dpop_bound
    asyncio.run(_whoami(unticked, auth, TrafficStore()))
    stats = _stats(dpop_server)
    assert len(stats["token_requests"]) == issued  # the stored token was used
    presented = [r for r in stats["resource"] if r["scheme"]]
    assert not [r for r in presented if "problem" in r], presented
    assert {r["scheme"] for r in presented} == {"DPoP"}


def test_the_cli_signs_in_with_a_workload_jwt_and_dpop_from_its_flags(nonce_server, trusted, tmp_path):
    (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="cli", aud=nonce_server))
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "MCP_LENS_NO_KEYRING": "1"}
    flags = ["--oauth-grant", "workload", "--oauth-client-id", "cli-workload"]
    flags += ["--oauth-jwt-file", str(tmp_path / "token.jwt"), "--dpop", "--secrets-file"]  # no keyring here
    url = f"{nonce_server}/mcp"
    done = run_lens("--cli", url, *flags, "--method", "tools/call", "--tool-name", "whoami", env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "through an auth extension" in done.stdout
    stats = _stats(nonce_server)
    assert [t["dpop"] for t in stats["token_requests"]] == ["nonce asked", "ok"]
    assert stats["token_requests"][-1]["client_id"] == "cli-workload"
    assert {r["scheme"] for r in stats["resource"] if r["scheme"]} == {"DPoP"}
    assert not [r for r in stats["resource"] if "problem" in r]
    # The token and the proof key were stored (0600): --stored-auth-only reuses them, no new grant.
    again = run_lens("--cli", url, *flags, "--stored-auth-only", "--method", "tools/list", env=env, timeout=120)
    assert again.returncode == 0, again.stderr
    assert len(_stats(nonce_server)["token_requests"]) == 2


def _cli_workload(base: str, jwt_file: Path, tmp_path: Path, *more: str):
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "MCP_LENS_NO_KEYRING": "1"}
    flags = ["--oauth-grant", "workload", "--oauth-client-id", "cli-workload", "--oauth-jwt-file", str(jwt_file)]
    return run_lens(
        "--cli", f"{base}/mcp", *flags, "--secrets-file", *more, "--method", "tools/list", env=env, timeout=120
    )


def test_the_cli_says_a_refused_token_request_is_a_sign_in_failure_with_the_token_endpoints_status(
    plain_server, trusted, tmp_path
):
    wrong = _sign(trusted, iss="https://ci.example.test", sub="repo:lens", aud="https://elsewhere.example")
    (tmp_path / "token.jwt").write_text(wrong)
    done = _cli_workload(plain_server, tmp_path / "token.jwt", tmp_path)
    assert done.returncode == 11, done.stderr  # OAuth sign-in failed, not "connection"
    assert "HTTP 400" in done.stderr and "invalid_grant" in done.stderr, done.stderr
    assert "HTTP 401" not in done.stderr, done.stderr
    assert f"{plain_server}/token" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "answer", ["<html>garbage</html>", '{"access_token": 5, "token_type": "Bearer"}', '["not", "a", "token"]']
)
def test_the_cli_says_in_words_what_a_garbage_token_answer_held(trusted, tmp_path, answer):
    port = free_port()
    for _ in serve([sys.executable, str(SERVER), str(port), str(trusted[1]), "--token-answer", answer], port):
        base = f"http://127.0.0.1:{port}"
        (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="w", aud=base))
        done = _cli_workload(base, tmp_path / "token.jwt", tmp_path)
    assert done.returncode == 11, done.stderr
    assert "pydantic" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    message = json.loads(done.stderr.strip().splitlines()[-1])["message"]
    assert repr(answer) in message and f"{base}/token" in message, message


def test_a_server_asking_a_new_dpop_nonce_each_time_is_retried_once_and_said(trusted, tmp_path):
    port = free_port()
    for _ in serve([sys.executable, str(SERVER), str(port), str(trusted[1]), "--dpop", "--nonce-always"], port):
        base = f"http://127.0.0.1:{port}"
        (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="w", aud=base))
        done = _cli_workload(base, tmp_path / "token.jwt", tmp_path, "--dpop")
        stats = _stats(base)
    assert done.returncode == 11, done.stderr
    message = json.loads(done.stderr.strip().splitlines()[-1])["message"]
    assert "kept asking for a new DPoP nonce" in message, message
    assert "Check the URL's path" not in done.stderr, done.stderr
    assert [r.get("nonce") for r in stats["resource"] if r["scheme"] == "DPoP"] == ["asked", "asked"]  # one retry


def _records(tmp_path: Path) -> list[dict]:
    folder = tmp_path / "config" / "mcp-lens" / "auth"
    return [json.loads(f.read_text()) for f in folder.iterdir()] if folder.exists() else []


def test_a_failed_cli_sign_in_keeps_no_new_dpop_key(dpop_server, trusted, tmp_path):
    wrong = _sign(trusted, iss="https://ci.example.test", sub="w", aud="https://elsewhere.example")
    (tmp_path / "token.jwt").write_text(wrong)
    for _ in range(2):
        assert _cli_workload(dpop_server, tmp_path / "token.jwt", tmp_path, "--dpop").returncode == 11
    assert not [r for r in _records(tmp_path) if "dpop_key" in r], _records(tmp_path)


def test_the_stored_record_holds_the_issued_token_type_and_no_url_query_secret(dpop_server, trusted, tmp_path):
    secret = "sk-live-0123456789abcdef0123"
    (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="w", aud=dpop_server))
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "MCP_LENS_NO_KEYRING": "1"}
    flags = ["--oauth-grant", "workload", "--oauth-client-id", "cli", "--oauth-jwt-file", str(tmp_path / "token.jwt")]
    url = f"{dpop_server}/mcp?api_key={secret}"
    for _ in range(2):  # the second run reads the record the first one wrote
        done = run_lens(
            "--cli", url, *flags, "--dpop", "--secrets-file", "--method", "tools/list", env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
    assert len(_stats(dpop_server)["token_requests"]) == 1
    (record,) = _records(tmp_path)
    assert secret not in json.dumps(record) and "api_key=" in record["server_url"], record["server_url"]
    assert record["tokens"]["token_type"] == "DPoP"
    assert record["dpop_key"]


def test_the_cli_runs_enterprise_managed_authorization_with_secrets_from_the_environment(
    plain_server, trusted, tmp_path
):
    env = {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "MCP_LENS_NO_KEYRING": "1",
        "EMA_SECRET": EMA_SECRET,
        "MY_ID_TOKEN": _sign(trusted, iss=IDP_ISSUER, sub="bob@example.test", aud=IDP_CLIENT),
    }
    flags = ["--oauth-grant", "enterprise", "--oauth-client-id", EMA_CLIENT, "--oauth-client-secret-env", "EMA_SECRET"]
    flags += ["--oauth-idp-token-endpoint", f"{plain_server}/idp/token", "--oauth-idp-client-id", IDP_CLIENT]
    flags += ["--oauth-jwt-env", "MY_ID_TOKEN"]
    done = run_lens("--cli", f"{plain_server}/mcp", *flags, "--method", "tools/list", env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "whoami" in done.stdout
    assert _stats(plain_server)["token_requests"][0]["subject"] == "bob@example.test"
    missing = run_lens(
        "--cli",
        f"{plain_server}/mcp",
        "--oauth-client-secret-env",
        "NOT_SET_ANYWHERE",
        "--method",
        "tools/list",
        env=env,
    )
    assert missing.returncode != 0 and "NOT_SET_ANYWHERE" in missing.stderr


def test_enterprise_managed_authorization_signs_in_at_the_identity_provider_when_no_id_token_is_given(
    plain_server, tmp_path, browser
):
    profile = ServerProfile(
        name="ema-sso",
        transport="http",
        url=f"{plain_server}/mcp",
        oauth_grant="enterprise",
        oauth_client_id=EMA_CLIENT,
        oauth_client_secret=EMA_SECRET,
        oauth_idp_issuer=f"{plain_server}/idp",
        oauth_idp_token_endpoint=f"{plain_server}/idp/token",
        oauth_idp_client_id=IDP_CLIENT,
    )
    log, store = AuthLog(), TrafficStore()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    assert not auth.machine  # this one needs the browser, at the IdP
    # A connection without a stored ID token stops and asks for a sign-in (no browser from a connection).
    with pytest.raises(LensError):
        asyncio.run(_whoami(profile, auth, store))
    assert auth.needs_sign_in and not browser.opened
    asyncio.run(auth.sign_in(store, opener=browser))
    assert browser.opened and browser.opened[0].startswith(f"{plain_server}/idp/authorize?")
    (login,) = _stats(plain_server)["idp_logins"]
    assert login == {"client_id": IDP_CLIENT, "scope": "openid email profile", "code_challenge_method": "S256"}
    assert _stats(plain_server)["token_requests"][-1]["subject"] == "sso-user@example.test"
    # Connections use the stored token; with the token gone, the stored ID token is exchanged again, no browser.
    assert "through an auth extension" in asyncio.run(_whoami(profile, auth, store))
    record = json.loads(next((tmp_path / "auth").glob("*.json")).read_text())
    record.pop("tokens"), record.pop("expires_at", None)
    next((tmp_path / "auth").glob("*.json")).write_text(json.dumps(record))
    again = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=AuthLog())
    assert "through an auth extension" in asyncio.run(_whoami(profile, again, TrafficStore()))
    assert len(_stats(plain_server)["idp_logins"]) == 1 and len(_stats(plain_server)["exchanges"]) == 2
    recorded = _recorded(store)
    assert record["idp_id_token"].encode() not in recorded
    assert b"/idp/.well-known/openid-configuration" in recorded  # the login's own requests are in the log


def test_resource_metadata_naming_another_server_does_not_aim_the_id_jag_there(
    foreign_resource_server, trusted, tmp_path, monkeypatch
):
    base = foreign_resource_server
    monkeypatch.setenv("LENS_TEST_ID_TOKEN", _sign(trusted, iss=IDP_ISSUER, sub="carol@example.test", aud=IDP_CLIENT))
    profile = ServerProfile(
        name="ema",
        transport="http",
        url=f"{base}/mcp",
        oauth_grant="enterprise",
        oauth_client_id=EMA_CLIENT,
        oauth_client_secret=EMA_SECRET,
        oauth_idp_token_endpoint=f"{base}/idp/token",
        oauth_idp_client_id=IDP_CLIENT,
        oauth_assertion_env="LENS_TEST_ID_TOKEN",
    )
    log = AuthLog()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    assert "through an auth extension" in asyncio.run(_whoami(profile, auth, TrafficStore()))
    (exchange,) = _stats(base)["exchanges"]
    assert exchange["resource"] == f"{base}/mcp"  # this server's own resource, not the one the metadata named
    assert any("names another resource (https://elsewhere.example/mcp)" in e.summary for e in log.events)


def test_a_bearer_token_issued_despite_the_proof_is_presented_as_bearer_and_said(unbound_server, trusted, tmp_path):
    (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="w", aud=unbound_server))
    profile = _workload(unbound_server, tmp_path / "token.jwt", oauth_dpop=True)
    log = AuthLog()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    assert "through an auth extension" in asyncio.run(_whoami(profile, auth, TrafficStore()))
    stats = _stats(unbound_server)
    assert [t["dpop"] for t in stats["token_requests"]] == ["ok"]  # the proof went with the token request
    assert {r["scheme"] for r in stats["resource"] if r["scheme"]} == {"Bearer"}
    assert any(not e.ok and "not DPoP-bound" in e.summary for e in log.events)
    assert not auth.state().dpop_bound
    # A later run knows the stored token is a Bearer one.
    again = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=AuthLog())
    asyncio.run(_whoami(profile, again, TrafficStore()))
    assert len(_stats(unbound_server)["token_requests"]) == 1
    assert {r["scheme"] for r in _stats(unbound_server)["resource"] if r["scheme"]} == {"Bearer"}


def test_dpop_against_a_server_without_dpop_says_so_and_uses_its_bearer_token(plain_server, trusted, tmp_path):
    (tmp_path / "token.jwt").write_text(_sign(trusted, iss="https://ci.example.test", sub="w", aud=plain_server))
    profile = _workload(plain_server, tmp_path / "token.jwt", oauth_dpop=True)
    log = AuthLog()
    auth = ServerAuth(profile, backend=FileBackend(tmp_path / "auth"), log=log)
    assert "through an auth extension" in asyncio.run(_whoami(profile, auth, TrafficStore()))
    summaries = [e.summary for e in log.events if e.step == "dpop"]
    assert any("does not list DPoP algorithms" in s for s in summaries), summaries
    assert any("not DPoP-bound" in s for s in summaries), summaries
