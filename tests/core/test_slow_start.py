"""A stdio server slower to start than the SDK's own 10 s for `server/discover` (npx's first run, a Windows
Python under load: 15-60 s seen under Wine) is still reached in the 2026-07-28 era: discover waits as long
as the connection's own deadline (the connect timeout, or auto's probe), as initialize always has."""

from __future__ import annotations

import sys
from typing import Any

from core_support import run_with, stdio_profile
from lens_support import REPO

from inspector.traffic.entry import Kind
from inspector.traffic.store import TrafficStore

# The demo, started after a pause longer than the SDK's 10 s (it reads nothing meanwhile).
SLOW_DEMO = [
    sys.executable,
    "-c",
    "import runpy, time; time.sleep(12); runpy.run_module('inspector.demo', run_name='__main__')",
]


def test_a_server_slower_than_ten_seconds_is_reached_in_the_modern_era() -> None:
    """Over the SDK's connection (the lean client never had the SDK's clock)."""
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        return conn.negotiation

    profile = stdio_profile(SLOW_DEMO, era="modern", PYTHONPATH=str(REPO))
    negotiation = run_with(profile, body, store=store, connect_timeout=180.0)
    assert negotiation.era == "modern"
    sent = [e.method for e in store if e.kind is Kind.REQUEST and e.direction.value == "out"]
    assert sent == ["server/discover"], sent
