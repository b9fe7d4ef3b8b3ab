"""The OAuth tap against a real loopback HTTP server: gzip bodies pass through intact, the record is redacted."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx2
import uvicorn
from lens_support import free_port
from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from inspector.auth.events import AuthLog
from inspector.auth.tap import OAUTH_EXTENSION, OAuthRouter, OAuthTap
from inspector.traffic.store import TrafficStore

TOKEN = "very-secret-token-" * 20


@contextmanager
def serving(app: Starlette) -> Iterator[int]:
    """`app` on a loopback port (uvicorn on a thread) for the duration of the block; yields the port."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


async def _token(_request: Request) -> JSONResponse:
    return JSONResponse({"access_token": TOKEN, "token_type": "Bearer", "expires_in": 60})


async def _refused(_request: Request) -> JSONResponse:
    return JSONResponse({"error": "invalid_grant"}, status_code=400)


def test_gzip_token_response_reaches_the_client_once_decoded_and_is_recorded_redacted() -> None:
    app = Starlette(routes=[Route("/token", _token, methods=["POST"])])
    app.add_middleware(GZipMiddleware, minimum_size=10)
    store, log = TrafficStore(), AuthLog()

    async def run() -> httpx2.Response:
        router = OAuthRouter(httpx2.AsyncHTTPTransport(), OAuthTap(store, log, httpx2.AsyncHTTPTransport()))
        async with httpx2.AsyncClient(transport=router) as client:
            request = client.build_request(
                "POST",
                f"http://127.0.0.1:{port}/token",
                data={"grant_type": "authorization_code", "code": "the-code", "code_verifier": "v" * 43},
                headers={"Accept-Encoding": "gzip"},
            )
            request.extensions[OAUTH_EXTENSION] = True
            answer = await client.send(request)
            unmarked = await client.get(f"http://127.0.0.1:{port}/mcp")  # the MCP side: not the OAuth tap's
            assert unmarked.status_code == 404
            return answer

    with serving(app) as port:
        answer = asyncio.run(run())
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.json()["access_token"] == TOKEN
    assert len(store) == 2  # the token request and its answer; the unmarked request went elsewhere
    recorded = b"\n".join(entry.raw for entry in store)
    assert TOKEN.encode() not in recorded and b"the-code" not in recorded and b"v" * 43 not in recorded
    assert b'"access_token": "<redacted>"' in recorded
    assert [event.step for event in log.events] == ["token"]
    assert log.events[0].exchange is not None and log.events[0].exchange.status == 200
    # A sign-in that went well is not an error: it must not fill the traffic log's "Errors only".
    assert not any(entry.flagged for entry in store)
    assert all(entry.http["redacted"] for entry in store)


def test_a_refused_token_request_is_flagged_with_its_status() -> None:
    app = Starlette(routes=[Route("/token", _refused, methods=["POST"])])
    store = TrafficStore()

    async def run() -> None:
        async with httpx2.AsyncClient(transport=OAuthTap(store, AuthLog(), httpx2.AsyncHTTPTransport())) as client:
            await client.post(f"http://127.0.0.1:{port}/token", data={"grant_type": "refresh_token"})

    with serving(app) as port:
        asyncio.run(run())
    sent, answer = list(store)
    assert not sent.flagged
    assert answer.flagged and answer.notes == ("OAuth refresh: HTTP 400 Bad Request",)
