"""A small HTTP/1.1 client over asyncio streams, for the CLI's lean Streamable HTTP path.

No httpx, no SDK: a request takes an idle kept-alive connection or opens one (several may be in
flight at once: an SSE answer stays open while another POST answers the server); TLS through the
stdlib's `ssl`, imported only for ``https``. Bodies by Content-Length, chunked, or to the end of the
connection. A transport failure (refused, reset, a framing the client cannot read) is an `HttpError`.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote, urlsplit

STREAM_LIMIT = 1 << 20  # the longest status or header line read, and the reader's buffer
MAX_HEADER_BYTES = 1 << 20
READ_SIZE = 1 << 16
PATH_SAFE = "/%:@!$&'()*+,;=-._~"  # RFC 3986 pchar and "/", and "%" so that existing escapes stay
QUERY_SAFE = PATH_SAFE + "?"


class HttpError(ConnectionError):
    """The exchange failed below HTTP: cannot connect, connection reset or cut, a response that is not HTTP/1.x."""

    refused = False  # the server's port refused the connection: nothing listens there


@dataclass(frozen=True)
class Origin:
    """Where requests go: scheme, host, port, and the request target (path and query) of the endpoint."""

    scheme: str
    host: str
    port: int
    target: str
    userinfo: tuple[str, str] | None = None  # the URL's user:password, unquoted

    @classmethod
    def of(cls, url: str) -> Origin:
        """`ValueError` for a URL that is not ``http(s)://host…``."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http:// or https:// URL: {url!r}")
        port = parts.port or (443 if parts.scheme == "https" else 80)
        # as httpx sends them: the path and query percent-encoded as UTF-8 (escapes kept), the host as IDNA
        path = quote(parts.path or "/", safe=PATH_SAFE)
        target = path + (f"?{quote(parts.query, safe=QUERY_SAFE)}" if parts.query else "")
        userinfo = None
        if parts.username is not None or parts.password is not None:
            userinfo = (unquote(parts.username or ""), unquote(parts.password or ""))
        host = parts.hostname
        if not host.isascii():
            host = host.encode("idna").decode("ascii")
        return cls(parts.scheme, host, port, target, userinfo)

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"

    def basic_auth(self) -> str | None:
        """``Basic …`` from the URL's user:password (as httpx sends it), or None."""
        if self.userinfo is None:
            return None
        token = base64.b64encode(f"{self.userinfo[0]}:{self.userinfo[1]}".encode()).decode("ascii")
        return f"Basic {token}"


class Response:
    """Status and headers read; the body is read with `chunks()` (or `read()`), once."""

    def __init__(self, status: int, reason: str, headers: list[tuple[str, str]], body: _Body) -> None:
        self.status = status
        self.reason = reason
        self.headers = headers
        self._body = body

    def header(self, name: str) -> str:
        name = name.lower()
        return next((value for key, value in self.headers if key.lower() == name), "")

    def chunks(self) -> AsyncIterator[bytes]:
        return self._body.chunks()

    async def read(self) -> bytes:
        return b"".join([chunk async for chunk in self.chunks()])

    async def aclose(self) -> None:
        """Done with it: a body read whole returns the connection to the pool, any other is closed."""
        self._body.release()


