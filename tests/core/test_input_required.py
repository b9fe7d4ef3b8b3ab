"""Multi round-trip requests (2026-07-28 input_required) against the demo's order_coffee, both clients."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from core_support import http_profile, run_with, stdio_profile
from lens_support import DEMO, REPO

from inspector.core import prompts, resources
from inspector.core.client_handlers import ClientHandlers, Rejected, text_reply
from inspector.core.errors import RequestTimeout
from inspector.core.input_required import (
    STATE_ONLY_BACKOFF_S,
    InputNeeded,
    drive,
    file_answerer,
    file_handlers,
    handlers_answerer,
    is_input_required,
)
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

ORDER = {"action": "accept", "content": {"name": "Ada", "size": "large", "oat_milk": True}}
ARGS = {"drink": "latte", "suggest_pastry": True}


def demo(era: str = "auto"):
    return stdio_profile(DEMO, era=era, PYTHONPATH=str(REPO))


class Asked:
    """Handlers that answer like a user would, and remember what they were asked."""

    def __init__(self, elicit: dict[str, Any] | None = None) -> None:
        self.elicit = elicit or ORDER
        self.asked: list[tuple[str, dict[str, Any]]] = []

    def handlers(self) -> ClientHandlers:
        async def elicitation(params: dict[str, Any]) -> dict[str, Any]:
            self.asked.append(("elicitation", params))
            return self.elicit

        async def sampling(params: dict[str, Any]) -> dict[str, Any]:
            self.asked.append(("sampling", params))
            return text_reply("Almond croissant")

        async def roots() -> list[dict[str, Any]]:
            return []

        return ClientHandlers(sampling=sampling, elicitation=elicitation, roots=roots)


def structured(result: dict[str, Any]) -> dict[str, Any]:
    return result.get("structuredContent") or json.loads(result["content"][0]["text"])


def calls_sent(store: TrafficStore) -> list[dict[str, Any]]:
    return [
        e.parsed()
        for e in store
        if e.direction is Direction.OUT and e.kind is Kind.REQUEST and e.method == "tools/call"
    ]


def check_rounds(store: TrafficStore) -> None:
    sent = calls_sent(store)
    assert len(sent) == 2
    first, retry = sent
    assert first["id"] != retry["id"]  # a new request, not a resend
    assert "inputResponses" not in first["params"]
    assert retry["params"]["name"] == "order_coffee" and retry["params"]["arguments"] == ARGS
    assert set(retry["params"]["inputResponses"]) == set(retry["params"]["inputResponses"])
    responses = [e.parsed() for e in store if e.direction is Direction.IN and e.method == "tools/call"]
    state = responses[0]["result"]["requestState"]
    assert retry["params"]["requestState"] == state  # echoed exactly
    grouped = [e for e in store if e.group is not None]
    assert len(grouped) == 4 and len({e.group for e in grouped}) == 1
    assert [e.round_title for e in grouped] == [
        "round 1 of tools/call order_coffee",
        "round 1 of tools/call order_coffee",
        "round 2 of tools/call order_coffee",
        "round 2 of tools/call order_coffee",
    ]


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_order_coffee_goes_through_the_handlers_and_retries_with_the_state(transport, request) -> None:
    asked, store = Asked(), TrafficStore()
    profile = demo() if transport == "stdio" else http_profile(request.getfixturevalue("demo_http"), era="auto")
    rounds = []

    async def body(conn):
        assert conn.era == "modern"
        return await conn.call_tool("order_coffee", ARGS, on_round=lambda r: rounds.append((r.number, r.waiting)))

    outcome = run_with(profile, body, store=store, handlers=asked.handlers())
    data = structured(outcome.result)
    assert data["order"] == {"name": "Ada", "size": "large", "oat_milk": True}
    assert data["pastry"] == "Almond croissant"
    assert [kind for kind, _ in asked.asked] == ["elicitation", "sampling"]
    assert "latte" in asked.asked[0][1]["message"]
    assert rounds == [(2, True), (2, False)]
    check_rounds(store)


def test_a_declined_elicitation_is_answered_as_such_and_the_server_decides() -> None:
    asked = Asked({"action": "decline"})
    outcome = run_with(demo(), lambda conn: conn.call_tool("order_coffee", {"drink": "tea"}), handlers=asked.handlers())
    assert structured(outcome.result)["action"] == "decline"


def test_a_refused_request_stops_the_call_with_a_clear_error() -> None:
    async def refuse(params: dict[str, Any]) -> dict[str, Any]:
        raise Rejected("the user closed the dialog")

    async def body(conn):
        with pytest.raises(InputNeeded, match=r"elicitation/create .* refused: the user closed the dialog"):
            await conn.call_tool("order_coffee", {"drink": "tea"})

    run_with(demo(), body, handlers=ClientHandlers(elicitation=refuse))


def test_the_lean_client_answers_from_a_file_by_key_or_method() -> None:
    store = TrafficStore()
    responses = {"elicitation/create": ORDER, "sampling/createMessage": text_reply("Scone")}

    async def body(conn):
        conn.handlers = file_handlers(responses)
        conn.input_answerer = file_answerer(responses)
        return await conn.call_tool("order_coffee", ARGS)

    outcome = run_with(demo(), body, lite=True, store=store)
    assert structured(outcome.result)["pastry"] == "Scone"
    check_rounds(store)


def test_no_answer_for_a_key_fails_and_names_what_was_asked() -> None:
    async def body(conn):
        conn.handlers = file_handlers({"another-key": {}})  # answers by key: every kind declared
        conn.input_answerer = file_answerer({"another-key": {}})
        with pytest.raises(InputNeeded, match="no answer for it in the input responses") as caught:
            await conn.call_tool("order_coffee", {"drink": "mocha"})
        assert caught.value.exit_code == 12

    run_with(demo(), body, lite=True)


def test_the_rounds_are_capped() -> None:
    asked = Asked()

    async def body(conn):
        params = {"name": "order_coffee", "arguments": {"drink": "tea"}}
        first = await conn.request("tools/call", params)
        assert is_input_required(first)
        with pytest.raises(InputNeeded, match="still needs input after 0 rounds"):
            await drive("tools/call", params, lambda p, r: conn.request("tools/call", p), conn.answerer(), max_rounds=0)

    run_with(demo(), body, handlers=asked.handlers())


def test_legacy_keeps_the_server_to_client_request_during_the_call() -> None:
    asked, store = Asked(), TrafficStore()
    outcome = run_with(
        demo("legacy"), lambda conn: conn.call_tool("order_coffee", ARGS), store=store, handlers=asked.handlers()
    )
    assert structured(outcome.result)["order"]["name"] == "Ada"
    assert len(calls_sent(store)) == 1
    assert any(e.direction is Direction.IN and e.method == "elicitation/create" for e in store)
    assert not [e for e in store if e.group is not None]


def test_cancel_while_the_user_is_asked_ends_the_call_with_no_further_round() -> None:
    store = TrafficStore()
    asked = asyncio.Event()
    withdrawn: list[bool] = []

    async def elicitation(params: dict[str, Any]) -> dict[str, Any]:
        asked.set()
        try:
            await asyncio.sleep(60)  # a person who never answers
        except asyncio.CancelledError:
            withdrawn.append(True)
            raise
        return ORDER

    async def body(conn):
        handle = conn.new_handle("tools/call")
        call = asyncio.ensure_future(conn.call_tool("order_coffee", {"drink": "tea"}, handle=handle))
        await asyncio.wait_for(asked.wait(), 10)
        handle.cancel()
        with pytest.raises(RequestTimeout, match="cancelled"):
            await asyncio.wait_for(call, 10)

    run_with(demo(), body, store=store, handlers=ClientHandlers(elicitation=elicitation))
    assert withdrawn == [True]
    assert len(calls_sent(store)) == 1


def test_a_request_kind_without_a_handler_fails_clearly() -> None:
    answer = handlers_answerer(ClientHandlers())

    async def body() -> None:
        with pytest.raises(InputNeeded, match=r"asked for roots/list .* which this client does not answer"):
            await answer("k", "roots/list", {})
        with pytest.raises(InputNeeded, match="asked for tasks/unknown"):
            await answer("k", "tasks/unknown", {})

    asyncio.run(body())


MRTR = [sys.executable, str(Path(__file__).resolve().parents[1] / "servers" / "mrtr_server.py")]


def mrtr():
    return stdio_profile(MRTR, era="auto")


def answer_roots_and_urls() -> ClientHandlers:
    async def roots() -> list[dict[str, Any]]:
        return [{"uri": "file:///work", "name": "work"}]

    async def elicitation(params: dict[str, Any]) -> dict[str, Any]:
        assert params["mode"] == "url"
        return {"action": "accept"}

    return ClientHandlers(roots=roots, elicitation=elicitation)


@pytest.mark.parametrize("lite", [False, True])
def test_prompts_get_and_resources_read_answer_input_required(lite) -> None:
    store = TrafficStore()

    async def body(conn):
        if lite:
            conn.handlers = answer_roots_and_urls()
        got = await prompts.get_prompt(conn, "for_my_roots")
        read = await resources.read_resource(conn, "lens://signed/ada")
        return got, read

    kwargs = {} if lite else {"handlers": answer_roots_and_urls()}
    got, read = run_with(mrtr(), body, lite=lite, store=store, **kwargs)
    assert "Your roots: file:///work" in json.dumps(got.result)
    assert "signed by ada (accept, state sig-1)" in json.dumps(read.result)
    titles = {e.round_title for e in store if e.group is not None}
    assert titles == {
        "round 1 of prompts/get for_my_roots",
        "round 2 of prompts/get for_my_roots",
        "round 1 of resources/read lens://signed/ada",
        "round 2 of resources/read lens://signed/ada",
    }
    for method in ("prompts/get", "resources/read"):
        sent = [e.parsed()["params"] for e in store if e.direction is Direction.OUT and e.method == method]
        got = [e.parsed()["result"] for e in store if e.direction is Direction.IN and e.method == method]
        assert sent[1].get("requestState") == got[0].get("requestState")  # echoed exactly, or absent if absent


def test_a_server_that_never_stops_asking_is_stopped_at_the_cap() -> None:
    store = TrafficStore()

    async def body(conn):
        with pytest.raises(InputNeeded, match="tools/call endless still needs input after 16 rounds"):
            await conn.call_tool("endless", {})

    run_with(mrtr(), body, store=store, handlers=answer_roots_and_urls())
    assert len(calls_sent(store)) == 17  # the call and 16 retries


def test_a_state_only_answer_is_retried_with_the_state_and_no_responses() -> None:
    store = TrafficStore()
    outcome = run_with(mrtr(), lambda conn: conn.call_tool("state_only", {}), store=store)
    assert outcome.result["content"][0]["text"] == "done with later"
    retry = calls_sent(store)[1]["params"]
    first = next(e.parsed()["result"] for e in store if e.direction is Direction.IN and e.method == "tools/call")
    assert retry["requestState"] == first["requestState"] and "inputResponses" not in retry
    sent = [e for e in store if e.direction is Direction.OUT and e.method == "tools/call"]
    assert sent[1].mono - sent[0].mono >= STATE_ONLY_BACKOFF_S  # a state-only answer is retried after a pause
