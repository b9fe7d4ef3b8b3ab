"""Client credentials (no browser) through our providers and taps, against a loopback M2M server
(tests/auth/machine_server.py): with a client secret (HTTP Basic) and with a private_key_jwt assertion."""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.request
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from lens_support import free_port, serve
from machine_server import CLIENT_ID, CLIENT_SECRET

from inspector.auth.events import AuthLog
from inspector.auth.flows import FLOWS, supported_flows_text
from inspector.auth.machine import client_credentials_provider
from inspector.auth.storage import MemoryBackend, ServerTokenStorage
from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.errors import LensError
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore

SERVER = Path(__file__).with_name("machine_server.py")


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> tuple[str, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = tmp_path_factory.mktemp("m2m") / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return private, public


@pytest.fixture
def machine_server(keys):
    port = free_port()
    for _ in serve([sys.executable, str(SERVER), str(port), str(keys[1])], port):
        yield f"http://127.0.0.1:{port}"


def _stats(base: str) -> dict:
    with urllib.request.urlopen(f"{base}/stats", timeout=5) as response:
        return json.loads(response.read())


async def _whoami(url: str, provider, store: TrafficStore) -> str:
    profile = ServerProfile(name="m2m", transport="http", url=url)
    async with Connection(make_transport(profile, store, auth=provider), connect_timeout=15) as conn:
        assert [t["name"] for t in (await conn.list_tools()).tools] == ["whoami"]
        outcome = await conn.call_tool("whoami", {})
    return json.dumps(outcome.result)


@pytest.mark.parametrize("method", ["client_secret_basic", "private_key_jwt"])
def test_client_credentials_sign_in_without_a_browser_and_the_token_exchange_is_recorded_redacted(
    machine_server, keys, method
):
    url = f"{machine_server}/mcp"
    log, store = AuthLog(), TrafficStore()
    provider = client_credentials_provider(
        url,
        ServerTokenStorage(MemoryBackend(), url),
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET if method == "client_secret_basic" else None,
        private_key_pem=keys[0] if method == "private_key_jwt" else None,
        signing_algorithm="ES256",
        log=log,
    )
    assert "machine client" in asyncio.run(_whoami(url, provider, store))
    requests = _stats(machine_server)["token_requests"]
    assert requests == [{"grant_type": "client_credentials", "auth": method}]
    # The OAuth tap recorded the token exchange, with the secret, the assertion and the token redacted.
    oauth = [e for e in list(store) if e.transport == "oauth"]
    token_request = next(e for e in oauth if e.raw.startswith(b"POST") and b"/token" in e.raw)
    assert b"grant_type=client_credentials" in token_request.raw
    everything = b"\n".join(e.raw + json.dumps(e.http or {}).encode() for e in list(store))
    assert CLIENT_SECRET.encode() not in everything
    assert provider.context.current_tokens.access_token.encode() not in everything
    assert "token" in [event.step for event in log.events]


def test_a_wrong_secret_fails_the_connection_with_the_servers_answer(machine_server):
    url = f"{machine_server}/mcp"
    provider = client_credentials_provider(
        url, ServerTokenStorage(MemoryBackend(), url), client_id=CLIENT_ID, client_secret="wrong"
    )
    with pytest.raises(LensError) as failure:
        asyncio.run(_whoami(url, provider, TrafficStore()))
    assert "invalid_client" in str(failure.value) or "401" in str(failure.value)


def test_client_credentials_need_a_secret_or_a_key():
    with pytest.raises(ValueError):
        client_credentials_provider("http://127.0.0.1:1/mcp", ServerTokenStorage(MemoryBackend(), "x"), client_id="c")


def test_the_flow_list_says_what_this_build_supports():
    text = supported_flows_text()
    assert text.splitlines()[0].startswith("✓ supported: Authorization code + PKCE")
    assert all(f.supported for f in FLOWS)  # the auth extensions too (issue 26 point 7)
    assert all(f.detail for f in FLOWS if not f.supported)


def test_the_grant_and_the_key_file_are_kept_in_the_saved_profile(tmp_path):
    from inspector.config.store import ProfileStore

    path = tmp_path / "servers.json"
    store = ProfileStore(path)
    store.load()
    profile = ServerProfile(name="m2m", transport="http", url="http://127.0.0.1:1/mcp")
    profile.oauth_grant, profile.oauth_private_key_file = "client_credentials", "~/keys/m2m.pem"
    store.add(profile)
    store.save()
    again = ProfileStore(path)
    again.load()
    loaded = again.get("m2m")
    assert (loaded.oauth_grant, loaded.oauth_private_key_file) == ("client_credentials", "~/keys/m2m.pem")


def test_a_profile_with_the_client_credentials_grant_signs_in_with_its_key_file_and_no_browser(
    machine_server, keys, tmp_path, auth_home
):
    from inspector.auth.signin import ServerAuth
    from inspector.auth.storage import FileBackend

    key_file = tmp_path / "m2m.pem"
    key_file.write_text(keys[0])
    url = f"{machine_server}/mcp"
    profile = ServerProfile(name="m2m", transport="http", url=url, oauth_client_id=CLIENT_ID)
    profile.oauth_grant, profile.oauth_private_key_file = "client_credentials", str(key_file)
    auth = ServerAuth(profile, backend=FileBackend(auth_home))

    def no_browser(url: str) -> None:
        raise AssertionError(f"a browser was opened: {url}")

    state = asyncio.run(auth.sign_in(TrafficStore(), opener=no_browser, timeout=5))
    assert state.signed_in
    assert _stats(machine_server)["token_requests"] == [{"grant_type": "client_credentials", "auth": "private_key_jwt"}]
    assert "machine client" in asyncio.run(_whoami(url, auth.provider, TrafficStore()))
    assert not auth.needs_sign_in