class _Body:
    def __init__(self, client: HttpClient, conn: _Conn, length: int | None, chunked: bool, reusable: bool) -> None:
        self.client, self.conn = client, conn
        self.length, self.chunked, self.reusable = length, chunked, reusable
        self.done = length == 0
        self.released = False

    async def chunks(self) -> AsyncIterator[bytes]:
        reader = self.conn.reader
        try:
            if self.chunked:
                while True:
                    size_line = await reader.readline()
                    if not size_line.endswith(b"\n"):
                        raise HttpError("the connection closed inside a chunked body")
                    try:
                        size = int(size_line.split(b";", 1)[0].strip(), 16)
                    except ValueError:
                        raise HttpError(f"bad chunk size line {size_line[:40]!r}") from None
                    if size == 0:
                        while await reader.readline() not in (b"\r\n", b"\n", b""):
                            pass  # trailers
                        break
                    while size:
                        data = await reader.read(min(size, READ_SIZE))
                        if not data:
                            raise HttpError("the connection closed inside a chunk")
                        size -= len(data)
                        yield data
                    await reader.readline()
            elif self.length is not None:
                left = self.length
                while left:
                    data = await reader.read(min(left, READ_SIZE))
                    if not data:
                        raise HttpError(f"the connection closed {left} bytes before the body's end")
                    left -= len(data)
                    yield data
            else:  # to the end of the connection
                while data := await reader.read(READ_SIZE):
                    yield data
            self.done = True
        except (ConnectionError, OSError) as exc:
            if isinstance(exc, HttpError):
                raise
            raise HttpError(f"{type(exc).__name__}: {exc}") from exc
        finally:
            self.release()

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        if self.done and self.reusable:
            self.client.idle.append(self.conn)
        else:
            self.conn.close()


class _Conn:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def usable(self) -> bool:
        return not self.reader.at_eof() and not self.writer.is_closing()

    def close(self) -> None:
        with suppress(Exception):
            self.writer.close()


