"""A server that ends its lines with CRLF (a Python server on Windows writes text-mode stdout so): the CR is the
line ending's, not the message's. Found by the Wine run: every message was kept as "raw" in records (not the
verbatim "msg"), so replay and the record readers found no messages."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lens_support import HOSTILE

from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.targets import make_transport
from inspector.traffic import jsonl
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore


def test_a_crlf_server_s_messages_are_messages_and_recorded_verbatim(tmp_path: Path) -> None:
    store = TrafficStore()
    profile = ServerProfile("crlf", command=sys.executable, args=[str(HOSTILE), "crlf"], protocol_era="legacy")

    async def main() -> None:
        async with Connection(make_transport(profile, store)) as conn:
            listing = await conn.list_tools()
            assert [tool["name"] for tool in listing.tools]

    asyncio.run(main())
    came = [entry for entry in store if entry.direction == Direction.IN and entry.kind != Kind.LIFECYCLE]
    answers = [entry for entry in came if entry.kind == Kind.RESPONSE]
    assert len(answers) >= 2, [(entry.kind, entry.raw[:60]) for entry in came]
    assert not any(entry.raw.endswith(b"\r") for entry in answers)
    path = tmp_path / "crlf.jsonl"
    jsonl.save(path, store)
    lines = path.read_bytes().split(b"\n")
    spliced = [line for line in lines if line.startswith(b'{"msg":') and b'"dir":"in"' in line]
    assert len(spliced) >= len(answers), lines[:4]
