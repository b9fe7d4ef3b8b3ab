"""`mcp-lens diff --format markdown` is pasted into pull requests: every string a record holds (a tool's name,
a request's arguments, an answer, a JSON path, a file name) stays inside its code span or code block when
rendered as GitHub renders (CommonMark, tables, raw HTML allowed): no HTML element, link, image or @mention
comes from the record, whatever backticks, pipes, backslashes or newlines it holds."""

from __future__ import annotations

from pathlib import Path

from factories import call_result, request, response, tool, tool_call
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from inspector.budget.snapshot import SnapshotDiff, ToolChange
from inspector.replay.compare import Change
from inspector.replay.diff import ONLY_B, Pair, RecordDiff, diff_records, to_markdown
from inspector.replay.record import open_record
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore

HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}}
SERVER = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "s"}}
# What only a record could have put in the rendered page: none of it is in our own words.
FOREIGN = ("<", ">", "@", "[", "]", "http", "`", "\\", "|", "ZQX")


def rendered_leaks(markdown: str) -> list[str]:
    """What of `markdown`, rendered with raw HTML allowed, is HTML, a link, an image, or record text outside code."""
    tokens = MarkdownIt("commonmark", {"html": True}).enable("table").parse(markdown)
    leaks: list[str] = []
    for token in tokens:
        if token.type.startswith("html"):
            leaks.append(f"{token.type}: {token.content!r}")
        for child in token.children or []:
            if child.type.startswith(("html", "link", "image")) or child.type in ("autolink",):
                leaks.append(f"{child.type}: {child.content!r}")
            if child.type == "text" and any(mark in child.content for mark in FOREIGN):
                leaks.append(f"text outside code: {child.content!r}")
    return leaks


def session(path: Path, tool_name: str, argument: str, answer: str) -> Path:
    store = TrafficStore()
    request(store, 1, "initialize", HELLO)
    response(store, 1, SERVER)
    request(store, 2, "tools/list", {})
    response(store, 2, {"tools": [tool(tool_name, description=answer)]})
    tool_call(store, 3, "echo", {"text": argument})
    response(store, 3, call_result(answer))
    jsonl.save(path, store)
    return path


def test_the_testers_record_renders_no_html_or_link(tmp_path: Path) -> None:
    """OT7 #2: a tool named x`<img …>` and an argument `a | b ` <img …>` ended their code spans."""
    argument = "a | b ` <img src=https://evil.example/2.png> [click](https://evil.example) @octocat a\\|b\\"
    a = session(tmp_path / "a`<b>.jsonl", "plain", argument, "one")
    b = session(tmp_path / "b.jsonl", "x`<img src=https://evil.example/3.png>`", argument, "``<i>two</i>`` | three")
    ra, rb = open_record(a), open_record(b)
    try:
        diff = diff_records(ra, rb)
    finally:
        ra.close()
        rb.close()
    markdown = to_markdown(diff)
    assert rendered_leaks(markdown) == [], markdown
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)
    assert "<img" not in html and "<a " not in html and "<i>" not in html, html
    assert "x`&lt;img src=https://evil.example/3.png&gt;`" in html  # the name itself is shown, whole
    assert (
        "<li><code>$.result.content[0].text</code>: <code>&quot;one&quot;</code> → <code>&quot;``&lt;i&gt;two" in html
    )
    assert "&lt;/i&gt;`` | three&quot;</code></li>" in html  # a pipe outside a table is shown as it is


PIECES = [*"`|\\<>[]()@!*_#-:\n\r \t~=\"'/ZQXab", "http://", "<img src=x>", "``", "[a](b)"]
HOSTILE = st.lists(st.sampled_from(PIECES), min_size=1, max_size=16).map(lambda parts: "ZQX" + "".join(parts))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values=st.lists(HOSTILE, min_size=8, max_size=8))
def test_no_recorded_string_leaves_its_code_span(values: list[str]) -> None:
    name, path, old, new, method, param, tool_name, change = values
    pairs = [
        Pair(1, method, {"x": param}, None, None, "different", [Change(path, old, new)], 1.0, 2.0),
        Pair(0, method, param, None, None, ONLY_B, b_ms=3.0),
    ]
    tools = SnapshotDiff(
        added=[ToolChange(tool_name, 0, 5, ["tool added"], [])],
        removed=[],
        changed=[ToolChange(name, 4, 6, [change], [change])],
        old_total=4,
        new_total=11,
    )
    diff = RecordDiff(name, path, pairs, tools, [Change(path, old, new)])
    markdown = to_markdown(diff)
    assert rendered_leaks(markdown) == [], markdown
