"""Token storage (files, keyring selection), redaction helpers, and the profile's OAuth fields."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import time

import pytest
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from inspector.auth.redact import redact_body, redact_oauth_url
from inspector.auth.storage import (
    FileBackend,
    KeyringBackend,
    ServerTokenStorage,
    SessionBackend,
    default_auth_dir,
    open_backend,
)
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore


def test_records_are_per_server_atomic_and_private(tmp_path):
    backend = FileBackend(tmp_path / "auth")
    one = ServerTokenStorage(backend, "https://one.example/mcp")
    two = ServerTokenStorage(backend, "https://two.example/mcp")
    asyncio.run(one.set_tokens(OAuthToken(access_token="A1", expires_in=60, refresh_token="R1", scope="s")))
    asyncio.run(
        one.set_client_info(OAuthClientInformationFull(client_id="c1", redirect_uris=["http://127.0.0.1:1/cb"]))
    )
    assert asyncio.run(two.get_tokens()) is None  # keyed by server URL
    assert asyncio.run(one.get_tokens()).access_token == "A1"
    assert asyncio.run(one.get_client_info()).client_id == "c1"
    assert 55 < one.expires_at() - time.time() <= 60  # absolute expiry kept beside the token
    files = list((tmp_path / "auth").iterdir())
    assert [f.suffix for f in files] == [".json"]  # no temp file left behind
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    one.clear_tokens()
    assert one.tokens() is None and asyncio.run(one.get_client_info()).client_id == "c1"
    one.clear()
    assert not list((tmp_path / "auth").iterdir())


def test_a_damaged_record_reads_as_signed_out(tmp_path):
    backend = FileBackend(tmp_path)
    storage = ServerTokenStorage(backend, "https://x.example/mcp")
    backend.path(storage.key).write_text("{not json")
    assert storage.tokens() is None and not storage.state().signed_in
    backend.path(storage.key).write_text(json.dumps({"server_url": "https://other/", "tokens": {"access_token": "t"}}))
    assert storage.tokens() is None  # a record for another URL is never used


def test_default_folder_follows_xdg(monkeypatch, tmp_path):
    assert default_auth_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "mcp-lens" / "auth"
    assert default_auth_dir({"XDG_CONFIG_HOME": "relative"}).parts[-3:] == (".config", "mcp-lens", "auth")


class _Keyring:
    """Stands in for the `keyring` module's three functions (the OS keyring is not on CI machines)."""

    def __init__(self) -> None:
        self.saved: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, key: str) -> str | None:
        return self.saved.get((service, key))

    def set_password(self, service: str, key: str, value: str) -> None:
        self.saved[(service, key)] = value

    def delete_password(self, service: str, key: str) -> None:
        del self.saved[(service, key)]