class HttpClient:
    """Requests to one origin; `aclose()` closes every connection it kept."""

    def __init__(self, origin: Origin, *, connect_timeout: float = 30.0) -> None:
        self.origin = origin
        self.connect_timeout = connect_timeout
        self.idle: list[_Conn] = []
        self._open: set[_Conn] = set()
        self._ssl: Any = None

    def _ssl_context(self) -> Any:
        if self._ssl is None:
            import ssl  # only for https

            self._ssl = ssl.create_default_context()  # honours SSL_CERT_FILE / SSL_CERT_DIR
        return self._ssl

    async def _connect(self) -> _Conn:
        tls = self._ssl_context() if self.origin.scheme == "https" else None
        try:
            async with asyncio.timeout(self.connect_timeout):
                reader, writer = await asyncio.open_connection(
                    self.origin.host, self.origin.port, ssl=tls, limit=STREAM_LIMIT
                )
        except TimeoutError:
            raise HttpError(f"ConnectTimeout: no connection within {self.connect_timeout:g}s") from None
        except OSError as exc:
            error = HttpError(f"ConnectError: {exc.strerror or exc}")
            error.refused = isinstance(exc, ConnectionRefusedError) or "refused" in str(exc).lower()
            raise error from exc
        conn = _Conn(reader, writer)
        self._open.add(conn)
        return conn

    async def send(
        self, method: str, headers: list[tuple[str, str]], body: bytes = b"", target: str = "", host: str = ""
    ) -> Sent:
        """Write one request (to `target`, else the endpoint) on an idle or a new connection; `HttpError`
        when it cannot be written. Read its answer with `response()`. `host`: another Host header than the
        endpoint's (the doctor's DNS-rebinding probe)."""
        if any(_breaks_line(part) for pair in [*headers, ("Host", host)] for part in pair):
            raise HttpError("LocalProtocolError: a header holds a line break or NUL: not sent")
        head = [f"{method} {target or self.origin.target} HTTP/1.1", f"Host: {host or self.origin.host_header}"]
        head += [f"{name}: {value}" for name, value in headers]
        if body or method in ("POST", "PUT"):
            head.append(f"Content-Length: {len(body)}")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1", "replace") + body
        while self.idle:
            conn = self.idle.pop()
            if conn.usable():
                try:
                    await self._write(conn, data)
                    return Sent(method, data, conn, reused=True)
                except HttpError:
                    continue  # closed while idle: a new one
            conn.close()
        conn = await self._connect()
        await self._write(conn, data)
        return Sent(method, data, conn, reused=False)

    async def _write(self, conn: _Conn, data: bytes) -> None:
        try:
            conn.writer.write(data)
            await conn.writer.drain()
        except (ConnectionError, OSError) as exc:
            conn.close()
            raise HttpError(f"WriteError: {exc}") from exc

    async def response(self, sent: Sent) -> Response:
        """The status and headers of what `sent` asked (the body still to read)."""
        try:
            return await self._exchange(sent.conn, sent.method)
        except _Stale as exc:
            if not sent.reused:
                raise HttpError(str(exc)) from None
        # a kept-alive connection the server closed meanwhile: nothing came back, send it again on a new one
        sent.conn = await self._connect()
        sent.reused = False
        await self._write(sent.conn, sent.data)
        try:
            return await self._exchange(sent.conn, sent.method)
        except _Stale as exc:
            raise HttpError(str(exc)) from None

    async def request(
        self, method: str, headers: list[tuple[str, str]], body: bytes = b"", target: str = "", host: str = ""
    ) -> Response:
        return await self.response(await self.send(method, headers, body, target, host))

    async def _exchange(self, conn: _Conn, method: str) -> Response:
        reader = conn.reader
        try:
            status_line = await reader.readline()
            if not status_line:
                raise _Stale("RemoteProtocolError: Server disconnected without sending a response.")
            version, _, rest = status_line.decode("latin-1").rstrip("\r\n").partition(" ")
            code, _, reason = rest.partition(" ")
            if not version.startswith("HTTP/1.") or not _digits(code) or len(code) != 3:
                raise HttpError(f"RemoteProtocolError: not an HTTP/1.x status line: {status_line[:80]!r}")
            headers: list[tuple[str, str]] = []
            size = 0
            while (line := await reader.readline()) not in (b"\r\n", b"\n"):
                if not line:
                    raise HttpError("RemoteProtocolError: the connection closed inside the headers")
                size += len(line)
                if size > MAX_HEADER_BYTES:
                    raise HttpError("RemoteProtocolError: headers over 1 MiB")
                name, _, value = line.decode("latin-1").partition(":")
                headers.append((name.strip(), value.strip()))
        except (ConnectionError, OSError, ValueError) as exc:  # ValueError: a line over the stream limit
            conn.close()
            if isinstance(exc, HttpError):
                raise
            raise HttpError(f"{type(exc).__name__}: {exc}") from exc
        except BaseException:
            conn.close()
            raise
        status = int(code)
        if status < 200:  # 1xx: read the final response (100 Continue was never asked for)
            return await self._exchange(conn, method)
        lower = {name.lower(): value.lower() for name, value in headers}
        chunked = "chunked" in lower.get("transfer-encoding", "")
        length: int | None = None
        if method == "HEAD" or status in (204, 304):
            length = 0
        elif not chunked and "content-length" in lower:
            if not _digits(declared := lower["content-length"]):
                conn.close()
                raise HttpError(f"RemoteProtocolError: bad Content-Length {declared[:40]!r}")
            length = int(declared)
        reusable = (chunked or length is not None) and lower.get("connection") != "close"
        return Response(status, reason, headers, _Body(self, conn, length, chunked, reusable))

    async def aclose(self) -> None:
        for conn in self._open:
            conn.close()
        self._open.clear()
        self.idle.clear()


def _breaks_line(text: str) -> bool:
    """A header name or value that would end its line early (one header smuggling in another)."""
    return "\r" in text or "\n" in text or "\0" in text


def _digits(text: str) -> bool:
    """ASCII digits only (``"²".isdigit()`` is true, and `int` refuses it)."""
    return text.isascii() and text.isdigit()


@dataclass
class Sent:
    """A request written and not yet answered (kept to send again when a kept-alive connection was stale)."""

    method: str
    data: bytes
    conn: _Conn
    reused: bool


class _Stale(HttpError):
    """Nothing came back on a connection: on a kept-alive one, the server closed it while idle."""
