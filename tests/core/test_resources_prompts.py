"""Resources, prompts, completion and logging/setLevel against real servers (demo, server-everything,
a raw paginating server), with both the SDK `Connection` and the CLI's `LiteConnection`."""

from __future__ import annotations

import asyncio
import base64
import sys
from pathlib import Path

import pytest
from core_support import run_with, stdio_profile
from lens_support import DEMO, REPO

from inspector.core import prompts, resources
from inspector.core.errors import ProtocolError
from inspector.core.operations import Event, Operations
from inspector.core.uri_template import TemplateError, expand, variable_names, variables_schema

DEMO_PROFILE = stdio_profile(DEMO, PYTHONPATH=str(REPO))
PAGED = [sys.executable, str(Path(__file__).with_name("paged_server.py"))]
BOTH = pytest.mark.parametrize("lite", [False, True], ids=["sdk", "lite"])


async def _wait_for(events: list[Event], method: str, timeout: float = 5.0) -> list[Event]:
    for _ in range(int(timeout / 0.05)):
        found = [e for e in events if e.kind == "notification" and e.data.get("method") == method]
        if found:
            return found
        await asyncio.sleep(0.05)
    return []


@BOTH
def test_demo_lists_reads_and_expands_templates(lite: bool) -> None:
    async def body(conn: Operations) -> dict:
        listed = await resources.list_resources(conn)
        templates = await resources.list_templates(conn)
        guide = await resources.read_resource(conn, "demo://docs/guide")
        icon = await resources.read_resource(conn, "demo://images/icon.png")
        template = templates.items[0]["uriTemplate"]
        uri = expand(template, {"note_id": "ideas"})
        note = await resources.read_resource(conn, uri)
        with pytest.raises(ProtocolError) as missing:
            await resources.read_resource(conn, expand(template, {"note_id": "nope"}))
        return {"listed": listed, "templates": templates, "guide": guide, "icon": icon, "uri": uri, "note": note,
                "missing": missing.value}  # fmt: skip

    out = run_with(DEMO_PROFILE, body, lite=lite)
    uris = [r["uri"] for r in out["listed"].items]
    assert {"demo://docs/guide", "demo://live/counter", "demo://notes/ideas"} <= set(uris)
    assert out["listed"].findings == [] and out["listed"].pages == 1
    assert [t["uriTemplate"] for t in out["templates"].items] == ["demo://notes/{note_id}"]
    assert out["guide"].contents[0]["text"].startswith("# MCP Lens demo server")
    assert out["guide"].contents[0]["mimeType"] == "text/markdown" and out["guide"].findings == []
    assert base64.b64decode(out["icon"].contents[0]["blob"]).startswith(b"\x89PNG")
    blocks = resources.contents_as_blocks(out["icon"].contents)
    assert blocks[0]["type"] == "image" and blocks[0]["mimeType"] == "image/png"
    assert out["uri"] == "demo://notes/ideas"
    assert "Render every content type" in out["note"].contents[0]["text"]
    assert out["missing"].code != 0 and "nope" in out["missing"].message


@BOTH
def test_demo_subscribe_sees_updates_until_unsubscribed(lite: bool) -> None:
    async def body(conn: Operations) -> tuple:
        events: list[Event] = []
        conn.subscribe(events.append)
        assert resources.supports(conn.capabilities, "subscribe")
        before = (await resources.read_resource(conn, "demo://live/counter")).contents[0]["text"]
        await resources.subscribe(conn, "demo://live/counter")
        updates = await _wait_for(events, "notifications/resources/updated")
        after = (await resources.read_resource(conn, "demo://live/counter")).contents[0]["text"]
        await resources.unsubscribe(conn, "demo://live/counter")
        await asyncio.sleep(0.1)
        count = len([e for e in events if e.data.get("method") == "notifications/resources/updated"])
        await asyncio.sleep(1.5)
        later = len([e for e in events if e.data.get("method") == "notifications/resources/updated"])
        return updates, before, after, count, later

    updates, before, after, count, later = run_with(DEMO_PROFILE, body, lite=lite)
    assert updates and updates[0].data["params"]["uri"] == "demo://live/counter"
    assert before.startswith("tick 0") and after != before
    assert later == count, "no updates after unsubscribing"


