"""Requests follow capabilities: the table (`inspector.core.requires`), and MCP Lens's own requests on
real servers nobody here wrote: no listen stream to a server that declares nothing to listen for, one
re-list for a burst of list_changed."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from core_support import http_profile, stdio_profile
from lens_support import git_repo, pypi_server_argv

from inspector.config.profile import ServerProfile
from inspector.core.client_handlers import ClientHandlers
from inspector.core.listen import listen_params
from inspector.core.requires import REQUIRES, refusal
from inspector.core.session import CONNECTED, Session
from inspector.traffic.entry import ERA_PROBE, FALLBACK, Direction, Kind
from inspector.traffic.store import TrafficStore

NOTHING_TO_LISTEN = {"tools": {"listChanged": False}, "resources": {"listChanged": False, "subscribe": False}}


def test_the_table_refuses_what_was_not_declared() -> None:
    assert refusal("subscriptions/listen", NOTHING_TO_LISTEN, "modern") == (
        "not sent: the server declares no listChanged for tools, prompts or resources, or resources.subscribe"
    )
    assert refusal("subscriptions/listen", {"prompts": {"listChanged": True}}, "modern") is None
    assert refusal("subscriptions/listen", {"resources": {"subscribe": True}}, "legacy") is not None
    assert refusal("resources/subscribe", {"resources": {}}, "legacy") is not None
    assert refusal("resources/subscribe", {"resources": {"subscribe": True}}, "legacy") is None
    assert refusal("logging/setLevel", {"logging": {}}, "legacy") is None
    assert "removed in 2026-07-28" in str(refusal("logging/setLevel", {"logging": {}}, "modern"))
    assert refusal("completion/complete", {}, "legacy") == "not sent: the server declares no completions capability"
    assert refusal("ping", {}, "legacy") is None and refusal("ping", {}, "modern") is not None
    assert refusal("tools/list", {"tools": {}}, "modern") is None and refusal("tools/list", {}, "modern")
    assert refusal("tools/call", {}, "modern") is None  # not in the table: the user's own call
    assert {"subscriptions/listen", "resources/subscribe", "logging/setLevel", "completion/complete"} <= set(REQUIRES)


async def _decline(_params: dict[str, Any]) -> dict[str, Any]:
    return {"action": "decline"}


async def _no_roots() -> list[dict[str, Any]]:
    return []


def connect_and_settle(
    argv: list[str] | ServerProfile, *, era: str = "auto", settle: float = 3.0
) -> tuple[Session, TrafficStore]:
    """Connect a session as the app does (answering sampling, elicitation, roots), let the server's start-up
    notifications arrive, disconnect; the session and its record."""
    store = TrafficStore()

    async def main() -> Session:
        session = Session(store)
        session.handlers = ClientHandlers(sampling=_decline, elicitation=_decline, roots=_no_roots)
        session.connect(argv if isinstance(argv, ServerProfile) else stdio_profile(argv, era=era))
        assert await session.wait_settled() == CONNECTED, session.detail
        await asyncio.sleep(settle)
        await session.shutdown()
        return session

    return asyncio.run(main()), store


def sent(store: TrafficStore) -> Counter[str]:
    return Counter(e.method for e in store if e.direction is Direction.OUT and e.kind is Kind.REQUEST)


@pytest.mark.parametrize("name", ["time", "git", "fetch"])
def test_no_listen_stream_to_a_pypi_reference_server_that_declares_nothing_to_listen_for(
    name: str, tmp_path: Path
) -> None:
    argv = pypi_server_argv(name, git_repo(tmp_path / "repo") if name == "git" else None)
    _session, store = connect_and_settle(argv, settle=1.0)
    assert "subscriptions/listen" not in sent(store)
    errors = [e.text() for e in store if e.kind is Kind.ERROR]
    assert errors == []


def test_a_burst_of_list_changed_at_start_is_one_relist_not_five(everything: str) -> None:
    _session, store = connect_and_settle(["node", everything, "stdio"])
    changed = [e for e in store if e.method == "notifications/tools/list_changed"]
    assert len(changed) >= 3  # server-everything announces its tools one by one
    assert sent(store)["tools/list"] <= 2  # one in flight, at most one queued


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_auto_marks_its_era_probe_and_nothing_of_ours_is_an_error(
    transport: str, request: pytest.FixtureRequest
) -> None:
    """server-everything is handshake-era: auto's server/discover is refused (-32601 on stdio, HTTP 400 over
    HTTP). The probe, its refusal and the initialize after it are MCP Lens's own, and Errors only is empty."""
    everything = request.getfixturevalue("everything")
    target = (
        ["node", everything, "stdio"]
        if transport == "stdio"
        else http_profile(request.getfixturevalue("everything_http"), era="auto")
    )
    _session, store = connect_and_settle(target)
    probes = {(e.method, e.probe) for e in store if e.probe is not None and e.method}
    assert ("server/discover", ERA_PROBE) in probes and ("initialize", FALLBACK) in probes
    refused = [e for e in store if e.probe == ERA_PROBE and e.direction is Direction.IN]
    assert refused and not any(e.flagged for e in refused)
    assert [e.text() for e in store if e.flagged] == []


def test_listen_params_ask_only_for_what_was_declared() -> None:
    caps = {"tools": {"listChanged": True}, "resources": {"subscribe": True, "listChanged": False}}
    assert listen_params([], caps) == {"notifications": {"toolsListChanged": True}}
    assert listen_params(["a://b"], caps)["notifications"] == {
        "toolsListChanged": True,
        "resourceSubscriptions": ["a://b"],
    }
    assert listen_params([], {"resources": {"subscribe": True}}) == {"notifications": {}}
