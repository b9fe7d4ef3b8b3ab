"""An httpx2 transport wrapper that records every HTTP exchange the SDK's clients make.

Request bodies and JSON response bodies are recorded as JSON-RPC messages with their exact bytes.
Event-stream responses are split into SSE events as the bytes pass; each event's data is recorded
as a message. Status lines and headers go into ``http-meta`` entries with secrets redacted.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterable
from typing import Any

import httpx2

from inspector.config.redact import redact_url
from inspector.traffic.entry import TEARDOWN, Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.http_profile import redact_headers
from inspector.transports.sse_frames import SSEFrameSplitter
from inspector.transports.surrogates import restore


class _TappedStream(httpx2.AsyncByteStream):
    def __init__(self, inner: Any, tap: TapTransport, name: str, meta: dict[str, Any], sse: bool) -> None:
        self._inner = inner
        self._tap = tap
        self._name = name
        self._meta = meta
        self._sse = SSEFrameSplitter() if sse else None
        self._body: list[bytes] = []
        self._done = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._inner:
                if self._sse is not None:
                    for frame, fields, data in self._sse.feed(chunk):
                        self._tap.record_sse(self._name, frame, fields, data, self._meta)
                else:
                    self._body.append(chunk)
                yield chunk
        except httpx2.TransportError as exc:  # e.g. the server died with an event stream open
            self._tap.last_error = describe_transport_error(exc)
            raise
        self._finish()

    def _finish(self) -> None:
        if self._done:
            return
        self._done = True
        if self._sse is None:
            self._tap.record_body(self._name, b"".join(self._body), self._meta)

    async def aclose(self) -> None:
        self._finish()
        await self._inner.aclose()


class _Replay(httpx2.AsyncByteStream):
    def __init__(self, body: bytes) -> None:
        self._body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        yield self._body


class TapTransport(httpx2.AsyncBaseTransport):
    """Wraps a real httpx2 transport; never changes what goes on the wire."""

    def __init__(
        self,
        store: TrafficStore,
        name: str,
        *,
        inner: httpx2.AsyncBaseTransport | None = None,
        secret_headers: Iterable[str] = (),
    ) -> None:
        self.store = store
        self.name = name
        self.inner = inner or httpx2.AsyncHTTPTransport()
        self.secret_headers = tuple(secret_headers)
        self.last_status: int | None = None
        self.last_error: str | None = None  # the last transport failure (connect refused, stream cut)
        # told of a request that could not reach the server at all (connection refused): it is gone
        self.on_unreachable: Callable[[str], None] | None = None
        # whether the server is known gone: the SDK's closing DELETE is then not sent at all
        self.is_gone: Callable[[], bool] | None = None

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        teardown = request.method == "DELETE"  # the SDK ends its session: ours, not the user's traffic
        # not sent to a server known gone, nor after the last exchange failed on the way (the SDK ends its
        # session the moment its stream breaks, before the liveness check can say the server is gone)
        if teardown and ((self.is_gone is not None and self.is_gone()) or self.last_error is not None):
            raise httpx2.ConnectError("session DELETE not sent: the server stopped answering", request=request)
        body = await request.aread()
        if (escaped := restore(body)) is not body:  # a lone surrogate goes as its JSON escape
            body = escaped
            headers = httpx2.Headers(request.headers)
            headers["Content-Length"] = str(len(body))
            request = httpx2.Request(
                request.method, request.url, headers=headers, content=body, extensions=request.extensions
            )
        url = redact_url(str(request.url))  # the store hides known values; names (`?token=`) are hidden here
        request_meta = {
            "method": request.method,
            "url": url,
            "headers": redact_headers(request.headers.multi_items(), self.secret_headers),
        }
        if body:
            sent = self.store.record_message(Direction.OUT, self.name, body, http=request_meta)
        else:
            line = f"{request.method} {url}".encode()
            ours = TEARDOWN if teardown else None  # its status and a failure inherit it: never an error
            sent = self.store.record(Direction.OUT, self.name, Kind.HTTP_META, line, http=request_meta, probe=ours)
        started = time.monotonic()
        try:
            response = await self.inner.handle_async_request(request)
        except httpx2.TransportError as exc:
            self.last_error = describe_transport_error(exc)
            if isinstance(exc, httpx2.ConnectError) and self.on_unreachable is not None:
                self.on_unreachable(self.last_error)
            self.store.note(sent, "no response: transport error")
            self.store.record_failure(
                self.name,
                f"{request.method} {url} failed: {type(exc).__name__}: {exc}",
                "transport error",
                http={**request_meta, "request_seq": sent.seq},
            )
            raise
        self.last_status = response.status_code
        self.last_error = None
        content_type = response.headers.get("content-type", "")
        response_meta = {
            "status": response.status_code,
            "reason": response.reason_phrase,
            "headers": redact_headers(response.headers.multi_items(), self.secret_headers),
            "request_seq": sent.seq,
            "elapsed_ms": round((time.monotonic() - started) * 1000.0, 3),
        }
        status_line = f"HTTP {response.status_code} {response.reason_phrase} ({content_type or 'no body type'})"
        notes = [] if response.status_code < 400 else [f"HTTP {response.status_code}"]
        self.store.record(
            Direction.IN, self.name, Kind.HTTP_META, status_line.encode(), http=response_meta, notes=notes
        )
        sse = content_type.startswith("text/event-stream")
        tapped = _TappedStream(response.stream, self, self.name, response_meta, sse)
        if response.status_code >= 400:
            # The SDK gives up on an error status without reading the body; the user needs it.
            body = b"".join([chunk async for chunk in tapped])
            await tapped.aclose()
            response.stream = _Replay(body)
        else:
            response.stream = tapped
        return response

    def record_body(self, name: str, body: bytes, meta: dict[str, Any]) -> None:
        if not body:
            return
        content_type = _header(meta, "content-type")
        status = meta.get("status", 0)
        http = {"status": status, "request_seq": meta.get("request_seq")}
        if "json" in content_type and status < 400:
            self.store.record_message(Direction.IN, name, body, http=http)
        else:
            notes = [f"HTTP {status} body"] if status >= 400 else []
            self.store.record(Direction.IN, name, Kind.HTTP_META, body, http=http, notes=notes)

    def record_sse(self, name: str, frame: bytes, fields: dict[str, str], data: bytes, meta: dict[str, Any]) -> None:
        http = {
            "sse": {"event": fields.get("event", "message"), **fields},
            "request_seq": meta.get("request_seq"),
        }
        if fields.get("event", "message") == "message" and data.strip():
            self.store.record_message(Direction.IN, name, data, http=http)
        else:
            self.store.record(Direction.IN, name, Kind.HTTP_META, frame, http=http)

    async def aclose(self) -> None:
        await self.inner.aclose()


def _header(meta: dict[str, Any], name: str) -> str:
    for key, value in meta.get("headers", ()):
        if key.lower() == name:
            return value
    return ""


def describe_transport_error(exc: BaseException) -> str:
    """Type and text, e.g. "ConnectError: All connection attempts failed"; an empty message borrows its cause's."""
    text = str(exc) or str(exc.__cause__ or exc.__context__ or "")
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
