"""The OAuth flow against a real OAuth-protected MCP server (SDK MCPServer + in-memory authorization server)."""

from __future__ import annotations

import asyncio
import json
import stat
import time
from urllib.parse import parse_qsl, urlsplit

import pytest

from inspector.auth.errors import AuthCancelled, AuthError, UnsafeURL
from inspector.auth.signin import ServerAuth
from inspector.auth.storage import FileBackend
from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.errors import LensError
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore


def _auth(server, folder, **profile_fields) -> ServerAuth:
    profile = ServerProfile(name="oauth", transport="http", url=server.url, **profile_fields)
    return ServerAuth(profile, backend=FileBackend(folder))


async def _list_tools(auth: ServerAuth, store: TrafficStore) -> list[str]:
    async with Connection(make_transport(auth.profile, store, auth=auth.provider), connect_timeout=15) as conn:
        listing = await conn.list_tools()
    return [tool["name"] for tool in listing.tools]


def _all_bytes(store: TrafficStore) -> bytes:
    return b"\n".join(entry.raw + json.dumps(entry.http or {}).encode() for entry in list(store))


def test_sign_in_discovers_registers_uses_pkce_and_stores_the_token_0600(oauth_server, auth_home, browser):
    auth = _auth(oauth_server, auth_home)
    store = TrafficStore()
    state = asyncio.run(auth.sign_in(store, opener=browser, timeout=20))

    assert state.signed_in and state.has_refresh_token and state.scopes == "mcp"
    assert state.expires_in() is not None and 3500 < state.expires_in() <= 3600
    steps = auth.log.steps()
    for step in ("discovery", "registration", "authorize", "token"):
        assert step in steps, steps
    assert steps.index("discovery") < steps.index("registration") < steps.index("token")
    summaries = "\n".join(e.summary for e in auth.log.events)
    assert "/.well-known/oauth-protected-resource/mcp" in summaries
    assert "/.well-known/oauth-authorization-server" in summaries

    # PKCE: the authorization request carries an S256 challenge, and the server accepted the verifier.
    query = dict(parse_qsl(urlsplit(browser.opened[0]).query))
    assert query["code_challenge_method"] == "S256" and len(query["code_challenge"]) == 43
    assert query["redirect_uri"].startswith("http://127.0.0.1:")
    stats = oauth_server.stats()
    assert stats["registrations"] == 1 and stats["code_exchanges"] == 1
    assert stats["challenges"] == [query["code_challenge"]]
    assert browser.landed == [200]

    # Stored 0600 in a 0700 folder under $XDG_CONFIG_HOME/mcp-lens/auth.
    files = list(auth_home.glob("*.json"))
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(auth_home.stat().st_mode) == 0o700
    record = json.loads(files[0].read_text())
    access, refresh = record["tokens"]["access_token"], record["tokens"]["refresh_token"]
    assert record["server_url"] == oauth_server.url

    # The traffic log has the OAuth exchanges, with every secret redacted.
    oauth_entries = [e for e in list(store) if e.transport == "oauth"]
    paths = {urlsplit(e.http["url"]).path for e in oauth_entries if e.http and "url" in e.http}
    assert {"/register", "/token", "/.well-known/oauth-authorization-server"} <= paths
    token_request = next(e for e in oauth_entries if e.raw.startswith(b"POST") and b"/token" in e.raw)
    assert b"grant_type=authorization_code" in token_request.raw
    assert b"code_verifier=<redacted>" in token_request.raw and b"&code=<redacted>" in token_request.raw
    token_answer = next(e for e in oauth_entries if e.http.get("request_seq") == token_request.seq)
    assert b'"access_token": "<redacted>"' in token_answer.raw
    everything = _all_bytes(store)
    assert access.encode() not in everything and refresh.encode() not in everything
    client_secret = record["client_info"].get("client_secret")
    assert client_secret and client_secret.encode() not in everything
    assert query["code_challenge"].encode() in everything  # the challenge is public; only secrets are hidden
    # The panel's copy of each exchange is redacted too.
    exchanges = [e.exchange for e in auth.log.events if e.exchange]
    assert exchanges and all(access not in x.response_body for x in exchanges)


