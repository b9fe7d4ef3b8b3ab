"""A lone UTF-16 surrogate (a server's "\\ud800", echoed back in an argument) cannot be UTF-8. Over stdio
it goes as its JSON escape; over HTTP the SDK's client encoded the body itself and the connection died.
Now the body carries the same escape, byte for byte, and the connection lives on. (The echo that comes
back holds the escape too; the SDK's HTTP client refuses to parse it, so that one call fails with the
parse error, its raw bytes kept, where stdio shows it.)"""

from __future__ import annotations

import asyncio
import json

import pytest

from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.errors import ProtocolError
from inspector.core.targets import make_transport
from inspector.traffic.entry import Direction
from inspector.traffic.store import TrafficStore


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_an_argument_with_a_lone_surrogate_goes_as_its_escape_over_http(demo_http: str, era: str) -> None:
    store = TrafficStore()
    profile = ServerProfile("s", transport="http", url=demo_http, protocol_era=era)

    async def main() -> tuple[str, object]:
        async with Connection(make_transport(profile, store)) as conn:
            try:
                await conn.call_tool("echo", {"message": "a\ud800b\udcffc"})
                odd = "answered"
            except ProtocolError as exc:
                odd = str(exc)
            plain = await conn.call_tool("echo", {"message": "still here"})
            return odd, plain

    odd, plain = asyncio.run(main())
    sent = [e.raw for e in store if e.direction == Direction.OUT and b'"echo"' in e.raw]
    assert sent and b'"a\\ud800b\\udcffc"' in sent[0], sent[:1]
    assert all(b"\xf3" not in raw for raw in sent)  # no marker of ours reached the wire
    assert "still here" in json.dumps(plain.model_dump() if hasattr(plain, "model_dump") else plain, default=str)
    assert odd == "answered" or "JSON" in odd, odd
    echoed = [e.raw for e in store if e.direction == Direction.IN and b"a\\ud800b" in e.raw]
    assert echoed, "the echo's raw bytes are kept"
