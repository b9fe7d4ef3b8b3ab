"""Streamable HTTP and legacy SSE, through the SDK's clients with our tap underneath."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import urllib.request
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any, Protocol, runtime_checkable

import httpx2
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from inspector.config.redact import Redactor, profile_secrets
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.http_profile import USERINFO_DROPPED, HttpSecrets, without_overridden_userinfo
from inspector.transports.http_tap import TapTransport
from inspector.transports.interface import Transport
from inspector.transports.surrogates import EscapingWriter

CONNECT_TIMEOUT = 30.0
READ_TIMEOUT = 300.0
LIVENESS_S = 2.0  # how often an open connection to a local server checks it still accepts connections


@runtime_checkable
class RoutesOwnRequests(Protocol):
    """An `httpx2.Auth` that sends requests of its own (OAuth discovery, registration, tokens) and wants
    them recorded its way: it puts its router in front of the MCP tap. The OAuth provider of
    `inspector.auth` is one; the transport never imports it, its caller passes it in as `auth`."""

    def route_wire(self, mcp_tap: TapTransport, store: TrafficStore) -> httpx2.AsyncBaseTransport: ...


class HttpTransport(Transport):
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
        if (stripped := without_overridden_userinfo(url, self.headers)) is not None:
            self.url = stripped
            store.record(Direction.META, kind, Kind.LIFECYCLE, USERINFO_DROPPED.encode())
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
        self.gone_reason: str | None = None  # why the server stopped answering, once it has
        self._gone: asyncio.Event | None = None
        self.tap.on_unreachable = self._unreachable
        self.tap.is_gone = lambda: self.gone_reason is not None
        self._checks: set[asyncio.Task[None]] = set()

    def client(
        self, headers: dict[str, Any] | None = None, timeout: Any = None, auth: Any = None
    ) -> httpx2.AsyncClient:
        """An HTTP client on this transport's tap (its headers, timeouts and OAuth), as the SDK's clients get;
        also for requests of MCP Lens's own to the server (the sign-in probe)."""
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
        if self.gone_reason is not None:
            return f"the server at {self.store.redactor.url(self.url)} stopped answering ({self.gone_reason})"
        if self.tap.last_error is not None:
            return f"the HTTP connection failed: {self.tap.last_error}"
        if self.tap.last_status is not None and self.tap.last_status >= 400:
            return f"the server answered HTTP {self.tap.last_status}"
        return "the HTTP connection closed"

    # -- is the server still there? ---------------------------------------------------------------
    # A killed server sends nothing: a modern (2026-07-28) connection has no stream open and no ping to
    # send, and a legacy GET stream is retried quietly by the SDK. So the connection watches: a request
    # that cannot connect, or a TCP connect to the server's port refused (no bytes of MCP sent), ends it.
    def _stopped(self, why: str) -> None:
        if self.gone_reason is None:
            self.gone_reason = why
        if self._gone is not None:
            self._gone.set()

    async def wait_closed(self) -> None:
        """Returns when the server stopped answering (see `describe_exit` for how it was seen)."""
        if self._gone is None:
            self._gone = asyncio.Event()
        if self.gone_reason is not None:
            self._gone.set()
        await self._gone.wait()

    def _unreachable(self, error: str) -> None:
        """A request could not connect: look at once whether the server is gone (refused), or was it a blip."""
        check = asyncio.ensure_future(self._check(failed=error))
        self._checks.add(check)
        check.add_done_callback(self._checks.discard)

    async def _check(self, failed: str | None = None) -> None:
        """Open a TCP connection to the server's port and close it: refused means gone. After a request
        that could not connect (`failed`), any other failure to connect means gone too, in its words."""
        url = httpx2.URL(self.url)
        port = url.port or (443 if url.scheme == "https" else 80)
        try:
            _reader, writer = await asyncio.wait_for(asyncio.open_connection(url.host, port), LIVENESS_S * 5)
        except ConnectionRefusedError:
            self._stopped("connection refused")
            return
        except (OSError, TimeoutError):  # unreachable for a moment, or slow: only a failed request says gone
            if failed is not None:
                self._stopped(failed)
            return
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()

    async def check_gone(self) -> None:
        """Look now whether the server refuses connections (the connection failed under us: say why)."""
        await self._check()

    async def _watch(self) -> None:
        """Every LIVENESS_S, `_check` (no bytes of MCP sent) until the server is found gone; not through a
        proxy (a direct TCP connect would say nothing about the way the requests take)."""
        host = httpx2.URL(self.url).host
        if urllib.request.getproxies() and not urllib.request.proxy_bypass(host):
            return
        interval = LIVENESS_S if _local(host) else LIVENESS_S * 5  # a remote server is asked less often
        while self.gone_reason is None:
            await asyncio.sleep(interval)
            await self._check()

    @asynccontextmanager
    async def open(self) -> AsyncIterator[tuple[Any, Any]]:
        quiet_sdk_tracebacks()
        self._gone = asyncio.Event()
        watcher = asyncio.ensure_future(self._watch())
        try:
            if self.kind == "sse":
                async with sse_client(self.url, httpx_client_factory=self.client, timeout=self.timeout) as streams:
                    yield streams[0], EscapingWriter(streams[1])
                return
            async with self.client() as client, streamable_http_client(self.url, http_client=client) as streams:
                yield streams[0], EscapingWriter(streams[1])
        finally:
            for task in (watcher, *self._checks):
                task.cancel()


def _local(host: str) -> bool:
    """A server on this machine (where a killed one is the common case, and a connect costs nothing)."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def quiet_sdk_tracebacks() -> None:
    """The SDK's HTTP clients log a dead server with `logger.exception`; with no logging configured
    Python prints that traceback on stderr. What failed is in the traffic record and the session's
    state already, so the SDK's client loggers get a handler that drops it (propagation is kept)."""
    logger = logging.getLogger("mcp.client")
    if not any(isinstance(handler, logging.NullHandler) for handler in logger.handlers):
        logger.addHandler(logging.NullHandler())
