"""Streamable HTTP and legacy SSE, through the SDK's clients with our tap underneath."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any, NamedTuple, Protocol, runtime_checkable

import httpx2
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from inspector.config.redact import Redactor, profile_secrets
from inspector.traffic.store import TrafficStore
from inspector.transports.http_tap import TapTransport

CONNECT_TIMEOUT = 30.0
READ_TIMEOUT = 300.0


@runtime_checkable
class RoutesOwnRequests(Protocol):
    """An `httpx2.Auth` that sends requests of its own (OAuth discovery, registration, tokens) and wants
    them recorded its way: it puts its router in front of the MCP tap. The OAuth provider of
    `inspector.auth` is one; the transport never imports it, its caller passes it in as `auth`."""

    def route_wire(self, mcp_tap: TapTransport, store: TrafficStore) -> httpx2.AsyncBaseTransport: ...


class HttpSecrets(NamedTuple):
    """What `profile_secrets` reads of an HTTP profile."""

    url: str
    headers: dict[str, str]
    secret_headers: tuple[str, ...]
    secret_values: tuple[str, ...]


class HttpTransport:
    """Opens a Streamable HTTP (``kind="http"``) or legacy SSE (``kind="sse"``) connection."""

    def __init__(
        self,
        url: str,
        store: TrafficStore,
        *,
        kind: str = "http",
        headers: dict[str, str] | None = None,
        bearer_token: str | None = None,
        secret_headers: Iterable[str] = (),
        secret_values: Iterable[str] = (),
        timeout: float = CONNECT_TIMEOUT,
        verify: bool = True,
        auth: httpx2.Auth | None = None,
    ) -> None:
        if kind not in ("http", "sse"):
            raise ValueError(f"unknown HTTP transport {kind!r}: use 'http' or 'sse'")
        self.url = url
        self.kind = kind
        self.store = store
        self.headers = dict(headers or {})
        if bearer_token:
            self.headers["Authorization"] = f"Bearer {bearer_token}"
        secret_headers = tuple(secret_headers)
        # The URL's query values and password, secret headers, the references' values: hidden in every entry.
        known = HttpSecrets(url, self.headers, secret_headers, tuple(secret_values))
        store.protect(Redactor(profile_secrets(known), secret_headers=secret_headers))
        self.tap = TapTransport(
            store,
            kind,
            inner=httpx2.AsyncHTTPTransport(verify=verify),
            secret_headers=secret_headers,
        )
        self.timeout = timeout
        # OAuth (contract C): the provider's own requests are recorded redacted by its own tap.
        self.auth = auth
        self.wire: httpx2.AsyncBaseTransport = self.tap
        if isinstance(auth, RoutesOwnRequests):
            self.wire = auth.route_wire(self.tap, store)

    def _client(self, headers: dict[str, Any] | None = None, timeout: Any = None, auth: Any = None):
        merged = {**self.headers, **(headers or {})}
        return httpx2.AsyncClient(
            transport=self.wire,
            headers=merged,
            timeout=timeout or httpx2.Timeout(self.timeout, read=READ_TIMEOUT),
            auth=auth or self.auth,
        )

    @property
    def last_status(self) -> int | None:
        return self.tap.last_status

    def describe_exit(self) -> str:
        if self.tap.last_error is not None:
            return f"the HTTP connection failed: {self.tap.last_error}"
        if self.tap.last_status is not None and self.tap.last_status >= 400:
            return f"the server answered HTTP {self.tap.last_status}"
        return "the HTTP connection closed"

    @asynccontextmanager
    async def open(self) -> AsyncIterator[tuple[Any, Any]]:
        quiet_sdk_tracebacks()
        if self.kind == "sse":
            async with sse_client(self.url, httpx_client_factory=self._client, timeout=self.timeout) as streams:
                yield streams
            return
        async with self._client() as client, streamable_http_client(self.url, http_client=client) as streams:
            yield streams


def quiet_sdk_tracebacks() -> None:
    """The SDK's HTTP clients log a dead server with `logger.exception`; with no logging configured
    Python prints that traceback on stderr. What failed is in the traffic record and the session's
    state already, so the SDK's client loggers get a handler that drops it (propagation is kept)."""
    logger = logging.getLogger("mcp.client")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())
