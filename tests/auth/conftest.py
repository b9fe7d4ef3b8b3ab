"""Fixtures for the OAuth tests: a real OAuth-protected MCP server, a private token folder, a headless browser."""

from __future__ import annotations

import json
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx2
import pytest
from lens_support import free_port, serve

SERVER = Path(__file__).with_name("oauth_server.py")


@dataclass
class OAuthServer:
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def migrate(self, to: OAuthServer) -> None:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/migrate?to=http://127.0.0.1:{to.port}", method="POST"
        )
        urllib.request.urlopen(request, timeout=5).close()

    def stats(self) -> dict:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=5) as response:
            return json.loads(response.read())


def _start(lifetime: int, *extra: str) -> Iterator[OAuthServer]:
    port = free_port()
    for _ in serve([sys.executable, str(SERVER), str(port), "--token-lifetime", str(lifetime), *extra], port):
        yield OAuthServer(port)


@pytest.fixture
def oauth_server() -> Iterator[OAuthServer]:
    """An OAuth-protected MCP server (tokens live an hour)."""
    yield from _start(3600)


@pytest.fixture
def short_token_server() -> Iterator[OAuthServer]:
    """The same server issuing access tokens that expire after 2 seconds."""
    yield from _start(2)


@pytest.fixture
def step_up_server() -> Iterator[OAuthServer]:
    """The same server where `tools/call` also needs the scope `extra` (HTTP 403 insufficient_scope)."""
    yield from _start(3600, "--step-up-scope", "extra")


@pytest.fixture
def migrating_servers() -> Iterator[tuple[OAuthServer, OAuthServer]]:
    """(A, B): A is the MCP server and its first authorization server and also accepts B's tokens;
    `A.migrate(B)` makes A's resource metadata name B and drops A's tokens."""
    for new in _start(3600):
        for old in _start(3600, "--trust", f"http://127.0.0.1:{new.port}"):
            yield old, new


@pytest.fixture
def auth_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private XDG config dir (for the CLI too) with the keyring disabled and "Keep secrets in a file"
    ticked (MCP_LENS_SECRETS_FILE=1: these tests are about the stored token); returns the auth folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("MCP_LENS_NO_KEYRING", "1")
    monkeypatch.setenv("MCP_LENS_SECRETS_FILE", "1")
    return tmp_path / "config" / "mcp-lens" / "auth"


@dataclass
class HeadlessBrowser:
    """Stands in for the system browser: GETs the URL and follows redirects (to our loopback listener)."""

    opened: list[str] = field(default_factory=list)
    landed: list[int] = field(default_factory=list)

    async def __call__(self, url: str) -> None:
        self.opened.append(url)
        async with httpx2.AsyncClient(follow_redirects=True, timeout=10) as client:
            response = await client.get(url)
        self.landed.append(response.status_code)


@pytest.fixture
def browser() -> HeadlessBrowser:
    return HeadlessBrowser()
