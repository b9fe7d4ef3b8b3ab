"""Authorization-server migration in the app's path (SEP-2352): the protected resource metadata now
names another authorization server, so the client registered with the old one is not presented to
the new one: the next sign-in registers again there, and the connection works with the new token."""

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


async def _list_tools(auth: ServerAuth, era: str) -> list[str]:
    transport = make_transport(auth.profile, TrafficStore(), auth=auth.provider)
    async with Connection(transport, connect_timeout=15, request_timeout=15, era=era) as conn:
        assert conn.negotiation.era == era
        return [tool["name"] for tool in (await conn.list_tools()).tools]


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_a_new_authorization_server_gets_a_new_registration_never_the_old_client(
    migrating_servers, auth_home, browser, era
):
    old, new = migrating_servers
    profile = ServerProfile(name="migrating", transport="http", url=old.url)
    auth = ServerAuth(profile, backend=FileBackend(auth_home))
    asyncio.run(auth.sign_in(TrafficStore(), opener=browser, timeout=20))
    old_client = asyncio.run(auth.storage.get_client_info())
    assert old_client is not None and old_client.issuer and str(old.port) in old_client.issuer
    assert asyncio.run(_list_tools(auth, era)) == ["whoami"]

    old.migrate(new)
    with pytest.raises(LensError):  # the old token is gone; the connection opens no browser
        asyncio.run(_list_tools(auth, era))
    assert auth.needs_sign_in and len(browser.opened) == 1

    asyncio.run(auth.sign_in(TrafficStore(), opener=browser, timeout=20))
    assert browser.opened[-1].startswith(f"http://127.0.0.1:{new.port}/authorize?")
    stats = new.stats()
    assert stats["registrations"] == 1 and stats["code_exchanges"] == 1
    assert old_client.client_id not in stats["authorized_clients"]  # never presented to the new server
    new_client = asyncio.run(auth.storage.get_client_info())
    assert new_client is not None and new_client.client_id != old_client.client_id
    assert str(new.port) in (new_client.issuer or "")
    assert asyncio.run(_list_tools(auth, era)) == ["whoami"]
    assert old.stats()["registrations"] == 1
