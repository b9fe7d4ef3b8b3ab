"""A request without params and the same request with ``"params": {}`` (or only a `_meta` the volatile
rules drop) are the same request to the matcher: clients differ in which they send (JSON-RPC lets params
be omitted), and a record of one client is replayed to another (the app's Open as mock server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from factories import request, response, tool

from inspector.replay.mock import MockServer
from inspector.replay.record import open_record
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore


def answered(recorded_params: Any, sent: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    store = TrafficStore()
    request(store, 1, "tools/list", recorded_params)
    response(store, 1, {"tools": [tool("echo")]})
    path = tmp_path / "r.jsonl"
    jsonl.save(path, store)
    replay = open_record(path)
    out: list[bytes] = []
    try:
        MockServer(replay, out.append, lambda _text: None, fast=True).handle(json.dumps(sent).encode())
    finally:
        replay.close()
    return json.loads(b"".join(out).splitlines()[0])


@pytest.mark.parametrize(
    ("recorded", "params"),
    [(None, {}), ({}, None), (None, {"_meta": {"progressToken": 7}}), ({"_meta": {"progressToken": 1}}, None)],
)
def test_no_params_and_empty_params_match(recorded: Any, params: Any, tmp_path: Path) -> None:
    sent = {"jsonrpc": "2.0", "id": 9, "method": "tools/list", **({} if params is None else {"params": params})}
    got = answered(recorded, sent, tmp_path)
    assert got.get("result", {}).get("tools", [{}])[0].get("name") == "echo", got


def test_different_params_still_differ(tmp_path: Path) -> None:
    sent = {"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"cursor": "2"}}
    assert "error" in answered(None, sent, tmp_path)
