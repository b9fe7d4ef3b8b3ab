"""A Streamable HTTP MCP server (SDK ``MCPServer``, both eras) with HTTP-level faults planted on demand,
for the doctor's checks that the official conformance suite's ``server`` mode also makes.

    python doctor_http_faults.py --port PORT [--fault NAME ...]

Serves ``http://127.0.0.1:PORT/mcp``: one read-only tool (``echo``), one resource (``note://hello``), one
prompt (``greet``). Clean, it passes the suite's generic scenarios. Each ``--fault`` plants one fault:

- ``host``: no DNS-rebinding protection (a foreign ``Host`` / ``Origin`` is served);
- ``not-found``: an unknown resource is answered with -32000 (as server-everything does), not -32602;
- ``session``: session ids are ignored: an unknown or ended ``Mcp-Session-Id`` is served with the live
  session, and DELETE says 200 without ending anything;
- ``headers``: the 2026-07-28 ``Mcp-Method`` / ``Mcp-Name`` headers are not checked against the body
  (rewritten to match it before the SDK sees them);
- ``caching``: 2026-07-28 list results carry no ``ttlMs`` / ``cacheScope``;
- ``trust-state``: the tool that asks for input mid-call (2026-07-28) takes a ``requestState`` it did not
  sign, instead of refusing it;
- ``input-on-list``: 2026-07-28 ``prompts/list`` answers with an ``input_required`` result;
- ``streams``: one request stream per session: a session's POST answered with an event stream is kept
  open after its answer until the client closes it, and a POST of the session that comes while one is
  open is refused with HTTP 409 once the open one has stayed open 10 s more (a client that closes each
  stream as it sends the next is served; several requests at once, each stream held open until all are
  answered, as the suite's ``server-sse-multiple-streams`` and the doctor's ``sse-streams`` send them,
  are refused however fast or slow the machine). Sessions only: a 2026-07-28 request, which has none, is
  served as usual.

``--token T`` asks every request for ``Authorization: Bearer T`` (401 without); ``--deny-doctor`` answers 401
to the doctor's own requests (JSON-RPC ids ``mcp-lens-doctor-…``), as a server whose sign-in the
connection has and the doctor's probes have not; ``--hang-doctor`` never answers them (the connection held
open), as a server stuck on a request its clients never send.

``test_input_required_result_tampered_state`` (read-only, the name the suite's scenario calls) asks for a
confirmation in 2026-07-28 (an ``input_required`` result with an HMAC-signed ``requestState``) and says
"done" on the retry whose state verifies; in the handshake era it just says "done".
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import secrets
from typing import Annotated, Any

import anyio
import uvicorn
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ToolAnnotations
from pydantic import Field

FAULTS = ("host", "not-found", "session", "headers", "caching", "trust-state", "input-on-list", "streams")
CACHE_FIELDS = ("ttlMs", "cacheScope")
ASKS = "test_input_required_result_tampered_state"
STATE_KEY = "doctor-http-faults/requestState"
KEY = secrets.token_bytes(16)
CLOSE_GRACE = 10.0  # s: how long a POST waits for its session's open stream to close before its 409
QUESTION = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Go on?",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
    },
}


def echo(text: Annotated[str, Field(description="What to say back.")] = "hi") -> str:
    """Say the text back."""
    return text


def build_server(faults: set[str]) -> MCPServer:
    middleware = []
    if "not-found" in faults:
        middleware.append(_wrong_not_found_code)
    if "caching" in faults:
        middleware.append(_no_cache_hints)
    if "input-on-list" in faults:
        middleware.append(_input_on_list)
    middleware.append(_asks_for_input(trust="trust-state" in faults))
    server = MCPServer("http-faults", version="1.0.0", middleware=middleware)
    server.add_tool(echo, annotations=ToolAnnotations(read_only_hint=True), structured_output=False)
    server.add_tool(done, name=ASKS, annotations=ToolAnnotations(read_only_hint=True), structured_output=False)

    @server.resource("note://hello", description="A short note.")
    def hello() -> str:
        return "hello"

    @server.prompt(description="Greet someone.")
    def greet(name: str = "you") -> str:
        return f"Hello, {name}!"

    return server


def done() -> str:
    """Ask for a confirmation, then say done (2026-07-28: an input_required round first)."""
    return "done"


def _modern(ctx: ServerRequestContext[Any, Any]) -> bool:
    meta = (ctx.params or {}).get("_meta") if isinstance(ctx.params, dict) else None
    return isinstance(meta, dict) and "io.modelcontextprotocol/protocolVersion" in meta


def _sign(text: str) -> str:
    return f"{text}.{hmac.new(KEY, text.encode(), hashlib.sha256).hexdigest()}"


def _asks_for_input(trust: bool) -> Any:
    async def asks(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params if isinstance(ctx.params, dict) else {}
        if ctx.method != "tools/call" or params.get("name") != ASKS or not _modern(ctx):
            return await call_next(ctx)
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        state = meta.get(STATE_KEY)  # moved there by `KeepState`: the SDK would unseal it with its own key
        if state is None:
            return {"resultType": "input_required", "inputRequests": {"confirm": QUESTION}, "requestState": _sign("1")}
        if not trust and not (isinstance(state, str) and hmac.compare_digest(state, _sign("1"))):
            raise MCPError(code=INVALID_PARAMS, message="requestState failed its integrity check")
        return {"resultType": "complete", "content": [{"type": "text", "text": "done"}]}

    return asks


async def _input_on_list(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    if ctx.method == "prompts/list" and _modern(ctx):
        asks = {"resultType": "input_required", "inputRequests": {"confirm": QUESTION}, "requestState": "x"}
        return {**asks, "ttlMs": 0, "cacheScope": "private"}  # only the one fault
    return await call_next(ctx)


async def _wrong_not_found_code(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    try:
        return await call_next(ctx)
    except MCPError as exc:
        if ctx.method == "resources/read" and exc.code == INVALID_PARAMS:
            raise MCPError(code=-32000, message="Resource not found") from None
        raise


async def _no_cache_hints(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    result = await call_next(ctx)
    if isinstance(result, dict):
        return {key: value for key, value in result.items() if key not in CACHE_FIELDS}
    dump = getattr(result, "model_dump", None)
    if dump is not None and ctx.method.endswith("/list"):
        return {k: v for k, v in dump(by_alias=True, exclude_none=True).items() if k not in CACHE_FIELDS}
    return result


class IgnoreSessions:
    """ASGI: requests with a session id the server never issued (or one ended) reach the live session;
    DELETE is answered 200 and ends nothing."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.issued: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope["headers"]]
        sid = next((v.decode() for k, v in headers if k == b"mcp-session-id"), None)
        if scope["method"] == "DELETE" and sid is not None:
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        if sid is not None and sid not in self.issued and self.issued:
            live = self.issued[-1].encode()
            scope = {**scope, "headers": [(k, live if k == b"mcp-session-id" else v) for k, v in headers]}

        async def noting(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                for k, v in message.get("headers", []):
                    if k.lower() == b"mcp-session-id" and v.decode() not in self.issued:
                        self.issued.append(v.decode())
            await send(message)

        await self.app(scope, receive, noting)


async def _body(receive: Any) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def _replay(body: bytes, receive: Any) -> Any:
    sent = False

    async def replay() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


class OneStreamPerSession:
    """ASGI: a session's event-stream answer stays open until the client closes it; a POST of a session
    whose stream is still open after `CLOSE_GRACE` seconds is refused with 409. The grace is for a client
    that sends its next request as it closes the last stream (the close reaches us a moment later); one
    that keeps its streams open while it sends more is refused whatever the timing."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.open: dict[str, anyio.Event] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        sid = dict(scope.get("headers", [])).get(b"mcp-session-id", b"").decode()
        if scope["type"] != "http" or scope["method"] != "POST" or not sid:
            await self.app(scope, receive, send)
            return
        while (other := self.open.get(sid)) is not None:
            with anyio.move_on_after(CLOSE_GRACE):
                await other.wait()
            if not other.is_set():
                await _refuse(send)
                return
        closed = self.open[sid] = anyio.Event()
        streaming = False

        async def held(message: dict[str, Any]) -> None:
            nonlocal streaming
            if message["type"] == "http.response.start":
                kinds = [v for k, v in message.get("headers", []) if k.lower() == b"content-type"]
                streaming = any(v.startswith(b"text/event-stream") for v in kinds)
            if streaming and message["type"] == "http.response.body" and not message.get("more_body"):
                message = {**message, "more_body": True}  # the stream's end held back
            await send(message)

        try:
            await self.app(scope, receive, held)
            while streaming and (await receive())["type"] != "http.disconnect":
                pass  # open until the client closes it
        finally:
            del self.open[sid]
            closed.set()
        if streaming:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _refuse(send: Any) -> None:
    body = b'{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"this session has a request open"}}'
    await send({"type": "http.response.start", "status": 409, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


class KeepState:
    """ASGI: the asking tool's ``requestState`` moved into ``_meta`` before the SDK sees it (the SDK checks
    a ``requestState`` against its own seal; this server signs its own)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body = await _body(receive)
        try:
            value = json.loads(body)
        except ValueError:
            value = None
        params = value.get("params") if isinstance(value, dict) else None
        if isinstance(params, dict) and params.get("name") == ASKS and "requestState" in params:
            meta = params.setdefault("_meta", {})
            if isinstance(meta, dict):
                meta[STATE_KEY] = params.pop("requestState")
                body = json.dumps(value).encode()
        await self.app(scope, _replay(body, receive), send)


