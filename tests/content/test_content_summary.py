"""result_summary(): a whole tools/call result, with structured content checked against outputSchema."""

from __future__ import annotations

import base64
import json

import factories

from inspector.content import ImagePreview, TextPreview, UnknownPreview, result_summary
from inspector.demo import media

WEATHER_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "temperature": {"type": "number"}},
    "required": ["city", "temperature"],
}


def test_ok_result_with_blocks() -> None:
    result = factories.call_result(
        "hi",
        {"type": "image", "mimeType": "image/jpeg", "data": base64.b64encode(media.render_png(8)).decode()},
        {"type": "hologram"},
        is_error=False,
    )
    summary = result_summary(result)
    assert [type(p) for p in summary.previews] == [TextPreview, ImagePreview, UnknownPreview]
    assert not summary.is_error and summary.outcome == "ok"
    paths = [f.path for f in summary.findings]
    assert paths == ["$.content[2].type", "$.content[1].mimeType"]  # core check first, then the blocks' extras
    assert not summary.has_structured and summary.structured is None
    assert json.loads(summary.raw_json) == result


def test_tool_error() -> None:
    summary = result_summary(factories.call_result("boom", is_error=True))
    assert summary.is_error and summary.outcome == "tool error"


def test_structured_content_valid_and_violated() -> None:
    tool = factories.tool("w", None, outputSchema=WEATHER_SCHEMA)
    good = result_summary(factories.call_result(structuredContent={"city": "Lisbon", "temperature": 20}), tool)
    assert good.has_structured and good.structured_issues == () and good.findings == ()
    assert json.loads(good.structured or "") == {"city": "Lisbon", "temperature": 20}
    bad = result_summary(factories.call_result(structuredContent={"city": 5}), tool)
    assert {(f.path, f.message) for f in bad.structured_issues} == {
        ("$.structuredContent.city", "5 is not of type 'string'"),
        ("$.structuredContent", "'temperature' is a required property"),
    }
    assert bad.result_findings == ()
    missing = result_summary(factories.call_result(), tool)
    assert [f.message for f in missing.structured_issues] == [
        "tool declares outputSchema but returned no structuredContent"
    ]


def test_structured_without_schema() -> None:
    summary = result_summary(factories.call_result(structuredContent=[1, 2]))
    assert summary.structured == "[\n  1,\n  2\n]"
    assert [f.message for f in summary.structured_issues] == ["structuredContent is list"]


def test_malformed_results() -> None:
    for result in (None, [], "x", {"content": "nope"}, {"content": None, "isError": "yes"}):
        summary = result_summary(result)
        assert summary.previews == () and summary.findings
        assert summary.raw_json
