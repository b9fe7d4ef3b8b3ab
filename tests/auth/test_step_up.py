"""Scope step-up in the app's path (SEP-2350): a 403 insufficient_scope on one operation, then sign in again.

The server (tests/auth/oauth_server.py --step-up-scope extra) grants `mcp` at the first sign-in and
answers `tools/call` with HTTP 403 `insufficient_scope`, scope="extra". The connection's provider never
opens a browser: it says a sign-in is needed. The next sign-in asks for the union (`mcp extra`), so
the new token can still list tools and can now call them.
"""

from __future__ import annotations

import asyncio

import pytest

from inspector.auth.signin import ServerAuth
from inspector.auth.storage import FileBackend
from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.errors import LensError
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore


async def _list_and_call(auth: ServerAuth, era: str = "auto") -> tuple[list[str], object]:
    transport = make_transport(auth.profile, TrafficStore(), auth=auth.provider)
    async with Connection(transport, connect_timeout=15, request_timeout=15, era=era) as conn:
        assert conn.negotiation.era == ("legacy" if era == "legacy" else "modern")
        names = [tool["name"] for tool in (await conn.list_tools()).tools]
        outcome = await conn.call_tool("whoami", {}, raise_on_error=True)
    return names, outcome


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_step_up_sign_in_asks_for_the_union_of_granted_and_challenged_scopes(step_up_server, auth_home, browser, era):
    profile = ServerProfile(name="step-up", transport="http", url=step_up_server.url)
    auth = ServerAuth(profile, backend=FileBackend(auth_home))
    assert asyncio.run(auth.sign_in(TrafficStore(), opener=browser, timeout=20)).scopes == "mcp"

    with pytest.raises(LensError):
        asyncio.run(_list_and_call(auth, era))
    assert auth.needs_sign_in and "extra" in (auth.provider.auth_required or "")
    assert step_up_server.stats()["step_ups"] == 1
    assert len(browser.opened) == 1  # the connection opened no browser

    state = asyncio.run(auth.sign_in(TrafficStore(), opener=browser, timeout=20))
    requested = step_up_server.stats()["scopes_requested"]
    assert requested[-1].split() == ["mcp", "extra"], requested  # earlier scope kept, challenged one added
    assert set(state.scopes.split()) == {"mcp", "extra"}
    assert not auth.needs_sign_in

    names, _ = asyncio.run(_list_and_call(auth, era))
    assert names == ["whoami"]
    assert step_up_server.stats()["step_ups"] == 1 and len(browser.opened) == 2


def test_a_step_up_that_is_never_satisfied_costs_one_authorization_per_sign_in(step_up_server, auth_home, browser):
    # The retry limit in the app's path: a connection never re-authorizes on its own, and a sign-in
    # makes exactly one authorization request however often the server refuses.
    profile = ServerProfile(name="step-up", transport="http", url=step_up_server.url)
    auth = ServerAuth(profile, backend=FileBackend(auth_home))
    asyncio.run(auth.sign_in(TrafficStore(), opener=browser, timeout=20))
    for _ in range(3):
        with pytest.raises(LensError):
            asyncio.run(_list_and_call(auth))
    assert step_up_server.stats()["authorizations"] == 1 and len(browser.opened) == 1
