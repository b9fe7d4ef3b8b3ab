"""A flooding stdio reader rests (`REST_S`) while another session waits for an answer, so that session gets
the loop; a reader that was itself waiting for its server's answer never rests on it (issue 23: echo on one
server while another floods). Two real demo servers, one with a long call in flight."""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import pytest
from lens_support import DEMO, REPO

from inspector.core.connection import Connection
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports import stdio
from inspector.transports.process import StdioCommand
from inspector.transports.stdio import StdioTransport


def _demo() -> Connection:
    return Connection(StdioTransport(StdioCommand(DEMO[0], DEMO[1:], {"PYTHONPATH": str(REPO)}), TrafficStore()))


def test_an_answer_a_session_waited_for_is_not_held_back_by_a_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    rests: list[float] = []
    real_sleep = anyio.sleep

    async def sleep(delay: float, *args: Any, **kwargs: Any) -> None:
        if delay == stdio.REST_S:
            rests.append(delay)
        await real_sleep(delay, *args, **kwargs)

    monkeypatch.setattr(anyio, "sleep", sleep)
    asyncio.run(_echo_while_another_waits())
    assert rests == [], f"the caller's reader rested {len(rests)} times on answers it was waiting for"


async def _echo_while_another_waits() -> None:
    async with _demo() as busy, _demo() as caller:
        slow = asyncio.ensure_future(busy.call_tool("slow_task", {"steps": 6, "delay": 10}))
        try:
            sent = [e for e in busy.store if e.direction is Direction.OUT and e.kind is Kind.REQUEST]
            while not any(e.method == "tools/call" for e in sent):  # the long call is in flight
                await asyncio.sleep(0.01)
                sent = [e for e in busy.store if e.direction is Direction.OUT and e.kind is Kind.REQUEST]
            for n in range(20):
                await asyncio.sleep(0.005)  # the caller's reader waits for the server between calls
                result = await caller.call_tool("echo", {"message": f"hi {n}"})
                assert result.result["content"][0]["text"] == f"hi {n}"
            assert not slow.done(), "the long call ended early: nothing else was waiting"
        finally:
            slow.cancel()
            await asyncio.gather(slow, return_exceptions=True)
