"""Fetching a server's remote (https) icons, once the user allowed it for that server.

`fetch_icon` is the one place an icon URL is fetched: https only, public addresses only (the host is
resolved and every address checked first, `core/public_address.py`; the address connected to is
checked again); a redirect to anything else is refused; no cookies, no credentials from the
environment (`.netrc`), a size cap read as the body streams in, a per-read timeout and an overall
deadline. `RemoteIcons` runs fetches in a worker thread (never on the UI thread), one per URL however
many rows ask, and keeps each answer for the session.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from inspector.core.icons import MAX_DECODED_BYTES, IconBytes, IconRefused, checked_bytes, remote_refusal
from inspector.core.public_address import Resolver, host_refusal, not_public, resolve

TIMEOUT_S = 5.0  # connect and each read
DEADLINE_S = 10.0  # the whole fetch, redirects included
MAX_REDIRECTS = 3

if TYPE_CHECKING:
    import httpx2


def fetch_icon(
    url: str,
    *,
    transport: httpx2.BaseTransport | None = None,
    max_bytes: int = MAX_DECODED_BYTES,
    timeout: float = TIMEOUT_S,
    deadline: float = DEADLINE_S,
    resolver: Resolver = resolve,
) -> IconBytes:
    """The image at the https `url`; `IconRefused` (saying why) for anything else. Blocking: call it from a
    worker thread. `transport` replaces the network and `resolver` the name lookup (tests)."""
    import httpx2  # here: the window must not pay for it at start-up (tests/packaging/test_startup_imports.py)

    started = time.monotonic()
    with httpx2.Client(
        transport=transport, follow_redirects=False, timeout=timeout, trust_env=False, headers={"Accept": "image/*"}
    ) as client:
        for _ in range(MAX_REDIRECTS + 1):
            if reason := remote_refusal(url) or _address_refusal(url, resolver):
                raise IconRefused(reason)
            try:
                with client.stream("GET", url) as response:
                    if reason := _peer_refusal(response):
                        raise IconRefused(reason)
                    if response.is_redirect:
                        url = urljoin(url, response.headers.get("location", ""))
                        continue
                    if response.status_code != 200:
                        raise IconRefused(f"the icon URL answered HTTP {response.status_code}")
                    declared = response.headers.get("content-length", "")
                    if declared.isdigit() and int(declared) > max_bytes:
                        raise IconRefused(f"the icon is {int(declared) // 1024} KB (more than {max_bytes // 1024} KB)")
                    body = bytearray()
                    for chunk in response.iter_bytes():
                        body += chunk
                        if len(body) > max_bytes:
                            raise IconRefused(f"the icon is larger than {max_bytes // 1024} KB")
                        if time.monotonic() - started > deadline:
                            raise IconRefused(f"the icon took longer than {deadline:g} s to arrive")
                    return checked_bytes(bytes(body))
            except httpx2.HTTPError as exc:
                raise IconRefused(f"the icon could not be fetched: {exc or type(exc).__name__}") from None
        raise IconRefused(f"the icon URL redirected more than {MAX_REDIRECTS} times")


def _address_refusal(url: str, resolver: Resolver) -> str:
    parts = urlsplit(url)
    reason = host_refusal(parts.hostname or "", parts.port or 443, resolver)
    return f"the icon is not fetched: {reason}" if reason else ""


def _peer_refusal(response: httpx2.Response) -> str:
    """The address the connection reached, checked too: a name may resolve elsewhere the second time."""
    stream = response.extensions.get("network_stream")
    peer = stream.get_extra_info("server_addr") if stream is not None else None
    if isinstance(peer, tuple) and peer and (kind := not_public(str(peer[0]))):
        return f"the icon is not fetched: the connection reached {peer[0]}, {kind}"
    return ""


Outcome = IconBytes | IconRefused


class RemoteIcons:
    """The session's remote icons: `get(url)` → bytes, a refusal, or None while not fetched;
    `await load(url)` fetches (in a worker thread) once per URL. `fetched` lists the URLs asked for."""

    def __init__(self, fetch: Callable[[str], IconBytes] = fetch_icon) -> None:
        self._fetch = fetch
        self._done: dict[str, Outcome] = {}
        self._pending: dict[str, asyncio.Future[Outcome]] = {}
        self.fetched: list[str] = []

    def get(self, url: str) -> Outcome | None:
        return self._done.get(url)

    def refusals(self) -> dict[str, str]:
        """The URLs fetched and refused, each with its reason."""
        return {url: str(outcome) for url, outcome in self._done.items() if isinstance(outcome, IconRefused)}

    def pending(self, url: str) -> bool:
        return url in self._pending

    async def load(self, url: str) -> Outcome:
        if url in self._done:
            return self._done[url]
        if url in self._pending:
            return await asyncio.shield(self._pending[url])
        future: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._pending[url] = future
        self.fetched.append(url)
        try:
            outcome: Outcome = await asyncio.to_thread(self._fetch, url)
        except IconRefused as exc:
            outcome = exc
        except asyncio.CancelledError:
            del self._pending[url]
            future.cancel()
            raise
        except Exception as exc:  # any failure of one icon is that icon's refusal
            outcome = IconRefused(f"the icon could not be fetched: {exc}")
        self._done[url] = outcome
        del self._pending[url]
        future.set_result(outcome)
        return outcome
