"""A server that answers with an id MCP Lens never sent: the timeout says so, in both clients and in words."""

from __future__ import annotations

import pytest
from core_support import run_with, stdio_profile

from inspector.core.errors import RequestTimeout, describe_failure
from inspector.core.operations import Operations
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

WRONG_ID = 424242  # what tests/servers/hostile.py wrong-id answers tools/list with


@pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])
def test_a_timeout_names_the_id_the_server_answered_with(hostile, lite: bool) -> None:
    store = TrafficStore()

    async def body(conn: Operations) -> RequestTimeout:
        with pytest.raises(RequestTimeout) as timed_out:
            await conn.request("tools/list", None, handle=conn.new_handle("tools/list", 1.0))
        return timed_out.value

    error = run_with(stdio_profile(hostile("wrong-id")), body, lite=lite, store=store)
    sent = next(e for e in store if e.direction is Direction.OUT and e.method == "tools/list")
    assert error.details["unknown_ids"] == [WRONG_ID] and error.details["sent_id"] == sent.rpc_id
    said = f"the server answered with id {WRONG_ID}, which MCP Lens never sent (it sent id {sent.rpc_id})"
    assert said in error.message
    failure = describe_failure(error)
    assert failure.title == "Answered with an id MCP Lens never sent" and "No response" not in failure.title
    assert said[1:] in failure.detail and "stopped waiting for tools/list" in failure.detail
    stray = next(e for e in store if e.rpc_id == WRONG_ID)
    assert stray.kind is Kind.RESPONSE and "unknown id" in stray.notes


def test_a_plain_timeout_still_reads_as_no_response(hostile) -> None:
    async def body(conn: Operations) -> RequestTimeout:
        with pytest.raises(RequestTimeout) as timed_out:
            await conn.call_tool("work", {}, timeout=0.5)
        return timed_out.value

    error = run_with(stdio_profile(hostile("never-answer")), body, lite=True)
    assert "unknown_ids" not in error.details and "never sent" not in error.message
    assert describe_failure(error).title.startswith("No response")


@pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])
def test_the_request_left_unanswered_says_what_came_instead(hostile, lite: bool) -> None:
    """In the traffic log the request reads "answered with id …, which MCP Lens never sent", not "no response"."""
    store = TrafficStore()

    async def body(conn: Operations) -> None:
        with pytest.raises(RequestTimeout):
            await conn.request("tools/list", None, handle=conn.new_handle("tools/list", 1.0))

    run_with(stdio_profile(hostile("wrong-id")), body, lite=lite, store=store)  # then the server exits
    sent = next(e for e in store if e.direction is Direction.OUT and e.method == "tools/list")
    said = f"answered with id {WRONG_ID}, which MCP Lens never sent (it sent id {sent.rpc_id})"
    assert said in sent.notes, sent.notes
    assert not any(note.startswith("no response") for note in sent.notes), sent.notes
