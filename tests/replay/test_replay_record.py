"""The replay core on records built with the factories: matching (volatile fields, order, nearest), the
mock's answers, damaged lines and several servers."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from factories import call_result, notification, request, response, tool_call

from inspector.replay.compare import DIFFERENT, EQUAL, IDENTICAL, compare
from inspector.replay.mock import MockServer
from inspector.replay.record import ReplayError, open_record
from inspector.replay.volatile import parse_ignore
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore


def saved(store: TrafficStore, path: Path, meta: dict[str, Any] | None = None) -> Path:
    jsonl.save(path, store, meta)
    return path


def talk(path: Path, *messages: dict[str, Any], **options: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """Send `messages` to the mock of `path`; what it wrote, and its warnings."""
    replay = open_record(path, options.pop("server", None))
    out, warned = io.BytesIO(), []
    mock = MockServer(replay, out.write, warned.append, fast=True, **options)
    try:
        for message in messages:
            mock.handle(json.dumps(message).encode())
    finally:
        replay.close()
    return [json.loads(line) for line in out.getvalue().splitlines()], warned


def call(rpc_id: int, text: str, **meta: Any) -> dict[str, Any]:
    params: dict[str, Any] = {"name": "echo", "arguments": {"text": text}}
    if meta:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": rpc_id, "method": "tools/call", "params": params}


def test_the_same_request_made_twice_is_answered_in_recorded_order(tmp_path: Path) -> None:
    store = TrafficStore()
    request(store, 1, "initialize", {"protocolVersion": "2025-11-25", "clientInfo": {"name": "host", "version": "1"}})
    info = {"name": "s", "version": "1"}
    response(store, 1, {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": info})
    for rpc_id, answer in ((2, "first"), (3, "second")):
        tool_call(store, rpc_id, "echo", {"text": "hi"})
        response(store, rpc_id, call_result(answer))
    path = saved(store, tmp_path / "r.jsonl")
    asked = {"protocolVersion": "2025-11-25", "clientInfo": {"name": "another client", "version": "9"}}
    got, warned = talk(
        path,
        {"jsonrpc": "2.0", "id": "a", "method": "initialize", "params": asked},
        {"jsonrpc": "2.0", "id": 40, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
        {"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
        {"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
    )
    assert warned == []
    assert [m["id"] for m in got] == ["a", 40, 41, 42]
    assert got[0]["result"]["serverInfo"] == {"name": "s", "version": "1"}  # any client's handshake
    texts = [m["result"]["content"][0]["text"] for m in got[1:]]
    assert texts == ["first", "second", "second"]  # in order; the last again once used up


def test_progress_tokens_are_volatile_and_the_notifications_follow_with_the_clients_token(tmp_path: Path) -> None:
    store = TrafficStore()
    request(store, 5, "tools/call", {"name": "echo", "arguments": {"text": "hi"}, "_meta": {"progressToken": 5}})
    notification(store, "notifications/progress", {"progressToken": 5, "progress": 1, "total": 2})
    notification(store, "notifications/tools/list_changed")
    response(store, 5, call_result("done"))
    path = saved(store, tmp_path / "r.jsonl")
    got, _ = talk(path, call(77, "hi", progressToken="tok-77"))
    assert [m.get("method") for m in got] == ["notifications/progress", "notifications/tools/list_changed", None]
    assert got[0]["params"]["progressToken"] == "tok-77"
    assert got[2] == {"jsonrpc": "2.0", "id": 77, "result": call_result("done")}


def test_a_request_never_recorded_gets_an_error_naming_it_and_the_nearest(tmp_path: Path) -> None:
    store = TrafficStore()
    tool_call(store, 1, "echo", {"text": "hi"})
    response(store, 1, call_result("hi"))
    path = saved(store, tmp_path / "r.jsonl")
    got, warned = talk(path, call(2, "bye"), {"jsonrpc": "2.0", "id": 3, "method": "prompts/list"})
    error = got[0]["error"]
    assert error["code"] == -32602
    assert "no recorded answer to tools/call" in error["message"] and '"bye"' in error["message"]
    assert error["data"]["nearest"]["params"] == {"name": "echo", "arguments": {"text": "hi"}}
    assert got[1]["error"]["code"] == -32601 and "recorded methods: tools/call" in got[1]["error"]["message"]
    assert len(warned) == 2 and "prompts/list" in warned[1]


def test_a_record_of_several_servers_needs_one_chosen(tmp_path: Path) -> None:
    store = TrafficStore()
    tool_call(store, 1, "echo", {"text": "one"}).source = "alpha"
    response(store, 1, call_result("from alpha")).source = "alpha"
    tool_call(store, 1, "echo", {"text": "one"}).source = "beta"
    response(store, 1, call_result("from beta")).source = "beta"
    path = saved(store, tmp_path / "both.jsonl", {"servers": ["alpha", "beta"]})
    with pytest.raises(ReplayError, match="holds 2 servers; choose one with --server NAME: 'alpha', 'beta'"):
        open_record(path)
    got, _ = talk(path, call(9, "one"), server="beta")
    assert got[0]["result"]["content"][0]["text"] == "from beta"


def test_a_damaged_line_is_left_out_with_a_warning(tmp_path: Path) -> None:
    store = TrafficStore()
    tool_call(store, 1, "echo", {"text": "hi"})
    response(store, 1, call_result("hi"))
    path = saved(store, tmp_path / "r.jsonl")
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:2], b'{"msg":{"jsonrpc": garbage\n', *lines[2:]]))
    replay = open_record(path)
    try:
        assert len(replay) == 1
        assert replay.warnings and "line 3 is damaged" in replay.warnings[0]
    finally:
        replay.close()


def test_compare_tells_identical_equal_and_different() -> None:
    recorded = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "a"}], "n": 1}}
    assert compare(recorded, {**recorded, "id": 7}, "tools/call") == (IDENTICAL, [])
    handshake = {"jsonrpc": "2.0", "id": 1, "result": {"serverInfo": {"name": "s", "version": "1.0"}}}
    newer = {"jsonrpc": "2.0", "id": 1, "result": {"serverInfo": {"name": "s", "version": "1.1"}}}
    assert compare(handshake, newer, "initialize") == (EQUAL, [])
    changed = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "b"}], "n": 1}}
    verdict, changes = compare(recorded, changed, "tools/call")
    assert verdict == DIFFERENT
    assert [(c.path, c.recorded, c.new) for c in changes] == [("$.result.content[0].text", "a", "b")]
    rule = parse_ignore("$.result.content[*].text")
    assert compare(recorded, changed, "tools/call", (rule,))[0] == EQUAL
