"""JSONC stripping: comments and trailing commas go, strings stay byte-for-byte."""

from __future__ import annotations

import json

import pytest

from inspector.config.jsonc import loads, strip_jsonc
from inspector.config.profile import ProfileError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"url": "https://example.com/mcp"} // trailing', {"url": "https://example.com/mcp"}),
        ('{"a": "/* not a comment */"}', {"a": "/* not a comment */"}),
        ('{"a": "x // y"}', {"a": "x // y"}),
        ('{"a": "quote \\" // still a string"}', {"a": 'quote " // still a string'}),
        ('{"a": "ends with backslash \\\\"} // c', {"a": "ends with backslash \\"}),
        ('{"a": "trailing , }"}', {"a": "trailing , }"}),
        ('{"a": [1, 2, ], }', {"a": [1, 2]}),
        ('{"a": [1, 2 /* two */ ,\n // c\n ]\n,}', {"a": [1, 2]}),
        ('{"a": 1 /* multi\nline */, "b": 2}', {"a": 1, "b": 2}),
        ('{"a": "*/"}', {"a": "*/"}),
        ('/**/{"a":1}', {"a": 1}),
        ('{"a": 1}//no newline at end', {"a": 1}),
    ],
)
def test_strip_jsonc(text: str, expected: object) -> None:
    assert json.loads(strip_jsonc(text)) == expected


def test_strip_keeps_positions() -> None:
    text = '{\n  // comment\n  "a": 1, /* x */\n}'
    stripped = strip_jsonc(text)
    assert len(stripped) == len(text)
    assert stripped.count("\n") == text.count("\n")
    assert stripped.index('"a"') == text.index('"a"')


@pytest.mark.parametrize("text", ["[,]", '{"a": 1,,}', "[1,,]"])
def test_only_a_real_trailing_comma_is_removed(text: str) -> None:
    with pytest.raises(json.JSONDecodeError):
        json.loads(strip_jsonc(text))


def test_error_points_at_the_original_line_and_column() -> None:
    text = '{\n  // a comment\n  "a": 1,\n  "b": nope\n}'
    with pytest.raises(ProfileError) as info:
        loads(text, source="x/mcp.json", jsonc=True)
    assert "x/mcp.json" in str(info.value)
    assert "line 4, column 8" in str(info.value)


def test_unterminated_block_comment() -> None:
    with pytest.raises(ProfileError, match=r"unterminated /\* comment starting at line 2, column 3"):
        loads('{\n  /* open\n "a": 1}', jsonc=True)


def test_strict_json_rejects_comments_and_bom_is_ignored() -> None:
    with pytest.raises(ProfileError, match="line 1"):
        loads('{"a": 1} // c')
    assert loads('\ufeff{"a": 1}') == {"a": 1}
