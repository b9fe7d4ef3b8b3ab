"""Tool calls as tasks (`inspector.core.tasks`): the demo in both task forms, server-everything's
``simulate-research-query`` (2025-11-25 form, task augmentation required)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from core_support import http_profile, run_with, stdio_profile
from lens_support import DEMO, EVERYTHING

from inspector.core.client_handlers import ClientHandlers
from inspector.core.operations import Operations
from inspector.core.tasks import LEGACY, MODERN, TaskRunner, TrackedTask, task_form, task_support
from inspector.traffic.entry import Kind
from inspector.traffic.store import TrafficStore

QUICK = {"steps": 3, "delay": 0.1}


def runner_for(conn: Operations, handlers: ClientHandlers | None = None, **kwargs: Any) -> TaskRunner:
    runner = TaskRunner(conn, form=lambda: task_form(conn.era, conn.capabilities), handlers=lambda: handlers, **kwargs)
    conn.subscribe(lambda event: event.kind == "notification" and runner.on_notification(**event.data))
    return runner


def text(task: TrackedTask) -> str:
    return (task.result or {}).get("content", [{}])[0].get("text", "")


def test_legacy_form_lifecycle_cancel_and_list() -> None:
    seen: list[tuple[str, str | None]] = []

    async def body(conn: Operations) -> dict[str, Any]:
        runner = runner_for(conn)
        runner.listeners.append(lambda task: seen.append((task.status, task.status_message)))
        listing = await conn.list_tools()
        out: dict[str, Any] = {"support": task_support(listing.by_name("research_topic")), "form": runner.form()}
        out["done"] = await runner.call("research_topic", QUICK, ttl_ms=60_000)
        slow = asyncio.ensure_future(runner.call("research_topic", {"steps": 50}))
        while not any(t.status == "working" and t.task_id not in (out["done"].task_id,) for t in runner.tasks.values()):
            await asyncio.sleep(0.05)
        other = next(t for t in runner.tasks.values() if t is not out["done"])
        await runner.cancel(other)
        out["cancelled"] = await asyncio.wait_for(slow, 10)
        out["listed"] = {t.task_id: t.status for t in await runner.list()}
        return out

    out = run_with(stdio_profile(DEMO), body)
    assert (out["support"], out["form"]) == ("optional", LEGACY)
    done: TrackedTask = out["done"]
    assert done.status == "completed" and text(done).startswith("Research on 'MCP tasks' finished")
    assert (done.ttl_ms, done.poll_interval_ms) == (60_000, 500) and done.created_at
    assert ("working", "Step 2 of 3: reading about MCP tasks") in seen
    assert out["cancelled"].status == "cancelled" and out["cancelled"].result is None
    assert out["listed"] == {done.task_id: "completed", out["cancelled"].task_id: "cancelled"}


def test_legacy_form_input_through_the_elicitation_handler() -> None:
    asked: list[dict[str, Any]] = []

    async def elicit(params: dict[str, Any]) -> dict[str, Any]:
        asked.append(params)
        return {"action": "accept", "content": {"publish": True}}

    async def body(conn: Operations) -> TrackedTask:
        runner = runner_for(conn)
        return await runner.call("research_topic", {**QUICK, "confirm": True})

    task = run_with(stdio_profile(DEMO), body, handlers=ClientHandlers(elicitation=elicit))
    assert asked[0]["message"] == "Publish the findings?"
    assert text(task).endswith("Published.")


def test_modern_form_over_stdio_with_input_answered() -> None:
    asked: list[dict[str, Any]] = []
    statuses: list[str] = []
    store = TrafficStore()

    async def elicit(params: dict[str, Any]) -> dict[str, Any]:
        asked.append(params)
        return {"action": "decline"}

    async def body(conn: Operations) -> TrackedTask:
        assert conn.era == "modern"
        handlers = ClientHandlers(elicitation=elicit)
        runner = runner_for(conn, handlers, auto_answer=True)
        runner.listeners.append(lambda task: statuses.append(task.status))
        assert runner.form() == MODERN
        return await runner.call("research_topic", {**QUICK, "confirm": True})

    task = run_with(stdio_profile(DEMO, era="auto"), body, store=store)
    assert task.form == MODERN and task.status == "completed"
    assert text(task).endswith("Not published (the user chose decline).")
    assert asked[0]["requestedSchema"]["required"] == ["publish"]
    assert "input_required" in statuses
    assert (task.ttl_ms, task.poll_interval_ms) == (600_000, 500)
    methods = [e.method for e in store if e.kind is Kind.REQUEST]
    assert "tasks/update" in methods and "tasks/get" in methods and "tasks/result" not in methods


def test_modern_form_over_http_cancel(demo_http: str) -> None:
    async def body(conn: Operations) -> TrackedTask:
        runner = runner_for(conn)
        call = asyncio.ensure_future(runner.call("research_topic", {"steps": 50}))
        while not runner.tasks:
            await asyncio.sleep(0.05)
        await runner.cancel(next(iter(runner.tasks.values())))
        return await asyncio.wait_for(call, 10)

    task = run_with(http_profile(demo_http, era="auto"), body)
    assert task.form == MODERN and task.status == "cancelled"


@pytest.mark.npm
def test_server_everything_research_query_needs_a_task() -> None:
    asked: list[dict[str, Any]] = []

    async def elicit(params: dict[str, Any]) -> dict[str, Any]:
        asked.append(params)
        return {"action": "accept", "content": {"interpretation": "technical"}}

    async def body(conn: Operations) -> dict[str, Any]:
        runner = runner_for(conn, ClientHandlers(elicitation=elicit))
        listing = await conn.list_tools()
        tool = listing.by_name("simulate-research-query")
        task = await runner.call("simulate-research-query", {"topic": "tasks", "ambiguous": True}, tool=tool)
        return {"support": task_support(tool), "form": runner.form(), "task": task}

    out = run_with(stdio_profile(["node", str(EVERYTHING), "stdio"]), body, handlers=ClientHandlers(elicitation=elicit))
    assert (out["support"], out["form"]) == ("required", LEGACY)
    task: TrackedTask = out["task"]
    assert task.status == "completed", task.error
    assert "Research Report: tasks" in text(task)
    assert asked, "the ambiguous query asks for a clarification"