def test_demo_list_changed_when_a_note_is_deleted() -> None:
    async def body(conn: Operations) -> tuple:
        events: list[Event] = []
        conn.subscribe(events.append)
        assert resources.supports(conn.capabilities, "listChanged")
        await conn.call_tool("delete_note", {"note_id": "groceries"})
        changed = await _wait_for(events, "notifications/resources/list_changed")
        listed = await resources.list_resources(conn)
        return changed, [r["uri"] for r in listed.items]

    changed, uris = run_with(DEMO_PROFILE, body)
    assert changed and "demo://notes/groceries" not in uris and "demo://notes/ideas" in uris


@BOTH
def test_demo_prompts_get_and_completion(lite: bool) -> None:
    async def body(conn: Operations) -> dict:
        listing = await prompts.list_prompts(conn)
        summary = listing.by("name", "summarize_note")
        got = await prompts.get_prompt(conn, "summarize_note", {"note_id": "welcome", "style": "haiku"})
        image = await prompts.get_prompt(conn, "describe_image")
        style = await prompts.complete(conn, prompts.prompt_ref("summarize_note"), "style", "h")
        note = await prompts.complete(conn, prompts.template_ref("demo://notes/{note_id}"), "note_id", "gr")
        return {"listing": listing, "summary": summary, "got": got, "image": image, "style": style, "note": note}

    out = run_with(DEMO_PROFILE, body, lite=lite)
    assert {p["name"] for p in out["listing"].items} >= {"summarize_note", "describe_image"}
    schema = prompts.arguments_schema(out["summary"])
    assert schema["required"] == ["note_id"] and set(schema["properties"]) == {"note_id", "style"}
    messages = out["got"].messages
    assert [m["role"] for m in messages] == ["user", "user"] and out["got"].findings == []
    assert "haiku" in messages[0]["content"]["text"]
    assert messages[1]["content"]["type"] == "resource" and "Welcome" in messages[1]["content"]["resource"]["text"]
    assert out["image"].messages[1]["content"]["type"] == "image"
    assert out["style"].values == ["haiku"] and out["note"].values == ["groceries"]


@BOTH
def test_demo_set_level_filters_log_messages(lite: bool) -> None:
    async def body(conn: Operations) -> tuple:
        logs: list[Event] = []
        conn.subscribe(lambda e: logs.append(e) if e.kind == "log" else None)
        assert prompts.supports_logging(conn.capabilities)
        await prompts.set_log_level(conn, "error")
        await conn.call_tool("emit_logs", {"message": "m"})
        quiet = [e.data["level"] for e in logs]
        logs.clear()
        await prompts.set_log_level(conn, "debug")
        await conn.call_tool("emit_logs", {"message": "m"})
        return quiet, [e.data["level"] for e in logs]

    quiet, chatty = run_with(DEMO_PROFILE, body, lite=lite)
    assert quiet == ["error"]
    assert chatty == ["debug", "info", "warning", "error"]
    with pytest.raises(ValueError, match="unknown log level"):
        asyncio.run(prompts.set_log_level(None, "loud"))  # type: ignore[arg-type]


@BOTH
def test_pagination_and_findings_on_a_paginating_server(lite: bool) -> None:
    async def body(conn: Operations) -> tuple:
        return (
            await resources.list_resources(conn),
            await resources.list_templates(conn),
            await prompts.list_prompts(conn),
        )

    listed, templates, prompt_list = run_with(stdio_profile(PAGED), body, lite=lite)
    assert [r["uri"] for r in listed.items] == [f"paged://r/{i}" for i in range(7)] and listed.pages == 3
    assert [f.path for f in listed.findings] == ["$.resources[4].name"]
    assert templates.pages == 2 and [f.path for f in templates.findings] == ["$.resourceTemplates[2].uriTemplate"]
    assert prompt_list.pages == 2 and [f.path for f in prompt_list.findings] == ["$.prompts[1].arguments"]


def test_a_repeating_cursor_ends_with_a_finding() -> None:
    listed = run_with(stdio_profile([*PAGED, "loop"]), resources.list_resources, lite=True)
    messages = [f.message for f in listed.findings]
    assert listed.pages == 2 and any("pagination does not end" in m for m in messages)
    assert "duplicate uri 'paged://r/0' (also at index 0)" in messages


