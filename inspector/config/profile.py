"""Server profiles: how to reach one MCP server, and its `mcp.json` entry form."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, replace
from typing import Any, Literal
from urllib.parse import urlsplit

from inspector.config.redact import (
    Redactor,
    is_secret_env,
    is_secret_header,
    is_secret_value,
    redact_args,
    redact_headers,
    redact_url,
    redact_value,
    secret_arg_indexes,
    url_has_secrets,
)

Transport = Literal["stdio", "http", "sse"]
TRANSPORTS: tuple[Transport, ...] = ("stdio", "http", "sse")

# Spellings of "type" seen in the wild, mapped to our transport names.
_TYPE_ALIASES: dict[str, Transport] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamablehttp": "http",
    "streamable_http": "http",
    "sse": "sse",
}
STDIO_KEYS = frozenset({"type", "command", "args", "env", "cwd"})
HTTP_KEYS = frozenset({"type", "url", "serverUrl", "headers"})

_BEARER = re.compile(r"^\s*Bearer\s+(\S.*?)\s*$", re.IGNORECASE)


class ProfileError(ValueError):
    """An invalid profile or config file; the message says what is wrong and where."""

    def __init__(
        self, message: str, *, source: str | None = None, server: str | None = None, field: str | None = None
    ) -> None:
        self.reason = message
        self.source = source
        self.server = server
        self.field = field
        super().__init__(self._format())

    def _format(self) -> str:
        where = []
        if self.source:
            where.append(str(self.source))
        if self.server is not None:
            where.append(f"server {self.server!r}")
        if self.field:
            where.append(f"field {self.field!r}")
        return f"{', '.join(where)}: {self.reason}" if where else self.reason

    def with_source(self, source: str) -> ProfileError:
        """Return a copy of this error that also names the file it came from."""
        return ProfileError(self.reason, source=source, server=self.server, field=self.field)


def _infer_http_transport(url: str) -> Transport:
    """Cursor-style inference: a URL whose path ends with `/sse` is legacy SSE, anything else HTTP."""
    path = urlsplit(url).path.rstrip("/")
    return "sse" if path == "/sse" or path.endswith("/sse") else "http"


@dataclass
class ServerProfile:
    """One MCP server the user can connect to."""

    name: str
    transport: Transport = "stdio"
    command: str = ""
    args: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    bearer_token: str | None = None
    secret_headers: list[str] = field(default_factory=list)
    roots: list[str] = field(default_factory=list)
    # OAuth (HTTP servers): a pre-registered client, and scopes to ask for beyond the server's.
    oauth_client_id: str | None = None
    oauth_client_secret: str | None = None
    oauth_scopes: str | None = None
    # "client_credentials": no browser, the client id with its secret or a private_key_jwt key (PEM file)
    oauth_grant: str | None = None
    oauth_private_key_file: str | None = None
    # The auth extensions (inspector/auth/extensions.py): "workload" (a workload JWT as the JWT-bearer
    # grant, SEP-1933) and "enterprise" (ID token → ID-JAG at the IdP → JWT-bearer grant, SEP-990) read
    # their JWT from a file or an environment variable; the IdP's token endpoint and client for
    # "enterprise"; an authorization server issuer fixed instead of the one the MCP server names; and
    # DPoP-bound tokens (RFC 9449) for any grant.
    oauth_assertion_file: str | None = None
    oauth_assertion_env: str | None = None
    oauth_idp_token_endpoint: str | None = None
    oauth_idp_issuer: str | None = None  # "enterprise" without a JWT file/variable: sign in there in the browser
    oauth_idp_client_id: str | None = None
    oauth_idp_client_secret: str | None = None
    oauth_issuer: str | None = None
    oauth_dpop: bool = False
    # VS Code `inputs` declarations for the `${input:ID}` references this profile uses (asked for at connect)
    inputs: list[dict[str, Any]] = field(default_factory=list)
    # Protocol era: "auto" (probe server/discover, fall back to initialize), "legacy", "modern" or a version
    protocol_era: str = "auto"
    # What `auto` found last time ("legacy" / "modern"): a silent legacy server is not probed again
    learned_era: str | None = None
    # The user allowed fetching this server's https icons (remote icon URLs are never fetched otherwise)
    load_remote_icons: bool = False
    # Never saved: the values this profile's `${…}` references resolved to (set by `resolve_profile`), so
    # its `Redactor` hides them wherever they appear, whatever field or name they went into.
    secret_values: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def validate(self) -> None:
        """Raise `ProfileError` if the profile cannot be used to connect."""
        if not isinstance(self.name, str) or not self.name.strip():
            raise ProfileError("server name must be a non-empty string", server=self.name, field="name")
        if self.transport not in TRANSPORTS:
            raise ProfileError(
                f"unknown transport {self.transport!r} (expected one of {', '.join(TRANSPORTS)})",
                server=self.name,
                field="type",
            )
        fields = {"args": self.args, "env": self.env, "headers": self.headers, "roots": self.roots}
        _str_list(self.name, fields, "args")
        _str_list(self.name, fields, "roots")
        _str_map(self.name, fields, "env")
        _str_map(self.name, fields, "headers")
        if self.transport == "stdio":
            if not isinstance(self.command, str) or not self.command.strip():
                raise ProfileError("a stdio server needs a 'command'", server=self.name, field="command")
            return
        if not isinstance(self.url, str):
            raise ProfileError("expected a string URL", server=self.name, field="url")
        if "${" not in self.url:
            parts = urlsplit(self.url)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ProfileError(
                    f"expected an http:// or https:// URL, got {self.url!r}", server=self.name, field="url"
                )

    def has_secrets(self) -> bool:
        """True if saving this profile would write a secret (token, auth header, secret env/arg/URL)."""
        if any(is_secret_value(v) for v in (self.bearer_token, self.oauth_client_secret, self.oauth_idp_client_secret)):
            return True
        if any(is_secret_header(k, self.secret_headers) and is_secret_value(v) for k, v in self.headers.items()):
            return True
        if any(is_secret_env(k) and is_secret_value(v) for k, v in self.env.items()):
            return True
        return bool(secret_arg_indexes(self.args)) or url_has_secrets(self.url)

    def redacted(self, redactor: Redactor | None = None) -> ServerProfile:
        """A copy with every secret replaced by `REDACTED` (variable references are kept): by name (secret
        env, headers, flags, URL query), then by value, with this profile's own `Redactor` and `redactor`."""
        safe = replace(
            self,
            args=redact_args(self.args),
            env={k: redact_value(v) if is_secret_env(k) else v for k, v in self.env.items()},
            headers=redact_headers(self.headers, self.secret_headers),
            bearer_token=redact_value(self.bearer_token) if self.bearer_token else self.bearer_token,
            oauth_client_secret=redact_value(self.oauth_client_secret)
            if self.oauth_client_secret
            else self.oauth_client_secret,
            oauth_idp_client_secret=redact_value(self.oauth_idp_client_secret)
            if self.oauth_idp_client_secret
            else self.oauth_idp_client_secret,
            url=redact_url(self.url),
            secret_headers=list(self.secret_headers),
            roots=list(self.roots),
            inputs=copy.deepcopy(self.inputs),
            secret_values=(),
        )
        by_value = Redactor.for_profile(self).merge(redactor)
        changes = {}
        for name in ("command", "args", "env", "cwd", "url", "headers", "roots", "inputs"):
            changes[name] = by_value.json(getattr(safe, name))
        return replace(safe, **changes)

    def to_entry(self) -> dict[str, Any]:
        """The `mcp.json` entry for this server (empty fields omitted)."""
        if self.transport == "stdio":
            entry: dict[str, Any] = {"command": self.command}
            if self.args:
                entry["args"] = list(self.args)
            if self.env:
                entry["env"] = dict(self.env)
            if self.cwd:
                entry["cwd"] = self.cwd
            return entry
        entry = {"type": self.transport, "url": self.url}
        headers = dict(self.headers)
        if self.bearer_token:
            headers = {k: v for k, v in headers.items() if k.lower() != "authorization"}
            headers["Authorization"] = f"Bearer {self.bearer_token}"
        if headers:
            entry["headers"] = headers
        return entry

    @classmethod
    def from_entry(cls, name: str, entry: Any, *, source: str | None = None) -> ServerProfile:
        """Build a profile from an entry in any supported dialect; raise `ProfileError` if invalid."""
        if not isinstance(entry, dict):
            raise ProfileError(f"expected an object, got {type(entry).__name__}", source=source, server=name)
        try:
            profile = _from_entry(name, entry)
            profile.validate()
        except ProfileError as exc:
            if source:
                raise exc.with_source(source) from None
            raise
        return profile

    def clone(self, **changes: Any) -> ServerProfile:
        """A deep copy, with `changes` applied."""
        return replace(copy.deepcopy(self), **changes)


