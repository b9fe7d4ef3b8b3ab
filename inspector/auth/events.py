"""The OAuth step log the Auth panel shows: discovery, registration, authorize, token, refresh."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

STEPS = ("discovery", "registration", "authorize", "token", "refresh", "dpop", "request", "info", "error")


@dataclass
class HttpExchange:
    """One OAuth HTTP request and its answer, with every secret already redacted."""

    method: str
    url: str
    status: int | None = None
    request_body: str = ""
    response_body: str = ""
    error: str | None = None


@dataclass
class AuthEvent:
    step: str  # one of STEPS
    summary: str
    exchange: HttpExchange | None = None
    ok: bool = True
    at: float = field(default_factory=time.time)


def classify(method: str, url: str, form: dict[str, str] | None) -> str:
    """Which step an OAuth HTTP request belongs to, from its URL and form body."""
    path = urlsplit(url).path
    if "/.well-known/" in path:
        return "discovery"
    grant = (form or {}).get("grant_type", "")
    if grant == "refresh_token":
        return "refresh"
    if grant:
        return "token"
    if method == "POST" and path.rstrip("/").endswith("register"):
        return "registration"
    if method == "GET" and "authorize" in path:
        return "authorize"
    return "request"


GRANT_WORDS = {
    "client_credentials": "token request (client credentials)",
    "urn:ietf:params:oauth:grant-type:jwt-bearer": "token request (JWT-bearer grant, RFC 7523)",
    "urn:ietf:params:oauth:grant-type:token-exchange": "token exchange (RFC 8693)",
}


def describe(step: str, method: str, url: str, status: int | None, grant: str | None = None) -> str:
    what = GRANT_WORDS.get(grant or "") or {
        "discovery": "metadata discovery",
        "registration": "dynamic client registration",
        "authorize": "authorization request",
        "token": "token exchange (authorization code + PKCE verifier)",
        "refresh": "token refresh",
    }.get(step, "request")
    answer = f"HTTP {status}" if status is not None else "no answer"
    return f"{what}: {method} {url} → {answer}"


class AuthLog:
    """An append-only list of events with listeners (called synchronously, on the caller's loop)."""

    def __init__(self) -> None:
        self.events: list[AuthEvent] = []
        self._listeners: list[Callable[[AuthEvent], Any]] = []

    def subscribe(self, listener: Callable[[AuthEvent], Any]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def add(self, step: str, summary: str, *, exchange: HttpExchange | None = None, ok: bool = True) -> AuthEvent:
        event = AuthEvent(step, summary, exchange, ok)
        self.events.append(event)
        for listener in list(self._listeners):
            listener(event)
        return event

    def steps(self) -> list[str]:
        return [e.step for e in self.events]