def test_stored_token_is_reused_on_reconnect_without_a_browser(oauth_server, auth_home, browser):
    asyncio.run(_auth(oauth_server, auth_home).sign_in(TrafficStore(), opener=browser, timeout=20))
    again = _auth(oauth_server, auth_home)  # a new run: everything comes from storage
    store = TrafficStore()
    assert asyncio.run(_list_tools(again, store)) == ["whoami"]
    assert len(browser.opened) == 1
    stats = oauth_server.stats()
    assert stats["authorizations"] == 1 and stats["code_exchanges"] == 1 and stats["refreshes"] == 0
    sent = [e for e in list(store) if e.http and e.http.get("method") == "POST"]
    assert sent and all(["authorization", "Bearer <redacted>"] in e.http["headers"] for e in sent)


def test_expired_token_is_refreshed_before_the_request(short_token_server, auth_home, browser):
    asyncio.run(_auth(short_token_server, auth_home).sign_in(TrafficStore(), opener=browser, timeout=20))
    time.sleep(2.5)
    again = _auth(short_token_server, auth_home)
    assert asyncio.run(_list_tools(again, TrafficStore())) == ["whoami"]
    assert short_token_server.stats()["refreshes"] == 1
    assert "refresh" in again.log.steps()
    assert len(browser.opened) == 1


def test_refresh_button_replaces_the_token(oauth_server, auth_home, browser):
    auth = _auth(oauth_server, auth_home)
    store = TrafficStore()
    asyncio.run(auth.sign_in(store, opener=browser, timeout=20))
    before = auth.storage.tokens()
    asyncio.run(auth.refresh(store))
    after = auth.storage.tokens()
    assert before is not None and after is not None
    assert after.access_token != before.access_token and after.refresh_token != before.refresh_token
    assert oauth_server.stats()["refreshes"] == 1
    refresh = [e for e in list(store) if e.transport == "oauth" and b"grant_type=refresh_token" in e.raw]
    assert refresh and before.refresh_token.encode() not in refresh[0].raw


def test_sign_out_deletes_the_stored_credentials(oauth_server, auth_home, browser):
    auth = _auth(oauth_server, auth_home)
    asyncio.run(auth.sign_in(TrafficStore(), opener=browser, timeout=20))
    assert list(auth_home.glob("*.json"))
    auth.sign_out()
    assert not list(auth_home.glob("*.json"))
    assert not auth.state().signed_in
    with pytest.raises(LensError):
        asyncio.run(_list_tools(auth, TrafficStore()))
    assert auth.needs_sign_in
    assert len(browser.opened) == 1  # the connection never opens a browser


def test_preregistered_client_skips_registration(oauth_server, auth_home, browser):
    from oauth_server import PRE_CLIENT_ID, PRE_CLIENT_SECRET

    auth = _auth(oauth_server, auth_home, oauth_client_id=PRE_CLIENT_ID, oauth_client_secret=PRE_CLIENT_SECRET)
    store = TrafficStore()
    asyncio.run(auth.sign_in(store, opener=browser, timeout=20))
    assert "registration" not in auth.log.steps()
    assert oauth_server.stats()["registrations"] == 0
    assert PRE_CLIENT_SECRET.encode() not in _all_bytes(store)
    assert PRE_CLIENT_SECRET not in next(auth_home.glob("*.json")).read_text()  # the profile holds it
    assert asyncio.run(_list_tools(_auth(oauth_server, auth_home, oauth_client_id=PRE_CLIENT_ID), TrafficStore()))


def test_declined_confirmation_opens_nothing(oauth_server, auth_home, browser):
    auth = _auth(oauth_server, auth_home)
    shown: list[str] = []

    async def decline(url: str) -> bool:
        shown.append(url)
        return False

    with pytest.raises(AuthCancelled):
        asyncio.run(auth.sign_in(TrafficStore(), confirm=decline, opener=browser, timeout=20))
    assert shown and shown[0].startswith(f"http://127.0.0.1:{oauth_server.port}/authorize?")
    assert browser.opened == []
    assert oauth_server.stats()["authorizations"] == 0


def test_the_browser_opens_only_http_urls():
    from inspector.auth.browser import check_browser_url

    assert check_browser_url("https://example.com/authorize?x=1") == "https://example.com/authorize?x=1"
    for bad in ("javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "http://", "ftp://host/x"):
        with pytest.raises(UnsafeURL):
            check_browser_url(bad)


def test_a_server_without_oauth_metadata_fails_with_a_clear_message(demo_http, auth_home, browser):
    # The demo server needs no auth: sign-in has nothing to do and says so.
    auth = ServerAuth(ServerProfile(name="demo", transport="http", url=demo_http), backend=FileBackend(auth_home))
    with pytest.raises(AuthError):
        asyncio.run(auth.sign_in(TrafficStore(), opener=browser, timeout=5))
    assert browser.opened == []
