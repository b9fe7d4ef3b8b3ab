"""`diff_records` on two records built with the factories: answers lined up by request, the requests only
one made, the tool lists' difference (the Budget's diff) and the capabilities'."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from factories import call_result, request, response, tool, tool_call

from inspector.replay.diff import ONLY_A, ONLY_B, diff_records, to_markdown, to_text
from inspector.replay.record import open_record
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore


def session(path: Path, tools: list[dict[str, Any]], capabilities: dict[str, Any], calls: dict[str, str]) -> Path:
    store = TrafficStore()
    request(store, 1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
    info = {"name": "s", "version": "1"}
    response(store, 1, {"protocolVersion": "2025-11-25", "capabilities": capabilities, "serverInfo": info})
    request(store, 2, "tools/list", {})
    response(store, 2, {"tools": tools})
    for n, (text, answer) in enumerate(calls.items(), start=3):
        tool_call(store, n, "echo", {"text": text})
        response(store, n, call_result(answer))
    jsonl.save(path, store)
    return path


def test_two_records_lined_up_by_request(tmp_path: Path) -> None:
    a = session(tmp_path / "a.jsonl", [tool("echo")], {"tools": {}}, {"hi": "hi", "old": "x"})
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    b_tools = [tool("echo", input_schema=schema), tool("add")]
    b = session(tmp_path / "b.jsonl", b_tools, {"tools": {"listChanged": True}}, {"hi": "hi!", "new": "y"})
    ra, rb = open_record(a), open_record(b)
    try:
        diff = diff_records(ra, rb)
    finally:
        ra.close()
        rb.close()
    verdicts = [(p.method, p.verdict) for p in diff.pairs]
    assert verdicts == [
        ("initialize", "different"),  # its capabilities
        ("tools/list", "different"),
        ("tools/call", "different"),
        ("tools/call", ONLY_A),
        ("tools/call", ONLY_B),
    ]
    call = diff.pairs[2]
    assert [(c.path, c.recorded, c.new) for c in call.changes] == [("$.result.content[0].text", "hi", "hi!")]
    assert call.a_ms is not None and call.b_ms is not None
    assert [c.name for c in diff.tools.added] == ["add"] and [c.name for c in diff.tools.changed] == ["echo"]
    assert [(c.path, c.new) for c in diff.capabilities] == [("$.capabilities.tools.listChanged", True)]
    assert not diff.same
    text = to_text(diff)
    assert "  + add" in text and "$.capabilities.tools.listChanged: (absent) → true" in text
    assert '- `$.result.content[0].text`: `"hi"` → `"hi!"`' in to_markdown(diff)