def test_everything_templates_prompts_completion_and_subscription(everything: str) -> None:
    async def body(conn: Operations) -> dict:
        events: list[Event] = []
        conn.subscribe(events.append)
        templates = await resources.list_templates(conn)
        text_template = next(t["uriTemplate"] for t in templates.items if "/text/" in t["uriTemplate"])
        blob_template = next(t["uriTemplate"] for t in templates.items if "/blob/" in t["uriTemplate"])
        text = await resources.read_resource(conn, expand(text_template, {"resourceId": "7"}))
        blob = await resources.read_resource(conn, expand(blob_template, {"resourceId": "3"}))
        got = await prompts.get_prompt(conn, "args-prompt", {"city": "Lyon", "state": "Rhône"})
        department = await prompts.complete(conn, prompts.prompt_ref("completable-prompt"), "department", "E")
        member = await prompts.complete(
            conn, prompts.prompt_ref("completable-prompt"), "name", "", {"department": "Sales"}
        )
        await resources.subscribe(conn, text["uri"] if "uri" in text.result else text.contents[0]["uri"])
        await conn.call_tool("toggle-subscriber-updates", {})
        updates = await _wait_for(events, "notifications/resources/updated")
        await prompts.set_log_level(conn, "debug")
        return {"text": text, "blob": blob, "got": got, "department": department, "member": member,
                "updates": updates}  # fmt: skip

    out = run_with(stdio_profile(["node", everything, "stdio"]), body)
    assert out["text"].contents[0]["uri"] == "demo://resource/dynamic/text/7"
    assert "Resource 7" in out["text"].contents[0]["text"] and out["text"].findings == []
    assert "blob" in out["blob"].contents[0]
    assert "Lyon, Rhône" in out["got"].messages[0]["content"]["text"]
    assert out["department"].values == ["Engineering"]
    assert out["member"].values == ["David", "Eve", "Frank"]
    assert out["updates"][0].data["params"]["uri"] == "demo://resource/dynamic/text/7"


def test_uri_templates_levels_one_to_four() -> None:
    values = {"var": "value", "hello": "Hello World!", "path": "/foo/bar", "list": ["red", "green", "blue"]}
    assert expand("{var}", values) == "value"
    assert expand("{hello}", values) == "Hello%20World%21"
    assert expand("{+path}/here", values) == "/foo/bar/here"
    assert expand("X{#var}", values) == "X#value"
    assert expand("map?{x,y}", {"x": "1024", "y": "768"}) == "map?1024,768"
    assert expand("{?x,y,empty}", {"x": "1024", "y": "768", "empty": ""}) == "?x=1024&y=768"
    assert expand("{/list*}", values) == "/red/green/blue"
    assert expand("{var:3}", values) == "val"
    assert variable_names("a{b}{?c,b}{/d*}") == ["b", "c", "d"]
    schema = variables_schema("x/{id}{/tags*}")
    assert (
        schema["properties"]["id"] == {"type": "string"} and "exploded" in schema["properties"]["tags"]["description"]
    )
    with pytest.raises(TemplateError, match="not a valid RFC 6570"):
        expand("demo://{broken", {})


def test_read_result_findings() -> None:
    findings = resources.check_read_result({"contents": [{"uri": "x"}, {"uri": 3, "text": "a", "blob": "b"}, 7]})
    assert [f.path for f in findings] == ["$.contents[0]", "$.contents[1].uri", "$.contents[1]", "$.contents[2]"]
    assert prompts.check_get_result({"messages": [{"role": "system", "content": {"type": "text", "text": "x"}}]})
    assert prompts.parse_completion({"completion": {"values": ["a", 3]}}).values == ["a"]


def test_demo_over_http_subscribe_and_list_changed(demo_http: str) -> None:
    from core_support import http_profile

    async def body(conn: Operations) -> tuple:
        events: list[Event] = []
        conn.subscribe(events.append)
        await resources.subscribe(conn, "demo://live/counter")
        updates = await _wait_for(events, "notifications/resources/updated")
        await resources.unsubscribe(conn, "demo://live/counter")
        await conn.call_tool("delete_note", {"note_id": "ideas"})
        changed = await _wait_for(events, "notifications/resources/list_changed")
        return updates, changed

    updates, changed = run_with(http_profile(demo_http), body)
    assert updates and updates[0].data["params"]["uri"] == "demo://live/counter"
    assert changed
