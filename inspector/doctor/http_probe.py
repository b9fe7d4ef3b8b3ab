"""The doctor's own HTTP exchanges with a Streamable HTTP server, beside the connection it checks: a
foreign Host, a session of its own, a header that does not match the body. Each one is recorded in the
connection's traffic store as a doctor probe (`traffic.entry.DOCTOR_PROBE`: the log shows it as ours,
a refusal no flag), with the profile's headers (its credentials) and their secrets redacted as the
connection's are. Its ids are strings (``mcp-lens-doctor-N``): they never pair with the connection's."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from itertools import count
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from inspector.config.redact import redact_url
from inspector.traffic.entry import DOCTOR_PROBE, Direction, Kind
from inspector.transports.http11 import HttpClient, HttpError, Origin
from inspector.transports.http_profile import redact_headers
from inspector.transports.sse_frames import SSEFrameSplitter

if TYPE_CHECKING:
    from inspector.core.operations import Operations
    from inspector.traffic.store import TrafficStore

TRANSPORT = "http"
ACCEPT = "application/json, text/event-stream"
LOOPBACK = ("localhost", "127.0.0.1", "::1")
MAX_BODY = 1 << 20  # an answer's bytes kept; a probe's answer is small


class Unauthorized(Exception):
    """The server answered a probe 401: it wants the sign-in the connection has and the probe has not."""


class Unanswered(Exception):
    """A probe got no answer in time: the check it serves cannot tell what the server does (`why` says)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@dataclass
class Answer:
    """What a probe got back: HTTP status and headers, and the JSON-RPC message of the body (the first
    one of an event stream), or None."""

    status: int
    headers: dict[str, str]
    message: dict[str, Any] | None = None
    error: str | None = None  # the exchange failed below HTTP

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), "")

    @property
    def rpc_error(self) -> dict[str, Any] | None:
        error = (self.message or {}).get("error")
        return error if isinstance(error, dict) else None

    @property
    def code(self) -> Any:
        return (self.rpc_error or {}).get("code")

    @property
    def code_said(self) -> str:
        """The error code as a finding says it: the server's value, cut (it may be any JSON)."""
        said = repr(self.code)
        return said if len(said) <= 40 else said[:39] + "…"

    @property
    def result(self) -> dict[str, Any] | None:
        result = (self.message or {}).get("result")
        return result if isinstance(result, dict) else None


def endpoint_of(conn: Operations) -> tuple[str, dict[str, str]] | None:
    """The URL and configured headers of a Streamable HTTP connection (the SDK's or the lean one); None
    for stdio and legacy SSE."""
    carrier = getattr(conn, "transport", None) or getattr(conn, "pipes", None)
    url = getattr(carrier, "url", None)
    if not isinstance(url, str) or getattr(carrier, "kind", "http") != "http" or not url.startswith("http"):
        return None
    return url, dict(getattr(carrier, "headers", None) or {})


def is_loopback(url: str) -> bool:
    """A plain-HTTP URL on this machine: where DNS rebinding reaches a server from a web page."""
    parts = urlsplit(url)
    return parts.scheme == "http" and (parts.hostname or "").lower() in LOOPBACK