class Gate:
    """ASGI: 401 for a request without the bearer token (when one is set) or, with `deny_doctor`, for one
    whose JSON-RPC id is the doctor's."""

    def __init__(self, app: Any, token: str | None, deny_doctor: bool, hang_doctor: bool = False) -> None:
        self.app, self.token, self.deny_doctor, self.hang_doctor = app, token, deny_doctor, hang_doctor

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = await _body(receive) if scope["method"] == "POST" else b""
        sent = dict(scope["headers"]).get(b"authorization", b"").decode()
        denied = self.token is not None and sent != f"Bearer {self.token}"
        denied = denied or (self.deny_doctor and b'"mcp-lens-doctor-' in body)
        if self.hang_doctor and _doctors_own(body):
            await anyio.sleep_forever()
        if denied:
            await send({"type": "http.response.start", "status": 401, "headers": [(b"www-authenticate", b"Bearer")]})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, _replay(body, receive), send)


def _doctors_own(body: bytes) -> bool:
    """A request the doctor makes beside its connection: its JSON-RPC id is ``mcp-lens-doctor-N``."""
    try:
        value = json.loads(body)
    except ValueError:
        return False
    return isinstance(value, dict) and str(value.get("id", "")).startswith("mcp-lens-doctor-")


class TrustHeaders:
    """ASGI: ``Mcp-Method`` and ``Mcp-Name`` rewritten from the body, so a mismatch is never noticed."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body = await _body(receive)
        try:
            value = json.loads(body)
        except ValueError:
            value = None
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in (b"mcp-method", b"mcp-name")]
        if isinstance(value, dict) and isinstance(value.get("method"), str):
            headers.append((b"mcp-method", value["method"].encode()))
            params = value.get("params") if isinstance(value.get("params"), dict) else {}
            name = params.get("name") or params.get("uri")
            if isinstance(name, str):
                headers.append((b"mcp-name", name.encode()))
        await self.app({**scope, "headers": headers}, _replay(body, receive), send)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--fault", action="append", default=[], choices=FAULTS)
    parser.add_argument("--token", help="ask every request for Authorization: Bearer TOKEN")
    parser.add_argument("--deny-doctor", action="store_true", help="401 for the doctor's own requests")
    parser.add_argument("--hang-doctor", action="store_true", help="no answer to the doctor's own requests")
    args = parser.parse_args()
    faults = set(args.fault)
    security = None
    if "host" in faults:
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app: Any = build_server(faults).streamable_http_app(transport_security=security, host="127.0.0.1")
    app = KeepState(app)
    if "streams" in faults:
        app = OneStreamPerSession(app)
    if "session" in faults:
        app = IgnoreSessions(app)
    if "headers" in faults:
        app = TrustHeaders(app)
    if args.token or args.deny_doctor or args.hang_doctor:
        app = Gate(app, args.token, args.deny_doctor, args.hang_doctor)
    config = uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)


if __name__ == "__main__":
    main()