def _str_field(name: str, entry: dict[str, Any], key: str) -> str | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ProfileError(f"expected a string, got {type(value).__name__}", server=name, field=key)
    return value


def _str_list(name: str, entry: dict[str, Any], key: str) -> list[str]:
    value = entry.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ProfileError(f"expected a list of strings, got {type(value).__name__}", server=name, field=key)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise ProfileError(f"expected a string, got {type(item).__name__}", server=name, field=f"{key}[{i}]")
    return list(value)


def _str_map(name: str, entry: dict[str, Any], key: str) -> dict[str, str]:
    value = entry.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ProfileError(f"expected an object of strings, got {type(value).__name__}", server=name, field=key)
    for k, v in value.items():
        if not isinstance(v, str):
            raise ProfileError(f"expected a string, got {type(v).__name__}", server=name, field=f"{key}.{k}")
    return dict(value)


def _from_entry(name: str, entry: dict[str, Any]) -> ServerProfile:
    if not isinstance(name, str) or not name.strip():
        raise ProfileError("server name must be a non-empty string", server=name)
    kind = _str_field(name, entry, "type")
    url = _str_field(name, entry, "url") or _str_field(name, entry, "serverUrl")
    transport: Transport
    if kind is not None:
        if kind.lower() not in _TYPE_ALIASES:
            raise ProfileError(f"unknown type {kind!r} (expected stdio, http or sse)", server=name, field="type")
        transport = _TYPE_ALIASES[kind.lower()]
    elif "command" in entry:
        transport = "stdio"
    elif url is not None:
        transport = _infer_http_transport(url)
    else:
        raise ProfileError("entry has neither 'command' nor 'url'", server=name)
    if transport == "stdio":
        return _stdio_from_entry(name, entry)
    headers = _str_map(name, entry, "headers")
    token = None
    for key in list(headers):
        match = _BEARER.match(headers[key]) if key.lower() == "authorization" else None
        if match:
            token = match.group(1)
            del headers[key]
    if url is None:
        raise ProfileError(f"an {transport.upper()} server needs a 'url'", server=name, field="url")
    return ServerProfile(name=name, transport=transport, url=url, headers=headers, bearer_token=token)


def _stdio_from_entry(name: str, entry: dict[str, Any]) -> ServerProfile:
    """Build a stdio profile from an entry (no validation of the command beyond its type)."""
    command = _str_field(name, entry, "command")
    if command is None:
        raise ProfileError("a stdio server needs a 'command'", server=name, field="command")
    return ServerProfile(
        name=name,
        transport="stdio",
        command=command,
        args=_str_list(name, entry, "args"),
        env=_str_map(name, entry, "env"),
        cwd=_str_field(name, entry, "cwd") or None,
    )
