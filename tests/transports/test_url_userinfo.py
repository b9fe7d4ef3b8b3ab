"""A configured `Authorization` header wins over the URL's user:password (httpx would turn the userinfo
into Basic auth and replace the header): the userinfo is dropped, and that is said once."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from lens_support import REPO, free_port, run_lens, serve

SERVER = str(REPO / "tests" / "servers" / "header_log.py")


@pytest.fixture
def logged(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    import sys

    port, log = free_port(), tmp_path / "headers.jsonl"
    for _ in serve([sys.executable, SERVER, str(port), str(log)], port):
        yield port, log


def authorizations(log: Path) -> list[str]:
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return [v for line in lines for k, v in line.get("headers", []) if k.lower() == "authorization"]


def test_a_configured_bearer_header_wins_over_the_urls_userinfo(logged: tuple[int, Path]) -> None:
    port, log = logged
    url = f"http://user:pw-in-url@127.0.0.1:{port}/mcp"
    result = run_lens("--cli", "--server-url", url, "--header", "Authorization: Bearer configured-token",
                      "--method", "tools/list")  # fmt: skip
    assert result.returncode == 0, result.stderr
    sent = authorizations(log)
    assert sent and all(value == "Bearer configured-token" for value in sent), sent
    assert result.stderr.count("user:password") == 1, result.stderr
    assert "pw-in-url" not in result.stderr


def test_without_a_header_the_urls_userinfo_is_basic_auth(logged: tuple[int, Path]) -> None:
    port, log = logged
    result = run_lens("--cli", "--server-url", f"http://user:pw-in-url@127.0.0.1:{port}/mcp", "--method", "tools/list")
    assert result.returncode == 0, result.stderr
    assert set(authorizations(log)) == {"Basic dXNlcjpwdy1pbi11cmw="}
    assert "user:password" not in result.stderr


def test_the_traffic_log_says_it_once_and_copy_as_curl_shows_the_configured_scheme(logged) -> None:
    import asyncio

    from inspector.config.profile import ServerProfile
    from inspector.core.connection import Connection
    from inspector.core.targets import make_transport
    from inspector.traffic.commands import curl_for_entry
    from inspector.traffic.store import TrafficStore

    port, _log = logged
    profile = ServerProfile(
        "s",
        transport="http",
        url=f"http://user:pw-in-url@127.0.0.1:{port}/mcp",
        headers={"Authorization": "Bearer configured-token"},
    )
    store = TrafficStore()

    async def main() -> None:
        async with Connection(make_transport(profile, store)) as conn:
            await conn.list_tools()

    asyncio.run(main())
    said = [e for e in store if b"user:password" in e.raw]
    assert len(said) == 1 and b"pw-in-url" not in said[0].raw
    curls = "\n".join(filter(None, (curl_for_entry(e, store.by_seq) for e in store))).lower()
    assert "authorization: bearer" in curls and "basic" not in curls, curls
