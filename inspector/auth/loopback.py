"""The OAuth redirect listener: 127.0.0.1, a random port, open only while one sign-in runs.

It answers the browser with a static page (nothing the server sent is echoed), accepts only the
redirect that carries the `state` of the current authorization request, and gives up after a
timeout. Plain asyncio, so it runs under qasync as well as `asyncio.run`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from urllib.parse import parse_qsl, urlsplit

from mcp.shared.auth import AuthorizationCodeResult

from inspector.auth.errors import AuthCancelled, AuthDenied, AuthTimedOut
from inspector.auth.events import AuthLog

HOST = "127.0.0.1"
CALLBACK_PATH = "/callback"
DEFAULT_TIMEOUT = 300.0
_MAX_HEAD = 16 * 1024

_PAGE = (
    "<!doctype html><html><head><meta charset='utf-8'><title>MCP Lens</title></head>"
    "<body style='font-family: sans-serif; margin: 3em'><h2>{title}</h2><p>{text}</p></body></html>"
)
_DONE = _PAGE.format(title="Signed in", text="MCP Lens received the answer. You can close this tab.")
_DENIED = _PAGE.format(
    title="Sign-in not completed",
    text="The authorization server refused or cancelled the sign-in. You can close this tab; MCP Lens shows why.",
)
_WRONG_STATE = _PAGE.format(
    title="Rejected",
    text="This answer does not belong to the sign-in MCP Lens is waiting for (state mismatch). You can close this tab.",
)


class LoopbackListener:
    """``async with LoopbackListener() as listener:`` → `listener.redirect_uri`; then `await listener.wait()`."""

    def __init__(self, *, timeout: float = DEFAULT_TIMEOUT, log: AuthLog | None = None) -> None:
        self.timeout = timeout
        self.log = log
        self.expected_state: str | None = None
        self.port: int | None = None
        self._server: asyncio.AbstractServer | None = None
        self._result: asyncio.Future[AuthorizationCodeResult] | None = None

    @property
    def redirect_uri(self) -> str:
        if self.port is None:
            raise RuntimeError("the listener is not started")
        return f"http://{HOST}:{self.port}{CALLBACK_PATH}"

    @property
    def listening(self) -> bool:
        return self._server is not None

    async def start(self) -> str:
        self._result = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_server(self._serve, HOST, 0)
        self.port = self._server.sockets[0].getsockname()[1]
        if self.log is not None:
            self.log.add("info", f"redirect listener opened on {self.redirect_uri}")
        return self.redirect_uri

    async def close(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        await server.wait_closed()
        if self._result is not None and not self._result.done():
            self._result.cancel()
        if self.log is not None:
            self.log.add("info", f"redirect listener on port {self.port} closed")

    async def __aenter__(self) -> LoopbackListener:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def expect(self, authorization_url: str) -> None:
        """Remember the `state` of the authorization request about to be opened."""
        query = dict(parse_qsl(urlsplit(authorization_url).query))
        self.expected_state = query.get("state")

    def cancel(self) -> None:
        if self._result is not None and not self._result.done():
            self._result.set_exception(AuthCancelled("sign-in cancelled"))

    async def wait(self) -> AuthorizationCodeResult:
        """The code of the redirect whose state matches; raises on timeout, denial or cancel."""
        if self._result is None:
            raise RuntimeError("the listener is not started")
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), self.timeout)
        except TimeoutError:
            raise AuthTimedOut(
                f"no answer from the browser within {self.timeout:g}s",
                hint="Finish signing in in the browser, then click Sign in again.",
            ) from None

    # -- HTTP ----------------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10.0)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            writer.close()
            return
        status, page = self._handle(head[:_MAX_HEAD].decode("latin-1"))
        body = page.encode()
        writer.write(
            f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        writer.close()

    def _handle(self, head: str) -> tuple[str, str]:
        parts = head.split("\r\n", 1)[0].split(" ")
        if len(parts) < 2 or parts[0] != "GET":
            return "405 Method Not Allowed", _PAGE.format(title="Not here", text="")
        target = urlsplit(parts[1])
        if target.path != CALLBACK_PATH:
            return "404 Not Found", _PAGE.format(title="Not here", text="")
        query = dict(parse_qsl(target.query))
        state = query.get("state")
        if self.expected_state is None or state is None or not secrets.compare_digest(state, self.expected_state):
            if self.log is not None:
                self.log.add("authorize", "rejected a redirect whose state does not match this sign-in", ok=False)
            return "400 Bad Request", _WRONG_STATE
        if self._result is None or self._result.done():
            return "409 Conflict", _DONE
        if "error" in query or "code" not in query:
            error = query.get("error", "no code in the redirect")
            detail = query.get("error_description", "")
            self._result.set_exception(AuthDenied(f"the authorization server answered {error}: {detail}".rstrip(": ")))
            return "200 OK", _DENIED
        if self.log is not None:
            self.log.add("authorize", "the browser came back with an authorization code (state matches)")
        self._result.set_result(AuthorizationCodeResult(code=query["code"], state=state, iss=query.get("iss")))
        return "200 OK", _DONE
