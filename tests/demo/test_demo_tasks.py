"""research_topic as a task: the 2025-11-25 core form and the 2026-07-28 extension form, stdio and HTTP."""

import time
from collections.abc import Callable
from typing import Any

import pytest
from wire_support import TASKS_EXTENSION, RawStdio, modern_meta, post, post_modern

TASKS = {"extensions": {TASKS_EXTENSION: {}}}
QUICK = {"steps": 3, "delay": 0.1}


@pytest.fixture
def raw() -> Any:
    server = RawStdio()
    yield server
    server.close()


def poll(get: Callable[[], dict[str, Any]], until: set[str], timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (task := get())["status"] not in until:
        assert time.monotonic() < deadline, task
        time.sleep(0.1)
    return task


def test_legacy_form_lifecycle(raw: RawStdio) -> None:
    capabilities = raw.initialize(tasks={})["result"]["capabilities"]
    assert capabilities["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    tools = {tool["name"]: tool for tool in raw.request(1, "tools/list")["result"]["tools"]}
    assert tools["research_topic"]["execution"] == {"taskSupport": "optional"}

    created = raw.request(2, "tools/call", {"name": "research_topic", "arguments": QUICK, "task": {"ttl": 60_000}})
    task = created["result"]["task"]
    assert (task["status"], task["ttl"], task["pollInterval"]) == ("working", 60_000, 500)
    listed = raw.request(3, "tasks/list")["result"]["tasks"]
    assert [t["taskId"] for t in listed] == [task["taskId"]]
    result = raw.request(4, "tasks/result", {"taskId": task["taskId"]})["result"]  # waits for the end
    assert result["content"][0]["text"].startswith("Research on 'MCP tasks' finished")
    assert result["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task["taskId"]}
    done = raw.request(5, "tasks/get", {"taskId": task["taskId"]})["result"]
    assert done["status"] == "completed"
    statuses = [m["params"] for m in raw.seen if m.get("method") == "notifications/tasks/status"]
    assert [s["statusMessage"] for s in statuses][:3] == [f"Step {i} of 3: reading about MCP tasks" for i in (1, 2, 3)]
    assert statuses[-1]["status"] == "completed"


def test_legacy_form_cancel_fail_and_confirm(raw: RawStdio) -> None:
    raw.initialize(tasks={}, elicitation={"form": {}})
    slow = raw.request(1, "tools/call", {"name": "research_topic", "arguments": {"steps": 50}, "task": {}})
    task_id = slow["result"]["task"]["taskId"]
    assert raw.request(2, "tasks/cancel", {"taskId": task_id})["result"]["status"] == "cancelled"
    assert raw.request(3, "tasks/cancel", {"taskId": task_id})["error"]["code"] == -32602  # already finished
    failing = {"name": "research_topic", "arguments": {**QUICK, "fail_at_step": 2}, "task": {}}
    task_id = raw.request(4, "tools/call", failing)["result"]["task"]["taskId"]
    error = raw.request(5, "tasks/result", {"taskId": task_id})["error"]
    assert error["message"] == "Simulated failure at step 2 of 3"
    assert raw.request(6, "tasks/get", {"taskId": task_id})["result"]["status"] == "failed"

    raw.answers["elicitation/create"] = {"action": "accept", "content": {"publish": True}}
    confirming = {"name": "research_topic", "arguments": {**QUICK, "confirm": True}, "task": {}}
    task_id = raw.request(7, "tools/call", confirming)["result"]["task"]["taskId"]
    result = raw.request(8, "tasks/result", {"taskId": task_id})["result"]
    assert result["content"][0]["text"].endswith("Published.")
    statuses = [m["params"]["status"] for m in raw.seen if m.get("method") == "notifications/tasks/status"]
    assert "input_required" in statuses
    assert raw.request(9, "tasks/get", {"taskId": "no-such-task"})["error"]["code"] == -32602


def test_without_a_task_the_tool_runs_inline(raw: RawStdio) -> None:
    raw.initialize()
    params = {"name": "research_topic", "arguments": QUICK, "_meta": {"progressToken": "p"}}
    result = raw.request(1, "tools/call", params)["result"]
    assert result["content"][0]["text"].startswith("Research on 'MCP tasks' finished")
    assert len([m for m in raw.seen if m.get("method") == "notifications/progress"]) == 3


def test_modern_extension_over_stdio(raw: RawStdio) -> None:
    discovered = raw.request(1, "server/discover", {"_meta": modern_meta()})["result"]
    assert discovered["capabilities"]["extensions"][TASKS_EXTENSION] == {}
    call = {"name": "research_topic", "arguments": {**QUICK, "confirm": True}, "_meta": modern_meta(**TASKS)}
    created = raw.request(2, "tools/call", call)["result"]
    assert created["resultType"] == "task"
    assert (created["status"], created["ttlMs"], created["pollIntervalMs"]) == ("working", 600_000, 500)

    def get() -> dict[str, Any]:
        return raw.request(3, "tasks/get", {"taskId": created["taskId"], "_meta": modern_meta(**TASKS)})["result"]

    waiting = poll(get, {"input_required", "completed", "failed"})
    assert waiting["status"] == "input_required"
    (key, request), *_ = waiting["inputRequests"].items()
    assert request["method"] == "elicitation/create"
    update = {
        "taskId": created["taskId"],
        "inputResponses": {key: {"action": "decline"}},
        "_meta": modern_meta(**TASKS),
    }
    assert raw.request(4, "tasks/update", update)["result"] == {"resultType": "complete"}
    done = poll(get, {"completed", "failed", "cancelled"})
    assert done["resultType"] == "complete" and done["status"] == "completed"
    assert done["result"]["resultType"] == "complete"
    assert done["result"]["content"][0]["text"].endswith("Not published (the user chose decline).")


def test_modern_without_the_extension_runs_inline(raw: RawStdio) -> None:
    call = {"name": "research_topic", "arguments": QUICK, "_meta": modern_meta()}
    result = raw.request(1, "tools/call", call)["result"]
    assert result["resultType"] == "complete"
    assert raw.request(2, "tasks/list", {"_meta": modern_meta()})["error"]["code"] == -32601  # no tasks/list in 2026


def test_modern_extension_over_stateless_http(demo_http_url: str) -> None:
    arguments = {"name": "research_topic", "arguments": QUICK, "_capabilities": TASKS}
    headers, created = post_modern(demo_http_url, 1, "tools/call", arguments, name="research_topic")
    assert "mcp-session-id" not in headers
    task_id = created["result"]["taskId"]

    def get() -> dict[str, Any]:
        return post_modern(demo_http_url, 2, "tasks/get", {"taskId": task_id, "_capabilities": TASKS})[1]["result"]

    done = poll(get, {"completed", "failed", "cancelled"})
    assert done["status"] == "completed", done
    arguments = {"name": "research_topic", "arguments": {"steps": 50}, "_capabilities": TASKS}
    slow = post_modern(demo_http_url, 3, "tools/call", arguments, name="research_topic")[1]["result"]
    cancelled = post_modern(demo_http_url, 4, "tasks/cancel", {"taskId": slow["taskId"], "_capabilities": TASKS})[1]
    assert cancelled["result"] == {"resultType": "complete"}
    task_id = slow["taskId"]
    assert get()["status"] == "cancelled"


def test_legacy_form_over_http(demo_http_url: str) -> None:
    init = {"protocolVersion": "2025-11-25", "capabilities": {"tasks": {}}, "clientInfo": {"name": "r", "version": "0"}}
    headers, reply = post(demo_http_url, {"id": 1, "method": "initialize", "params": init})
    assert reply["result"]["capabilities"]["tasks"]["requests"] == {"tools": {"call": {}}}
    session = {"Mcp-Session-Id": headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
    post(demo_http_url, {"method": "notifications/initialized"}, session)
    call = {"name": "research_topic", "arguments": QUICK, "task": {}}
    task = post(demo_http_url, {"id": 2, "method": "tools/call", "params": call}, session)[1]["result"]["task"]
    result = post(demo_http_url, {"id": 3, "method": "tasks/result", "params": {"taskId": task["taskId"]}}, session)[1]
    assert result["result"]["content"][0]["text"].startswith("Research on 'MCP tasks' finished")
    listed = post(demo_http_url, {"id": 4, "method": "tasks/list", "params": {}}, session)[1]["result"]["tasks"]
    assert task["taskId"] in {t["taskId"] for t in listed}
