"""What an outside tester found in replay and diff (OT7): the mock answers `ping` and an unrecorded
`logging/setLevel` itself, keeps a record's notifications in their order when its clock goes back; a
diff's Markdown keeps every recorded string in its code span; a record with no readable line says why."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from factories import call_result, notification, request, response, tool, tool_call
from markdown_it import MarkdownIt

from inspector.replay.diff import diff_records, to_markdown
from inspector.replay.mock import MockServer
from inspector.replay.record import ReplayError, open_record
from inspector.replay.volatile import parse_ignore
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}}
SERVER = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "logging": {}}, "serverInfo": {"name": "s"}}


def talk(path: Path, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    replay = open_record(path)
    out = io.BytesIO()
    mock = MockServer(replay, out.write, lambda _t: None, fast=False, sleep=lambda _s: None)
    try:
        for message in messages:
            mock.handle(json.dumps(message).encode())
    finally:
        replay.close()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_mock_answers_ping_and_an_unrecorded_set_level_itself(tmp_path: Path) -> None:
    store = TrafficStore()
    request(store, 1, "initialize", HELLO)
    response(store, 1, SERVER)
    jsonl.save(tmp_path / "r.jsonl", store)
    got = talk(
        tmp_path / "r.jsonl",
        {"jsonrpc": "2.0", "id": 7, "method": "ping"},
        {"jsonrpc": "2.0", "id": 8, "method": "logging/setLevel", "params": {"level": "debug"}},
    )
    assert got == [{"jsonrpc": "2.0", "id": 7, "result": {}}, {"jsonrpc": "2.0", "id": 8, "result": {}}]


def test_notifications_keep_the_records_order_when_its_clock_goes_back(tmp_path: Path) -> None:
    store = TrafficStore()
    request(store, 1, "initialize", HELLO)
    response(store, 1, SERVER)
    tool_call(store, 2, "echo", {"text": "hi"})
    for n in range(3):
        notification(store, "notifications/message", {"level": "info", "data": f"note {n}"})
    response(store, 2, call_result("hi"))
    entries = list(store)
    monos = [entries[2].mono + shift for shift in (3600.0, -7200.0, 1e12)]
    for entry, mono in zip(entries[3:6], monos, strict=True):
        entry.mono = mono
    jsonl.save(tmp_path / "r.jsonl", entries)
    got = talk(
        tmp_path / "r.jsonl",
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
    )
    notes = [m["params"]["data"] for m in got if m.get("method") == "notifications/message"]
    assert notes == ["note 0", "note 1", "note 2"] and got[-1]["id"] == 5


def test_a_diff_in_markdown_keeps_each_recorded_string_in_its_code_span(tmp_path: Path) -> None:
    def session(path: Path, name: str, text: str) -> Path:
        store = TrafficStore()
        request(store, 1, "initialize", HELLO)
        response(store, 1, SERVER)
        request(store, 2, "tools/list", {})
        response(store, 2, {"tools": [tool(name)]})
        tool_call(store, 3, "echo", {"text": text})
        response(store, 3, call_result(text + "`<img src=https://evil.example/4.png>`"))
        jsonl.save(path, store)
        return path

    a = session(tmp_path / "a.jsonl", "plain", "a | b ` <img src=https://evil.example/2.png>")
    b = session(
        tmp_path / "b.jsonl", "x`<img src=https://evil.example/3.png>`", "a | b ` <img src=https://evil.example/2.png>"
    )
    ra, rb = open_record(a), open_record(b)
    try:
        diff = diff_records(ra, rb)
    finally:
        ra.close()
        rb.close()
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(to_markdown(diff))
    assert "<img" not in html, html


def test_a_record_with_no_readable_line_says_which_lines_and_why(tmp_path: Path) -> None:
    store = TrafficStore()
    request(store, 1, "initialize", HELLO)
    response(store, 1, SERVER)
    jsonl.save(tmp_path / "r.jsonl", store)
    lines = (tmp_path / "r.jsonl").read_bytes().splitlines()
    stripped = [lines[0]] + [
        json.dumps({k: v for k, v in json.loads(line).items() if k != "len"}).encode() for line in lines[1:]
    ]
    (tmp_path / "r.jsonl").write_bytes(b"\n".join(stripped) + b"\n")
    with pytest.raises(ReplayError) as raised:
        open_record(tmp_path / "r.jsonl")
    assert "line 2 is damaged" in str(raised.value), str(raised.value)


def test_an_ignore_rule_that_is_no_json_path_is_refused() -> None:
    """OT7 10: `--ignore 'garbage['` was taken silently as a rule for `garbage`."""
    for text in ("garbage[", "a]b", "$.", "a..b", "[0"):
        with pytest.raises(ValueError):
            parse_ignore(text)
    assert parse_ignore("$.result.content[0].text").path == ("result", "content", "0", "text")
    assert parse_ignore("result.structuredContent.datetime").path == ("result", "structuredContent", "datetime")
    assert parse_ignore("$.result.*").path == ("result", "*")
    assert parse_ignore("$['result']['a.b']").path == ("result", "a.b")


def test_a_request_answered_only_by_an_http_status_body_has_that_body_as_its_answer(tmp_path: Path) -> None:
    """OT7 4: over HTTP the era probe's answer is a 400 whose body is a JSON-RPC error (id null), recorded as
    the HTTP answer's body, not paired: a run against the unchanged server judged it 'different' (no answer)."""
    path = tmp_path / "h.jsonl"
    body = {"jsonrpc": "2.0", "error": {"code": -32000, "message": "Bad Request: Server not initialized"}, "id": None}
    asked = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}
    lines = [
        {"format": "mcp-lens-traffic", "version": 1, "meta": {}},
        {
            "seq": 1,
            "wall": 1.0,
            "mono": 1.0,
            "dir": "out",
            "transport": "http",
            "kind": "request",
            "id": 1,
            "method": "server/discover",
            "raw": json.dumps(asked),
            "probe": "era probe",
        },
        {
            "seq": 2,
            "wall": 1.1,
            "mono": 1.1,
            "dir": "in",
            "transport": "http",
            "kind": "http-meta",
            "http": {"status": 400, "request_seq": 1},
            "notes": ["HTTP 400"],
            "raw": "HTTP 400 Bad Request",
        },
        {
            "seq": 3,
            "wall": 1.1,
            "mono": 1.1,
            "dir": "in",
            "transport": "http",
            "kind": "http-meta",
            "http": {"status": 400, "request_seq": 1},
            "notes": ["HTTP 400 body"],
            "raw": json.dumps(body),
        },
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    replay = open_record(path)
    try:
        answer = replay.response(0)
        assert answer is not None and answer.value == body
    finally:
        replay.close()


def test_a_workspace_servers_secret_in_a_new_answer_is_redacted_and_matches_the_recorded(tmp_path: Path) -> None:
    """OT7 13: run against a server whose profile holds a secret, the new answer showed it in clear beside
    the record's `<redacted>`, and the answer was judged different."""
    import sys

    from inspector.config.profile import ServerProfile
    from inspector.replay.against import run_against

    def echo_record(path: Path, text: str) -> Path:
        store = TrafficStore()
        request(store, 1, "initialize", HELLO)
        response(store, 1, SERVER)
        tool_call(store, 2, "echo", {"text": "key"})
        response(store, 2, call_result(text))
        jsonl.save(path, store)
        return path

    recorded = echo_record(tmp_path / "recorded.jsonl", "API_KEY=<redacted>")
    server = echo_record(tmp_path / "server.jsonl", "API_KEY=SEKRETgetenv999")  # what the new build answers
    profile = ServerProfile(
        name="evsecret",
        command=sys.executable,
        args=["-m", "inspector", "replay", str(server), "--fast"],
        env={"API_KEY": "SEKRETgetenv999"},
    )
    replay = open_record(recorded)
    try:
        run = run_against(replay, profile)
    finally:
        replay.close()
    assert [v.verdict for v in run.verdicts] == ["identical", "identical"], [
        (v.verdict, v.changes) for v in run.verdicts
    ]
    assert "SEKRETgetenv999" not in json.dumps([v.new for v in run.verdicts])
