"""Per-server OAuth credentials: the OS keyring when one works; else 0600 JSON files if the user ticked
"Keep secrets in a file" (`config/secret_keeping`); else this session's memory (a file an earlier
version wrote is still read).

One record per MCP server URL holds the tokens, the registered client, when the access token
expires (absolute time: the SDK only keeps `expires_in`), the discovered metadata so a
later run can refresh without rediscovering, and with DPoP the proof key and how the token was
bound. `ServerTokenStorage` is the SDK's `TokenStorage`.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken, ProtectedResourceMetadata

from inspector.auth.applies import default_auth_dir, record_key
from inspector.config.files import private_folder, write_atomic
from inspector.config.redact import redact_url
from inspector.config.secret_keeping import files_ticked, real_keyring

KEYRING_SERVICE = "mcp-lens-oauth"


def _token_hash(token: str) -> str:
    from inspector.auth.dpop import token_hash

    return token_hash(token)


class Backend(Protocol):
    """Where records live; `name` says which, for the Auth panel."""

    name: str

    def load(self, key: str) -> dict[str, Any] | None: ...
    def save(self, key: str, record: dict[str, Any]) -> None: ...
    def delete(self, key: str) -> None: ...


class FileBackend:
    """One JSON file per server, mode 0600 in a 0700 folder, replaced atomically."""

    name = "file"

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_auth_dir()

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def load(self, key: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path(key).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return None  # a damaged record is as good as none: the user signs in again
        return data if isinstance(data, dict) else None

    def save(self, key: str, record: dict[str, Any]) -> None:
        private_folder(self.folder)
        write_atomic(self.path(key), json.dumps(record, indent=2))

    def delete(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)


class MemoryBackend:
    """Records in memory only (the conformance client; nothing outlives the process)."""

    name = "memory"

    def __init__(self) -> None:
        self.records: dict[str, dict[str, Any]] = {}

    def load(self, key: str) -> dict[str, Any] | None:
        record = self.records.get(key)
        return json.loads(json.dumps(record)) if record is not None else None

    def save(self, key: str, record: dict[str, Any]) -> None:
        self.records[key] = json.loads(json.dumps(record))

    def delete(self, key: str) -> None:
        self.records.pop(key, None)


class SessionBackend(MemoryBackend):
    """No keyring and no tick: records live in memory; a record file an earlier MCP Lens wrote is read
    (`read_plain_file` says so), never written. Signing out deletes that file too."""

    name = "session"

    def __init__(self, folder: Path | str | None = None) -> None:
        super().__init__()
        self.files = FileBackend(folder)
        self.read_plain_file = False

    def load(self, key: str) -> dict[str, Any] | None:
        if key in self.records:
            return super().load(key)
        record = self.files.load(key)
        if record is not None:
            self.read_plain_file = True
            self.records[key] = record
        return record

    def delete(self, key: str) -> None:
        super().delete(key)
        self.files.delete(key)
        self.records[key] = {}  # gone for this session too, not read back from a file


def move_records(source: Backend, target: Backend, keys: list[str]) -> None:
    """Move the records under `keys` (the user ticked or unticked "Keep secrets in a file")."""
    for key in keys:
        record = source.load(key)
        if record:
            source.delete(key)  # first: a session's delete also removes the file `target` may be
            target.save(key, record)


class KeyringBackend:
    """The OS keyring (Secret Service, macOS Keychain, Windows Credential Locker)."""

    name = "keyring"

    def __init__(self, keyring_module: Any) -> None:
        self._keyring = keyring_module

    def load(self, key: str) -> dict[str, Any] | None:
        try:
            raw = self._keyring.get_password(KEYRING_SERVICE, key)
            data = json.loads(raw) if raw else None
        except Exception:
            return None
        return data if isinstance(data, dict) else None

    def save(self, key: str, record: dict[str, Any]) -> None:
        self._keyring.set_password(KEYRING_SERVICE, key, json.dumps(record))

    def delete(self, key: str) -> None:
        with contextlib.suppress(Exception):  # nothing stored
            self._keyring.delete_password(KEYRING_SERVICE, key)


def open_backend(folder: Path | str | None = None, *, use_keyring: bool = True) -> Backend:
    """The keyring if `keyring` has a real backend; else 0600 files if the user ticked that; else the session."""
    keyring = real_keyring() if use_keyring else None
    if keyring is not None:
        return KeyringBackend(keyring)
    return FileBackend(folder) if files_ticked() else SessionBackend(folder)


@dataclass
class TokenState:
    """What the Auth panel may show about stored credentials (never the token itself)."""

    signed_in: bool
    expires_at: float | None = None
    scopes: str | None = None
    has_refresh_token: bool = False
    client_id: str | None = None
    backend: str = "file"
    dpop_bound: bool = False  # the token was issued bound to this server's DPoP key

    def expires_in(self, now: float | None = None) -> float | None:
        return None if self.expires_at is None else self.expires_at - (time.time() if now is None else now)


class ServerTokenStorage:
    """The SDK's `TokenStorage` for one server URL, plus the extras we keep beside the tokens."""

    def __init__(self, backend: Backend, server_url: str, *, preregistered: OAuthClientInformationFull | None = None):
        self.backend = backend
        self.server_url = server_url
        self.key = record_key(server_url)
        self.preregistered = preregistered

    # -- record ------------------------------------------------------------------------------
    @property
    def shown_url(self) -> str:
        """The server URL as the record keeps it: secret-looking query values redacted (the key is its hash)."""
        return redact_url(self.server_url)

    def _load(self) -> dict[str, Any]:
        record = self.backend.load(self.key) or {}
        return record if record.get("server_url", self.server_url) in (self.server_url, self.shown_url) else {}

    def _update(self, **fields: Any) -> None:
        record = self._load()
        record.update(fields, server_url=self.shown_url, updated_at=time.time())
        self.backend.save(self.key, record)

    # -- TokenStorage ------------------------------------------------------------------------
    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens()

    async def set_tokens(self, tokens: OAuthToken) -> None:
        expires_at = time.time() + tokens.expires_in if tokens.expires_in else None
        record = tokens.model_dump(mode="json", exclude_none=True)
        if self.dpop_binding() == ("dpop", _token_hash(tokens.access_token)):
            record["token_type"] = "DPoP"  # as issued (the SDK's model knows only Bearer)
        self._update(tokens=record, expires_at=expires_at)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        if self.preregistered is not None:
            return self.preregistered
        raw = self._load().get("client_info")
        try:
            return OAuthClientInformationFull.model_validate(raw) if raw else None
        except ValueError:
            return None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        if self.preregistered is not None and client_info.client_id == self.preregistered.client_id:
            return  # the profile holds it; never copy a configured secret into the token store
        self._update(client_info=client_info.model_dump(mode="json", exclude_none=True))

    # -- extras ------------------------------------------------------------------------------
    def tokens(self) -> OAuthToken | None:
        raw = self._load().get("tokens")
        if isinstance(raw, dict) and str(raw.get("token_type", "")).lower() == "dpop":
            raw = {**raw, "token_type": "Bearer"}  # the SDK's model; the binding says how it is sent
        try:
            return OAuthToken.model_validate(raw) if raw else None
        except ValueError:
            return None

    def expires_at(self) -> float | None:
        value = self._load().get("expires_at")
        return float(value) if isinstance(value, int | float) else None

    def save_metadata(self, oauth: OAuthMetadata | None, resource: ProtectedResourceMetadata | None) -> None:
        fields: dict[str, Any] = {}
        if oauth is not None:
            fields["oauth_metadata"] = oauth.model_dump(mode="json", exclude_none=True)
        if resource is not None:
            fields["resource_metadata"] = resource.model_dump(mode="json", exclude_none=True)
        if fields:
            self._update(**fields)

    def metadata(self) -> tuple[OAuthMetadata | None, ProtectedResourceMetadata | None]:
        record = self._load()
        try:
            oauth = OAuthMetadata.model_validate(record["oauth_metadata"]) if record.get("oauth_metadata") else None
            resource = (
                ProtectedResourceMetadata.model_validate(record["resource_metadata"])
                if record.get("resource_metadata")
                else None
            )
        except ValueError:
            return None, None
        return oauth, resource

    def id_token(self) -> str | None:
        """The ID token of a browser sign-in at an enterprise IdP (`auth/idp_signin.py`), if one is kept."""
        value = self._load().get("idp_id_token")
        return value if isinstance(value, str) else None

    def save_id_token(self, id_token: str) -> None:
        self._update(idp_id_token=id_token)

    def dpop_key(self) -> str | None:
        """The server's DPoP proof key (PEM), if one was made (`auth/dpop.py`)."""
        value = self._load().get("dpop_key")
        return value if isinstance(value, str) else None

    def save_dpop_key(self, pem: str) -> None:
        self._update(dpop_key=pem)

    def dpop_binding(self) -> tuple[str, str] | None:
        """("dpop" or "bearer", the token's hash): how the stored access token was issued under DPoP."""
        value = self._load().get("dpop_binding")
        return (value[0], value[1]) if isinstance(value, list) and len(value) == 2 else None

    def save_dpop_binding(self, kind: str, token_hash: str) -> None:
        self._update(dpop_binding=[kind, token_hash])

    def forget_client(self) -> None:
        record = self._load()
        if record.pop("client_info", None) is not None:
            self.backend.save(self.key, record)

    def clear_tokens(self) -> None:
        """Drop the tokens (with their DPoP binding and an IdP's ID token) but keep the registered client,
        the metadata and the DPoP key (before a new sign-in)."""
        record = self._load()
        dropped = [record.pop(name, None) for name in ("tokens", "expires_at", "dpop_binding", "idp_id_token")]
        if any(value is not None for value in dropped):
            self.backend.save(self.key, record)

    def clear(self) -> None:
        """Sign out: delete tokens, registration and metadata for this server."""
        self.backend.delete(self.key)

    def state(self) -> TokenState:
        tokens = self.tokens()
        client = (
            self.preregistered.client_id
            if self.preregistered
            else (self._load().get("client_info") or {}).get("client_id")
        )
        return TokenState(
            signed_in=tokens is not None,
            expires_at=self.expires_at() if tokens else None,
            scopes=tokens.scope if tokens else None,
            has_refresh_token=bool(tokens and tokens.refresh_token),
            client_id=client,
            backend=self.backend.name,
            dpop_bound=bool(tokens and (self.dpop_binding() or ("",))[0] == "dpop"),
        )