def test_keyring_backend_round_trip_and_file_fallback(monkeypatch, tmp_path):
    ring = _Keyring()
    storage = ServerTokenStorage(KeyringBackend(ring), "https://k.example/mcp")
    asyncio.run(storage.set_tokens(OAuthToken(access_token="K", refresh_token="KR")))
    assert storage.tokens().access_token == "K" and storage.state().backend == "keyring"
    assert next(iter(ring.saved))[0] == "mcp-lens-oauth"
    storage.clear()
    storage.clear()  # deleting twice is fine
    assert ring.saved == {}
    monkeypatch.setenv("MCP_LENS_NO_KEYRING", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MCP_LENS_SECRETS_FILE", raising=False)
    assert isinstance(open_backend(tmp_path), SessionBackend)  # no keyring and not ticked: nothing in a file
    monkeypatch.setenv("MCP_LENS_SECRETS_FILE", "1")
    assert isinstance(open_backend(tmp_path), FileBackend)


def test_without_the_tick_a_session_keeps_tokens_in_memory_and_reads_an_earlier_file(monkeypatch, tmp_path):
    from inspector.config.secret_keeping import save_files_ticked

    monkeypatch.setenv("MCP_LENS_NO_KEYRING", "1")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MCP_LENS_SECRETS_FILE", raising=False)
    folder = tmp_path / "auth"
    session = open_backend(folder)
    storage = ServerTokenStorage(session, "https://s.example/mcp")
    asyncio.run(storage.set_tokens(OAuthToken(access_token="S-canary")))
    assert storage.tokens().access_token == "S-canary" and storage.state().backend == "session"
    assert not folder.exists() and not session.read_plain_file
    # A record an earlier version wrote (0600) still signs in, and the session says it read a plain file.
    ServerTokenStorage(FileBackend(folder), "https://old.example/mcp").backend.save(
        ServerTokenStorage(session, "https://old.example/mcp").key,
        {"server_url": "https://old.example/mcp", "tokens": {"access_token": "OLD", "token_type": "Bearer"}},
    )
    old = ServerTokenStorage(open_backend(folder), "https://old.example/mcp")
    assert old.tokens().access_token == "OLD" and old.backend.read_plain_file
    old.clear()  # signing out removes the old file too
    assert old.tokens() is None and not list(folder.iterdir())
    # The app's tick is persisted: files from then on.
    save_files_ticked(True)
    assert isinstance(open_backend(folder), FileBackend)
    assert oct((tmp_path / "config" / "mcp-lens" / "secrets.json").stat().st_mode & 0o777) == "0o600"


def test_preregistered_secret_never_reaches_the_token_store(tmp_path):
    pre = OAuthClientInformationFull(
        client_id="pre", client_secret="s3cret", token_endpoint_auth_method="client_secret_basic"
    )
    storage = ServerTokenStorage(FileBackend(tmp_path), "https://p.example/mcp", preregistered=pre)
    asyncio.run(storage.set_client_info(pre))
    asyncio.run(storage.set_tokens(OAuthToken(access_token="T")))
    assert asyncio.run(storage.get_client_info()) is pre
    assert "s3cret" not in next(tmp_path.iterdir()).read_text()


def test_redaction_of_forms_json_and_redirect_urls():
    safe, fields = redact_body(
        b"grant_type=refresh_token&refresh_token=RT&client_id=c&client_secret=CS", "application/x-www-form-urlencoded"
    )
    assert fields["grant_type"] == "refresh_token"
    assert safe == b"grant_type=refresh_token&refresh_token=<redacted>&client_id=c&client_secret=<redacted>"
    safe, _ = redact_body(b'{"access_token":"AT","nested":{"id_token":"IT"},"scope":"a b"}', "application/json")
    assert json.loads(safe) == {"access_token": "<redacted>", "nested": {"id_token": "<redacted>"}, "scope": "a b"}
    assert b"AT" not in redact_body(b"access_token=AT garbage", "text/plain")[0]
    url = redact_oauth_url("http://127.0.0.1:5/callback?code=SECRET&state=abc")
    assert "SECRET" not in url and "state=abc" in url


def test_profile_oauth_fields_load_save_and_redact(tmp_path):
    path = tmp_path / "servers.json"
    store = ProfileStore(path)
    store.load()
    store.add(
        ServerProfile(
            name="r", transport="http", url="https://r.example/mcp", oauth_client_id="cid", oauth_client_secret="cs"
        )
    )
    store.save()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = ProfileStore(path)
    loaded = again.load()[0]
    assert (loaded.oauth_client_id, loaded.oauth_client_secret, loaded.oauth_scopes) == ("cid", "cs", None)
    assert loaded.redacted().oauth_client_secret == "<redacted>" and loaded.redacted().oauth_client_id == "cid"
    assert "cs" not in json.dumps(loaded.redacted().to_entry())


def test_a_bad_oauth_field_in_the_profiles_file_is_a_clear_error(tmp_path):
    from inspector.config.profile import ProfileError

    path = tmp_path / "servers.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {"r": {"type": "http", "url": "https://r.example/mcp"}},
                "x-mcp-lens": {"servers": {"r": {"oauthClientId": 42}}},
            }
        )
    )
    with pytest.raises(ProfileError, match="oauthClientId"):
        ProfileStore(path).load()