@dataclass
class HttpProbe:
    """Exchanges of the doctor's own with one endpoint; `aclose()` when done."""

    url: str
    headers: dict[str, str]
    store: TrafficStore | None
    timeout: float
    _ids: Any = field(default_factory=lambda: count(1))

    def __post_init__(self) -> None:
        self.origin = Origin.of(self.url)
        self.client = HttpClient(self.origin, connect_timeout=self.timeout)

    def message(self, method: str, params: dict[str, Any] | None = None, *, notification: bool = False) -> bytes:
        body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if not notification:
            body["id"] = f"mcp-lens-doctor-{next(self._ids)}"
        if params is not None:
            body["params"] = params
        return json.dumps(body).encode()

    async def send(
        self, verb: str, body: bytes = b"", headers: dict[str, str] | None = None, *, host: str = ""
    ) -> Answer:
        """One exchange, recorded; `headers` replace the profile's of the same name (None drops one)."""
        return (await self.at_once(verb, [body], headers, host=host))[0]

    async def at_once(
        self, verb: str, bodies: list[bytes], headers: dict[str, str] | None = None, *, host: str = ""
    ) -> list[Answer]:
        """Several exchanges at once, each on its own connection: every request written and every answer's
        status and headers read before any body is (so each is open while the others are sent)."""
        wire: dict[str, tuple[str, str]] = {"accept": ("Accept", ACCEPT)}
        if any(bodies):
            wire["content-type"] = ("Content-Type", "application/json")
        for name, value in {**self.headers, **(headers or {})}.items():
            wire[name.lower()] = (name, value)
        pairs = [pair for pair in wire.values() if pair[1] is not None]
        sent_host = host or self.origin.host_header
        meta = {
            "method": verb,
            "url": redact_url(self.url),
            "headers": redact_headers([("Host", sent_host), *pairs]),
        }
        outs = [self._record_out(verb, body, meta) for body in bodies]
        try:
            async with _deadline(self.timeout):
                sent = await asyncio.gather(
                    *(self.client.send(verb, pairs, body, host=host) for body in bodies), return_exceptions=True
                )
                heads = await asyncio.gather(
                    *(self.client.response(s) for s in sent if not isinstance(s, BaseException)),
                    return_exceptions=True,
                )
                responses = iter(heads)
                answers = [s if isinstance(s, BaseException) else next(responses) for s in sent]
                return [await self._answer(a, out) for a, out in zip(answers, outs, strict=True)]
        except TimeoutError:
            why = f"no answer within {self.timeout:g} s"
            for out in outs:
                self._record_failure(why, out)
            raise Unanswered(f"{verb} {_method_of(bodies[0]) or ''}".strip() + f": {why}") from None

    async def _answer(self, response: Any, out: int | None) -> Answer:
        """A response's answer read and recorded (a failure below HTTP as an answer with `error`)."""
        try:
            if isinstance(response, BaseException):
                raise response
            answer = Answer(response.status, {k.lower(): v for k, v in response.headers})
            data = await _read(response, answer.header("content-type"))
        except HttpError as exc:
            why = str(exc) or type(exc).__name__
            self._record_failure(why, out)
            return Answer(0, {}, error=why)
        raw, answer.message = _first_message(data, answer.header("content-type"))
        self._record_in(answer, out, raw, data)
        if answer.status == 401:
            raise Unauthorized
        return answer

    def _record_failure(self, why: str, out: int | None) -> None:
        if self.store is not None:
            self.store.record(
                Direction.META, TRANSPORT, Kind.LIFECYCLE, why.encode(), http={"request_seq": out}, probe=DOCTOR_PROBE
            )

    def _record_in(self, answer: Answer, out: int | None, raw: bytes, data: bytes) -> None:
        if self.store is not None:
            http = {"status": answer.status, "request_seq": out}
            if answer.message is not None:
                self.store.record_message(Direction.IN, TRANSPORT, raw, http=http)
            else:
                self.store.record(Direction.IN, TRANSPORT, Kind.HTTP_META, data, http=http, probe=DOCTOR_PROBE)

    async def post(
        self, method: str, params: dict[str, Any] | None = None, headers: dict[str, str] | None = None, **kw: Any
    ) -> Answer:
        return await self.send("POST", self.message(method, params), headers, **kw)

    def _record_out(self, verb: str, body: bytes, meta: dict[str, Any]) -> int | None:
        if self.store is None:
            return None
        if body:
            method = _method_of(body)
            with self.store.probing(method, DOCTOR_PROBE):
                return self.store.record_message(Direction.OUT, TRANSPORT, body, http=meta).seq
        line = f"{verb} {meta['url']}".encode()
        return self.store.record(Direction.OUT, TRANSPORT, Kind.HTTP_META, line, http=meta, probe=DOCTOR_PROBE).seq

    async def aclose(self) -> None:
        await self.client.aclose()


def _method_of(body: bytes) -> str:
    try:
        value = json.loads(body)
    except ValueError:
        return ""
    method = value.get("method") if isinstance(value, dict) else None
    return method if isinstance(method, str) else ""


async def _read(response: Any, content_type: str) -> bytes:
    """The body, up to `MAX_BODY`; an event stream up to its first message event."""
    chunks: list[bytes] = []
    size = 0
    stream = content_type.lower().startswith("text/event-stream")
    splitter = SSEFrameSplitter() if stream else None
    async for chunk in response.chunks():
        chunks.append(chunk)
        size += len(chunk)
        if splitter is not None and any(data.strip() for _, _, data in splitter.feed(chunk)):
            break
        if size > MAX_BODY:
            break
    await response.aclose()
    return b"".join(chunks)


def _first_message(data: bytes, content_type: str) -> tuple[bytes, dict[str, Any] | None]:
    """The bytes of the body's JSON-RPC message (an event stream's first message event) and its value."""
    texts: list[bytes] = [data]
    if content_type.lower().startswith("text/event-stream"):
        texts = [event for _, _, event in SSEFrameSplitter().feed(data) if event.strip()]
    for text in texts:
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict):
            return text, value
    return data, None


def _deadline(seconds: float) -> Any:
    return asyncio.timeout(seconds)
