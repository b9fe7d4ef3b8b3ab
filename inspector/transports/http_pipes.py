"""Streamable HTTP as pipes for the CLI's lean client (`core/lite.py`), on `http11`: no httpx, no SDK.

Each message sent is one POST; the messages its answer carries (a JSON body or an event stream) come
back through `next_line`, recorded as the SDK path's tap records them: the exact POST body, status
line and headers (secrets redacted), each SSE event's bytes. `Mcp-Session-Id` is kept from the
`initialize` answer, `MCP-Protocol-Version` from the last request that stamped one; in the legacy era
the server's GET stream is opened after `notifications/initialized`, and the session is ended with a
DELETE. What the SDK's client makes of a bare HTTP status (a 202 to a request, a 404, a redirect off
the endpoint's origin, a stream that ends unanswered) is told to the request the same way, as a
JSON-RPC error that is not recorded as the server's. A transport failure ends the pipes, as a closed
stdout does on stdio.
"""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from inspector import __version__
from inspector.config.eras import MODERN_PROTOCOL_VERSIONS
from inspector.config.redact import Redactor, profile_secrets, redact_url
from inspector.traffic.entry import TEARDOWN, Direction, Entry, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.http11 import HttpClient, HttpError, Origin, Response
from inspector.transports.http_profile import (
    USERINFO_DROPPED,
    HttpSecrets,
    redact_headers,
    without_overridden_userinfo,
)
from inspector.transports.sse_frames import SSEFrameSplitter

NAME = "http"
ACCEPT = "application/json, text/event-stream"
SESSION_HEADER = "mcp-session-id"
VERSION_HEADER = "mcp-protocol-version"
RESUME_ATTEMPTS = 2  # as the SDK: GETs with Last-Event-ID after a stream that ended unanswered
REDIRECTS = 5
CLOSE_WAIT_S = 5.0  # how long the closing DELETE may take: a server that does not answer it is left
# JSON-RPC codes the SDK's client gives a request its HTTP answer left unanswered
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INTERNAL_ERROR, CONNECTION_CLOSED = (
    -32700,
    -32600,
    -32601,
    -32603,
    -32000,
)


@dataclass(frozen=True)
class Told:
    """What `next_line` gives for an answer the client makes up (a bare status): no entry in the store."""

    kind: Kind


