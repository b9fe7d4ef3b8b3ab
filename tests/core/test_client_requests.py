"""Server-to-client requests through `ClientHandlers`: the demo (stdio and HTTP) and server-everything."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from core_support import http_profile, run_with, stdio_profile
from lens_support import DEMO, EVERYTHING, REPO

from inspector.core.client_handlers import ClientHandlers, Rejected, StaticRoots, text_reply
from inspector.core.connection import Connection
from inspector.core.errors import RequestTimeout
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

DEMO_PROFILE = stdio_profile(DEMO, PYTHONPATH=str(REPO))
EVERYTHING_PROFILE = stdio_profile(["node", str(EVERYTHING), "stdio"])


class Recorder:
    """Handlers that record what they were asked and answer from a queue of replies."""

    def __init__(self, *replies: Any) -> None:
        self.asked: list[dict[str, Any]] = []
        self.replies = list(replies)

    async def __call__(self, params: dict[str, Any]) -> dict[str, Any]:
        self.asked.append(params)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def text_of(result: dict[str, Any]) -> str:
    return "\n".join(b.get("text", "") for b in result["content"] if isinstance(b, dict))


def sent_capabilities(store: TrafficStore) -> dict[str, Any]:
    request = next(e for e in store if e.method == "initialize" and e.kind is Kind.REQUEST)
    return json.loads(request.raw)["params"]["capabilities"]


def paired_response(store: TrafficStore, method: str) -> dict[str, Any]:
    """The response we sent to the last server request of `method`, checked to be paired with it."""
    request = next(e for e in reversed(list(store)) if e.method == method and e.kind is Kind.REQUEST)
    assert request.direction is Direction.IN and request.peer_seq is not None
    response = store.by_seq(request.peer_seq)
    assert response is not None and response.direction is Direction.OUT and response.peer_seq == request.seq
    assert response.latency_ms is not None and response.latency_ms >= 0
    return json.loads(response.raw)


def test_capabilities_follow_the_handlers() -> None:
    async def nothing(conn: Any) -> None:
        return None

    skills = {"extensions": {"io.modelcontextprotocol/skills": {}}}  # declared whatever the handlers
    for handlers, expected in [
        (None, {}),
        (ClientHandlers(roots=StaticRoots()), {"roots": {"listChanged": True}}),
        (
            ClientHandlers(sampling=Recorder(), elicitation=Recorder()),
            {"sampling": {}, "elicitation": {"form": {}, "url": {}}},
        ),
    ]:
        store = TrafficStore()
        run_with(DEMO_PROFILE, nothing, store=store, handlers=handlers)
        assert sent_capabilities(store) == {**expected, **skills}


def test_demo_sampling_answered_and_rejected() -> None:
    sampling = Recorder(text_reply("Red, green, blue.", model="tester-1"), Rejected("not now", code=-32001))
    store = TrafficStore()

    async def body(conn: Any) -> tuple[Any, Any]:
        answered = await conn.call_tool("ask_model", {"question": "Three colours?"})
        refused = await conn.call_tool("ask_model", {"question": "Again?"})
        return answered, refused

    answered, refused = run_with(DEMO_PROFILE, body, store=store, handlers=ClientHandlers(sampling=sampling))
    asked = sampling.asked[0]
    assert asked["messages"] == [{"role": "user", "content": {"type": "text", "text": "Three colours?"}}]
    assert asked["maxTokens"] == 200 and asked["temperature"] == 0.4
    assert asked["systemPrompt"].startswith("You are the model behind an MCP Lens demo")
    assert [h["name"] for h in asked["modelPreferences"]["hints"]] == ["claude-sonnet", "gpt-4o"]
    assert not answered.is_error
    assert text_of(answered.result) == "tester-1 replied, stop reason endTurn:\nRed, green, blue."
    assert refused.is_error
    assert "the client refused the sampling request: not now (code -32001)" in text_of(refused.result)
    assert paired_response(store, "sampling/createMessage")["error"] == {"code": -32001, "message": "not now"}


def test_demo_elicitation_form_accept_defaults_decline_and_url() -> None:
    defaults = {"party_size": 2, "date": "2026-12-24", "seating": "indoor", "vegetarian": False}
    elicitation = Recorder(
        {"action": "accept", "content": {"name": "Ann", "party_size": 4, "date": "2027-01-02", "seating": "bar"}},
        {"action": "accept", "content": {"name": "Bo", **defaults}},
        {"action": "decline"},
        {"action": "accept"},
        {"action": "accept"},  # for a javascript: URL: the core turns it into a decline
    )
    store = TrafficStore()

    async def body(conn: Any) -> list[Any]:
        return [
            await conn.call_tool("book_table", {}),
            await conn.call_tool("book_table", {"restaurant": "Bistro"}),
            await conn.call_tool("book_table", {}),
            await conn.call_tool("open_docs", {"url": "https://example.com/docs"}),
            await conn.call_tool("open_docs", {"url": "javascript:alert(1)"}),
        ]

    filled, with_defaults, declined, url, evil = run_with(
        DEMO_PROFILE, body, store=store, handlers=ClientHandlers(elicitation=elicitation)
    )
    form = elicitation.asked[0]
    assert form["mode"] == "form" and form["message"].startswith("Book a table at Chez Lens")
    properties = form["requestedSchema"]["properties"]
    assert {name: spec["default"] for name, spec in properties.items() if "default" in spec} == defaults
    assert filled.result["structuredContent"]["booking"] == {
        "name": "Ann",
        "party_size": 4,
        "date": "2027-01-02",
        "seating": "bar",
    }
    assert with_defaults.result["structuredContent"] == {
        "restaurant": "Bistro",
        "action": "accept",
        "booking": {"name": "Bo", **defaults},
    }
    assert declined.result["structuredContent"] == {"restaurant": "Chez Lens", "action": "decline", "booking": None}
    asked_url = elicitation.asked[3]
    assert asked_url["mode"] == "url" and asked_url["url"] == "https://example.com/docs" and asked_url["elicitationId"]
    assert "the user chose accept for https://example.com/docs" in text_of(url.result)
    assert "the user chose decline for javascript:alert(1)" in text_of(evil.result)
    assert paired_response(store, "elicitation/create")["result"] == {"action": "decline"}
    completes = [e for e in store if e.method == "notifications/elicitation/complete"]
    assert len(completes) == 1 and completes[0].direction is Direction.IN


def test_demo_roots_listed_and_change_notified() -> None:
    roots = StaticRoots([{"uri": "file:///work/one", "name": "one"}])
    store = TrafficStore()

    async def body(conn: Connection) -> tuple[Any, Any]:
        first = await conn.call_tool("list_roots", {})
        roots.roots.append({"uri": "file:///work/two"})
        await conn.notify_roots_changed()
        second = await conn.call_tool("list_roots", {})
        return first, second

    first, second = run_with(DEMO_PROFILE, body, store=store, handlers=ClientHandlers(roots=roots))
    assert first.result["structuredContent"] == {"count": 1, "roots": [{"uri": "file:///work/one", "name": "one"}]}
    assert [r["uri"] for r in second.result["structuredContent"]["roots"]] == ["file:///work/one", "file:///work/two"]
    notes = [e for e in store if e.method == "notifications/roots/list_changed"]
    assert len(notes) == 1 and notes[0].direction is Direction.OUT and notes[0].kind is Kind.NOTIFICATION
    assert paired_response(store, "roots/list")["result"]["roots"][1] == {"uri": "file:///work/two"}


def test_without_handlers_the_demo_tools_say_what_is_missing() -> None:
    async def body(conn: Any) -> list[Any]:
        return [await conn.call_tool(name, {}) for name in ("ask_model", "book_table", "list_roots")]

    for outcome, capability in zip(run_with(DEMO_PROFILE, body), ("sampling", "elicitation", "roots"), strict=True):
        assert outcome.is_error and f"did not advertise the '{capability}' capability" in text_of(outcome.result)


def test_a_malformed_handler_result_is_a_clear_error_for_the_server() -> None:
    store = TrafficStore()

    async def body(conn: Any) -> Any:
        return await conn.call_tool("ask_model", {})

    outcome = run_with(
        DEMO_PROFILE, body, store=store, handlers=ClientHandlers(sampling=Recorder({"role": "assistant"}))
    )
    assert outcome.is_error
    error = paired_response(store, "sampling/createMessage")["error"]
    assert error["code"] == -32603 and error["message"].startswith("the client built an invalid sampling result")


def test_a_cancelled_call_cancels_the_pending_handler() -> None:
    """The server cancels its sampling request when our tools/call is cancelled: the handler sees it."""
    started = asyncio.Event
    state: dict[str, Any] = {}

    async def slow_sampling(params: dict[str, Any]) -> dict[str, Any]:
        state["started"].set()
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            state["cancelled"] = True
            raise
        return text_reply("too late")

    async def body(conn: Any) -> None:
        state["started"] = started()
        handle = conn.new_handle("tools/call")
        call = asyncio.ensure_future(conn.call_tool("ask_model", {}, handle=handle))
        await asyncio.wait_for(state["started"].wait(), 20)
        handle.cancel()
        with pytest.raises(Exception):  # noqa: B017 - RequestTimeout(cancelled=True)
            await call
        for _ in range(100):
            if state.get("cancelled"):
                break
            await asyncio.sleep(0.05)

    run_with(DEMO_PROFILE, body, handlers=ClientHandlers(sampling=slow_sampling))
    assert state.get("cancelled"), "the handler was not cancelled"


def test_demo_over_http_answers_sampling_and_roots(demo_http: str) -> None:
    store = TrafficStore()

    async def body(conn: Any) -> tuple[Any, Any]:
        return await conn.call_tool("ask_model", {"question": "hi"}), await conn.call_tool("list_roots", {})

    handlers = ClientHandlers(sampling=Recorder(text_reply("over http")), roots=StaticRoots([{"uri": "file:///h"}]))
    sampled, listed = run_with(http_profile(demo_http), body, store=store, handlers=handlers)
    assert "over http" in text_of(sampled.result)
    assert listed.result["structuredContent"]["roots"] == [{"uri": "file:///h", "name": None}]
    assert paired_response(store, "sampling/createMessage")["result"]["content"]["text"] == "over http"


@pytest.mark.npm
def test_server_everything_sampling_elicitation_and_roots() -> None:
    sampling = Recorder(text_reply("everything reply"))
    elicitation = Recorder({"action": "accept", "content": {"name": "Ada", "check": True}}, {"action": "accept"})
    roots = StaticRoots([{"uri": "file:///srv/everything", "name": "srv"}])
    store = TrafficStore()

    async def body(conn: Connection) -> dict[str, Any]:
        names = set((await conn.list_tools()).names())
        out = {"names": names}
        out["sampling"] = await conn.call_tool("trigger-sampling-request", {"prompt": "Say hi"})
        out["form"] = await conn.call_tool("trigger-elicitation-request", {})
        out["url"] = await conn.call_tool("trigger-url-elicitation", {"url": "https://example.com/everything"})
        out["roots"] = await conn.call_tool("get-roots-list", {})
        roots.roots.append({"uri": "file:///srv/more", "name": "more"})
        await conn.notify_roots_changed()
        for _ in range(100):  # server-everything re-lists roots itself on list_changed
            if sum(1 for e in store if e.method == "roots/list" and e.kind is Kind.REQUEST) >= 2:
                break
            await asyncio.sleep(0.05)
        out["roots_after"] = await conn.call_tool("get-roots-list", {})
        return out

    handlers = ClientHandlers(sampling=sampling, elicitation=elicitation, roots=roots)
    out = run_with(EVERYTHING_PROFILE, body, store=store, handlers=handlers)
    assert {"trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"} <= out["names"]
    assert "everything reply" in text_of(out["sampling"].result)
    assert sampling.asked[0]["messages"][0]["content"]["text"].endswith("Say hi")
    form = elicitation.asked[0]
    assert form["mode"] == "form" and "name" in form["requestedSchema"]["properties"]
    assert '"name": "Ada"' in text_of(out["form"].result)
    assert elicitation.asked[1]["url"] == "https://example.com/everything"
    assert "srv" in text_of(out["roots"].result) and "file:///srv/everything" in text_of(out["roots"].result)
    assert "file:///srv/more" in text_of(out["roots_after"].result)
    for method in ("sampling/createMessage", "elicitation/create", "roots/list"):
        assert "result" in paired_response(store, method)


def test_a_person_answering_does_not_time_the_call_out_but_the_hard_maximum_holds() -> None:
    async def slow_sampling(params: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(1.2)
        return text_reply("took my time")

    async def body(conn: Any) -> tuple[Any, Any]:
        patient = await conn.call_tool("ask_model", {}, timeout=0.4)
        try:
            await conn.call_tool("ask_model", {}, timeout=0.4, max_total=0.8)
        except RequestTimeout as exc:
            return patient, exc
        return patient, None

    patient, capped = run_with(DEMO_PROFILE, body, handlers=ClientHandlers(sampling=slow_sampling))
    assert "took my time" in text_of(patient.result), "the 0.4 s timeout is held while the handler answers"
    assert capped is not None and "maximum of 0.8s" in capped.message
