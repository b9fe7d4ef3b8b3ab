"""Record the OAuth flow's own HTTP exchanges, secrets redacted, in the traffic log and the auth log.

The SDK's OAuth provider (an `httpx2.Auth`) sends its discovery, registration and token requests
through the same client as the MCP requests; `OAuthRouter` sends the ones the provider marked
(`OAUTH_EXTENSION`) through `OAuthTap` and everything else through the MCP tap. Unlike the MCP tap,
bodies here are recorded redacted: a token response is all secret.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import httpx2

from inspector.auth.events import AuthLog, HttpExchange, classify, describe
from inspector.auth.redact import redact_body, redact_oauth_url
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.http_tap import TapTransport, redact_headers

OAUTH_EXTENSION = "mcp_lens_oauth"
TRANSPORT_NAME = "oauth"


def _safe_headers(headers: httpx2.Headers) -> list[list[str]]:
    out = redact_headers(headers.multi_items())
    return [[k, redact_oauth_url(v) if k.lower() == "location" else v] for k, v in out]


class OAuthTap(httpx2.AsyncBaseTransport):
    """Sends OAuth requests through `inner`; records each exchange redacted (never changes the wire)."""

    def __init__(self, store: TrafficStore | None, log: AuthLog | None, inner: httpx2.AsyncBaseTransport) -> None:
        self.store = store
        self.log = log
        self.inner = inner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        safe_body, form = redact_body(body, request.headers.get("content-type", ""))
        url = redact_oauth_url(str(request.url))
        step = classify(request.method, str(request.url), form)
        meta = {"method": request.method, "url": url, "headers": _safe_headers(request.headers), "oauth": step}
        sent = self._record(Direction.OUT, f"{request.method} {url}".encode() + _tail(safe_body), meta)
        exchange = HttpExchange(request.method, url, request_body=safe_body.decode("utf-8", "replace"))
        try:
            response = await self.inner.handle_async_request(request)
        except httpx2.TransportError as exc:
            exchange.error = f"{type(exc).__name__}: {exc}"
            self._record(
                Direction.META,
                f"{request.method} {url} failed: {exchange.error}".encode(),
                meta,
                kind=True,
                note=f"OAuth request failed: {exchange.error}",
            )
            if self.log is not None:
                self.log.add(step, describe(step, request.method, url, None) + f" ({exchange.error})", ok=False)
            raise
        # Pass the raw bytes on (a gzip body must be decoded once, by the client); record the decoded text.
        raw = b"".join([chunk async for chunk in response.aiter_raw()])
        await response.aclose()
        answer = httpx2.Response(
            response.status_code, headers=response.headers, content=raw, request=request, extensions=response.extensions
        )
        safe_answer, _ = redact_body(answer.content, response.headers.get("content-type", ""))
        exchange.status = response.status_code
        exchange.response_body = safe_answer.decode("utf-8", "replace")
        status_line = f"HTTP {response.status_code} {response.reason_phrase}".encode()
        answer_meta = {
            "status": response.status_code,
            "headers": _safe_headers(response.headers),
            "request_seq": sent.seq if sent is not None else None,
            "oauth": step,
        }
        ok = response.status_code < 400 or (step == "discovery" and response.status_code == 404)
        note = None if ok else f"OAuth {step}: HTTP {response.status_code} {response.reason_phrase}".rstrip()
        self._record(Direction.IN, status_line + _tail(safe_answer), answer_meta, note=note)
        if self.log is not None:
            summary = describe(step, request.method, url, response.status_code, (form or {}).get("grant_type"))
            self.log.add(step, summary, exchange=exchange, ok=ok)
        return answer

    def _record(
        self, direction: Direction, raw: bytes, meta: dict[str, Any], *, kind: bool = False, note: str | None = None
    ) -> Any:
        """Record one side of an exchange (secrets already redacted: `meta["redacted"]` says so). Only a
        failure carries a note, so a successful sign-in does not fill "Errors only"."""
        if self.store is None:
            return None
        meta = {**meta, "redacted": True}
        notes = [note] if note else []
        return self.store.record(
            direction, TRANSPORT_NAME, Kind.LIFECYCLE if kind else Kind.HTTP_META, raw, http=meta, notes=notes
        )


def _tail(body: bytes) -> bytes:
    return b"\n\n" + body if body else b""


class OAuthRouter(httpx2.AsyncBaseTransport):
    """Routes requests the OAuth provider made to `oauth`, the rest to `mcp`."""

    def __init__(self, mcp: httpx2.AsyncBaseTransport, oauth: httpx2.AsyncBaseTransport) -> None:
        self.mcp = mcp
        self.oauth = oauth

    @property
    def last_status(self) -> int | None:
        return getattr(self.mcp, "last_status", None)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        target = self.oauth if request.extensions.get(OAUTH_EXTENSION) else self.mcp
        return await target.handle_async_request(request)

    async def aclose(self) -> None:
        await self.mcp.aclose()


class TapsOwnRequests:
    """Mixin for the SDK's OAuth providers: marks the requests a provider makes itself (discovery,
    registration, token) so `route_wire` sends them through the OAuth tap, recorded redacted; the
    caller's own request goes through the MCP tap. `check_response` sees the response to the caller's
    request before the provider does (a provider that must not open a browser refuses there)."""

    log: AuthLog | None = None

    def route_wire(self, mcp_tap: TapTransport, store: TrafficStore) -> httpx2.AsyncBaseTransport:
        """The wire of a transport using this provider (`inspector.transports.http.RoutesOwnRequests`)."""
        return OAuthRouter(mcp_tap, OAuthTap(store, self.log, mcp_tap.inner))

    async def check_response(self, request: httpx2.Request, response: httpx2.Response) -> None:
        """Called with the response to the caller's request; raise to stop the flow. Nothing by default."""

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        flow = super().async_auth_flow(request)  # type: ignore[misc]
        try:
            outgoing = await flow.__anext__()
            while True:
                if outgoing is not request:
                    outgoing.extensions[OAUTH_EXTENSION] = True
                response = yield outgoing
                if outgoing is request:
                    await self.check_response(request, response)
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()