class HttpPipes:
    """``await start()``, ``await send(data, headers)`` per message, ``await next_line()`` for what comes back
    (None once the pipes ended), ``await close()``."""

    carries_headers = True  # the lean client gives `send` each request's HTTP headers

    def __init__(
        self,
        url: str,
        store: TrafficStore,
        *,
        headers: dict[str, str] | None = None,
        bearer_token: str | None = None,
        secret_headers: tuple[str, ...] = (),
        secret_values: tuple[str, ...] = (),
        connect_timeout: float = 30.0,
    ) -> None:
        self.url = url
        self.store = store
        self.headers = dict(headers or {})
        if bearer_token:
            self.headers["Authorization"] = f"Bearer {bearer_token}"
        self.secret_headers = tuple(secret_headers)
        known = HttpSecrets(url, self.headers, self.secret_headers, tuple(secret_values))
        store.protect(Redactor(profile_secrets(known), secret_headers=self.secret_headers))
        if (stripped := without_overridden_userinfo(url, self.headers)) is not None:
            self.url = stripped
            store.record(Direction.META, NAME, Kind.LIFECYCLE, USERINFO_DROPPED.encode())
        self.origin = Origin.of(self.url)
        if (basic := self.origin.basic_auth()) is not None:
            self.headers["Authorization"] = basic  # as httpx: the URL's user:password as Basic auth
        self.client = HttpClient(self.origin, connect_timeout=connect_timeout)
        self.session_id: str | None = None
        self.protocol_version: str | None = None
        self.last_status: int | None = None
        self.last_error: str | None = None
        self.gone_reason: str | None = None
        self._queue: asyncio.Queue[tuple[bytes, Any, Any] | None] = asyncio.Queue()
        self._posts: dict[Any, asyncio.Task[None]] = {}  # a request's id → the task reading its answer
        self._tasks: set[asyncio.Task[None]] = set()
        self._ended = False

    async def start(self) -> None:
        """Nothing to start: the first POST connects."""

    async def next_line(self) -> tuple[bytes, Any, Any] | None:
        """The next message from the server, recorded, with its JSON value; None once the pipes ended."""
        return None if self._ended and self._queue.empty() else await self._queue.get()

    def describe_exit(self) -> str:
        if self.gone_reason is not None:
            return f"the server at {self.store.redactor.url(self.url)} stopped answering ({self.gone_reason})"
        if self.last_error is not None:
            return f"the HTTP connection failed: {self.last_error}"
        if self.last_status is not None and self.last_status >= 400:
            return f"the server answered HTTP {self.last_status}"
        return "the HTTP connection closed"

    # -- sending ---------------------------------------------------------------------------------
    async def send(self, data: bytes, headers: dict[str, str] | None = None) -> Entry | None:
        """POST one message (`headers`: its own, e.g. the 2026-07-28 `Mcp-*` ones); returns once it is
        written, its answer read in the background. Raises `ConnectionError` when it cannot be sent."""
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        message = message if isinstance(message, dict) else {}
        method, rpc_id = message.get("method"), message.get("id")
        is_request = isinstance(method, str) and "id" in message
        headers = {name.lower(): value for name, value in (headers or {}).items()}
        if method == "initialize":
            self.protocol_version = None  # the negotiation: no version stamped yet
        elif headers.get(VERSION_HEADER):
            self.protocol_version = headers[VERSION_HEADER]
        if method == "notifications/cancelled" and self._modern():
            self._abort(message)  # 2026-07-28 HTTP has no notifications: closing the request's stream cancels it
            return None
        wire = self._headers(headers)
        request_meta = {
            "method": "POST",
            "url": redact_url(self.url),
            "headers": redact_headers([("Host", self.origin.host_header), *wire], self.secret_headers),
        }
        entry = self.store.record_message(Direction.OUT, NAME, data, http=request_meta)
        try:
            sent = await self.client.send("POST", wire, data)
        except HttpError as exc:
            self._failed(entry, request_meta, exc)
            raise ConnectionError(str(exc)) from None
        exchange = self._answer(sent, (wire, data), entry, request_meta, rpc_id if is_request else None, method)
        if not is_request:  # a notification or our answer to the server: its 202 before what comes next
            try:
                async with asyncio.timeout(self.client.connect_timeout):
                    await exchange
            except TimeoutError:
                error = HttpError(f"ReadTimeout: no answer within {self.client.connect_timeout:g}s")
                self._failed(entry, request_meta, error)
                raise ConnectionError(str(error)) from None
            if method == "notifications/initialized" and self.last_status is not None and self.last_status < 300:
                self._keep(asyncio.ensure_future(self.listen()))  # as the SDK: the server's GET stream, from now
            return entry
        task = asyncio.ensure_future(exchange)
        self._posts[rpc_id] = task
        self._keep(task)
        task.add_done_callback(lambda _: self._posts.pop(rpc_id, None) if self._posts.get(rpc_id) is task else None)
        return entry

    def _headers(self, own: dict[str, str]) -> list[tuple[str, str]]:
        wire = {
            "accept": ("Accept", ACCEPT),
            "content-type": ("Content-Type", "application/json"),
            "user-agent": ("User-Agent", f"mcp-lens/{__version__}"),
        }
        for name, value in self.headers.items():
            wire[name.lower()] = (name, value)
        if self.session_id:
            wire[SESSION_HEADER] = ("mcp-session-id", self.session_id)
        if self.protocol_version:
            wire[VERSION_HEADER] = ("mcp-protocol-version", self.protocol_version)
        for name, value in own.items():
            wire[name] = (name, value)
        return list(wire.values())

    def _modern(self) -> bool:
        """Whether the version in use is a 2026-07-28 one (its HTTP has no client notifications)."""
        return self.protocol_version in MODERN_PROTOCOL_VERSIONS

    def _abort(self, message: dict[str, Any]) -> None:
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        task = self._posts.pop(params.get("requestId"), None)
        if task is not None:
            task.cancel()

    def _keep(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- answers ---------------------------------------------------------------------------------
    async def _answer(
        self,
        sent: Any,
        request: tuple[list[tuple[str, str]], bytes],
        entry: Entry,
        meta: dict[str, Any],
        rpc_id: Any,
        method: Any,
    ) -> None:
        """Read the answer to one POST: status, then its body or stream; follow a same-origin 307/308."""
        try:
            for _ in range(REDIRECTS + 1):
                started = time.monotonic()
                response = await self.client.response(sent)
                self._record_status(response, entry, started)
                location = _same_origin_redirect(response, self.url)
                if location is None:
                    break
                await response.aclose()
                sent = await self.client.send("POST", *request, target=location)
            if method == "initialize" and response.status < 300 and (session := response.header(SESSION_HEADER)):
                self.session_id = session
            await self._body(response, entry, rpc_id)
        except HttpError as exc:
            self._failed(entry, meta, exc)
            self._end()
        except Exception as exc:  # what no server should make us do: said as a failure, never a stray traceback
            self._failed(entry, meta, HttpError(f"{type(exc).__name__}: {exc}"))
            self._end()

    async def _body(self, response: Response, entry: Entry, rpc_id: Any) -> None:
        status, content_type = response.status, response.header("content-type").lower()
        meta = {"status": status, "request_seq": entry.seq}
        if content_type.startswith("text/event-stream") and status < 300:
            await self._stream(response, entry, rpc_id)
            return
        body = await response.read()
        value = None
        answer = 200 <= status < 300 and status != 202  # a body the SDK's client reads as messages
        if body and "json" in content_type and status < 400:
            recorded, value = self.store.record_parsed(Direction.IN, NAME, body, http=meta)
            if answer and recorded.kind is Kind.UNPARSABLE and rpc_id is not None:  # as the SDK: the request fails
                self._tell(rpc_id, PARSE_ERROR, f"Failed to parse JSON response: {recorded.parse_error}")
                return
            if answer:
                self._queue.put_nowait((body, recorded, value))
        elif body:
            notes = [f"HTTP {status} body"] if status >= 400 else []
            self.store.record(Direction.IN, NAME, Kind.HTTP_META, body, http=meta, notes=notes)
            if status >= 400 and content_type.startswith("application/json"):
                with suppress(ValueError):
                    value = json.loads(body)
        if rpc_id is None:
            return
        if status == 202:
            self._tell(rpc_id, INVALID_REQUEST, "server answered a request with 202 Accepted")
        elif 300 <= status < 400:
            where = response.header("location")
            self._tell(rpc_id, INVALID_REQUEST, _redirect_words(self.url, where))
        elif status >= 400:
            error = value.get("error") if isinstance(value, dict) else None
            if isinstance(error, dict) and "result" not in value:  # the server's JSON-RPC error, for this request
                self._queue.put_nowait((body, Told(Kind.ERROR), {"jsonrpc": "2.0", "id": rpc_id, "error": error}))
            elif status == 404:
                found = (INVALID_REQUEST, "Session terminated") if self.session_id else (METHOD_NOT_FOUND, "Not Found")
                self._tell(rpc_id, *found)
            else:
                self._tell(rpc_id, INTERNAL_ERROR, "Server returned an error response")
        elif not content_type.startswith("application/json"):
            self._tell(rpc_id, INVALID_REQUEST, f"Unexpected content type: {content_type}")
        elif not body:
            self._tell(rpc_id, PARSE_ERROR, "Failed to parse JSON response: the body is empty")

    async def _stream(self, response: Response, entry: Entry, rpc_id: Any, attempt: int = 0) -> None:
        """Each event as it arrives. On a request's stream (as the SDK's client): the first response or
        error answers the request, whatever id it carries (the record keeps the server's); an event that
        does not parse fails it; a stream that ends unanswered is resumed by event id, else fails it."""
        splitter, last_id = SSEFrameSplitter(), None
        try:
            async for chunk in response.chunks():
                for frame, fields, data in splitter.feed(chunk):
                    last_id = fields.get("id", last_id)
                    http = {"sse": {"event": fields.get("event", "message"), **fields}, "request_seq": entry.seq}
                    if fields.get("event", "message") != "message" or not data.strip():
                        self.store.record(Direction.IN, NAME, Kind.HTTP_META, frame, http=http)
                    elif self._event(data, http, rpc_id):
                        await response.aclose()
                        return
        except HttpError as exc:  # cut: resumable when it named its events
            self.last_error = str(exc)
        if rpc_id is None:
            return
        if last_id is not None and attempt < RESUME_ATTEMPTS:
            await self._resume(entry, rpc_id, last_id, attempt + 1)
            return
        self._tell(rpc_id, CONNECTION_CLOSED, "SSE stream ended without a response")

    def _event(self, data: bytes, http: dict[str, Any], rpc_id: Any) -> bool:
        """Record and pass on one message event; True when it ends the request `rpc_id`'s stream."""
        recorded, value = self.store.record_parsed(Direction.IN, NAME, data, http=http)
        if rpc_id is None:
            self._queue.put_nowait((data, recorded, value))
            return False
        if recorded.kind is Kind.UNPARSABLE or not isinstance(value, dict):
            self._tell(rpc_id, PARSE_ERROR, f"Failed to parse SSE message: {recorded.parse_error or 'not an object'}")
            return True
        answer = recorded.kind in (Kind.RESPONSE, Kind.ERROR)
        if answer and value.get("id") != rpc_id:
            value = {**value, "id": rpc_id}
        self._queue.put_nowait((data, recorded, value))
        return answer

    async def _resume(self, entry: Entry, rpc_id: Any, last_id: str, attempt: int) -> None:
        response, sent = await self._plain("GET", [*self._bodiless(), ("Last-Event-ID", last_id)])
        if response.status >= 300 or not response.header("content-type").lower().startswith("text/event-stream"):
            await self._body(response, sent, None)
            self._tell(rpc_id, CONNECTION_CLOSED, f"SSE stream could not be resumed (HTTP {response.status})")
            return
        await self._stream(response, sent, rpc_id, attempt)

    async def _plain(
        self, method: str, wire: list[tuple[str, str]], probe: str | None = None
    ) -> tuple[Response, Entry]:
        """A GET or DELETE to the endpoint, recorded as the tap records one (`probe`: ours, e.g. TEARDOWN,
        which its status and failure inherit); the answer's body still to read."""
        meta = {
            "method": method,
            "url": redact_url(self.url),
            "headers": redact_headers([("Host", self.origin.host_header), *wire], self.secret_headers),
        }
        line = f"{method} {meta['url']}".encode()
        sent = self.store.record(Direction.OUT, NAME, Kind.HTTP_META, line, http=meta, probe=probe)
        started = time.monotonic()
        try:
            response = await self.client.request(method, wire)
        except HttpError as exc:
            self._failed(sent, meta, exc)
            raise
        self._record_status(response, sent, started)
        return response, sent

    def _bodiless(self) -> list[tuple[str, str]]:
        return [(name, value) for name, value in self._headers({}) if name.lower() != "content-type"]

    async def listen(self) -> None:
        """The legacy era's GET stream, for what the server sends outside any request (405: it has none)."""
        try:
            response, sent = await self._plain("GET", self._bodiless())
            if response.status == 200 and response.header("content-type").lower().startswith("text/event-stream"):
                await self._stream(response, sent, None)
            else:
                await response.aclose()
        except HttpError:
            pass  # recorded; the requests' own streams carry on
        except Exception as exc:
            self.store.record_failure(NAME, f"the GET stream failed: {type(exc).__name__}: {exc}", "transport error")

    def _record_status(self, response: Response, sent: Entry, started: float) -> Entry:
        self.last_status = response.status
        self.last_error = None
        content_type = response.header("content-type")
        meta = {
            "status": response.status,
            "reason": response.reason,
            "headers": redact_headers(response.headers, self.secret_headers),
            "request_seq": sent.seq,
            "elapsed_ms": round((time.monotonic() - started) * 1000.0, 3),
        }
        line = f"HTTP {response.status} {response.reason} ({content_type or 'no body type'})"
        notes = [] if response.status < 400 else [f"HTTP {response.status}"]
        return self.store.record(Direction.IN, NAME, Kind.HTTP_META, line.encode(), http=meta, notes=notes)

    def _tell(self, rpc_id: Any, code: int, message: str) -> None:
        """Answer our request ourselves (the SDK's words for a bare HTTP answer); never recorded as the server's."""
        error = {"jsonrpc": "2.0", "id": rpc_id, "error": {"code": code, "message": message}}
        self._queue.put_nowait((b"", Told(Kind.ERROR), error))

    def _failed(self, entry: Entry, meta: dict[str, Any], exc: HttpError) -> None:
        self.last_error = str(exc)
        if exc.refused:
            self.gone_reason = "connection refused"
        self.store.note(entry, "no response: transport error")
        self.store.record_failure(
            NAME,
            f"{meta['method']} {meta['url']} failed: {exc}",
            "transport error",
            http={**meta, "request_seq": entry.seq},
        )

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            self._queue.put_nowait(None)

    # -- closing ---------------------------------------------------------------------------------
    async def close(self) -> None:
        """End the session (DELETE, when the server gave one), then every stream and connection."""
        for task in list(self._tasks):
            task.cancel()
        if self.session_id and self.last_error is None and self.gone_reason is None:
            with suppress(HttpError, TimeoutError):
                async with asyncio.timeout(CLOSE_WAIT_S):
                    response, _ = await self._plain("DELETE", self._bodiless(), probe=TEARDOWN)
                    await response.aclose()
        await self.client.aclose()
        self._end()


def _same_origin_redirect(response: Response, url: str) -> str | None:
    """The target to POST again to: a 307/308 to the endpoint's own origin (the SDK follows only those)."""
    if response.status not in (307, 308) or not (location := response.header("location")):
        return None
    here, there = urlsplit(url), urlsplit(urljoin(url, location))
    if (here.scheme, here.hostname, here.port) != (there.scheme, there.hostname, there.port):
        return None
    return Origin.of(urljoin(url, location)).target  # percent-encoded: a control character cannot reach the wire


def _redirect_words(url: str, location: str) -> str:
    target = urljoin(url, location)
    if url.startswith("https:") and target.startswith("http:"):
        return (
            f"Redirect to {target} not followed: it would downgrade this HTTPS endpoint to plain HTTP.\n"
            f"Try {'https:' + target[5:]} instead, or fix the proxy settings."
        )
    return f"Redirect to {target} not followed; use that URL as the endpoint if it is the intended server"
