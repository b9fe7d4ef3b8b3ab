"""The JSON/JSONC span scanner: every value knows where its characters are."""

from __future__ import annotations

import json
import re

import pytest

from inspector.config.json_spans import SpanError, parse

TEXT = """\ufeff{
  // a comment with "quotes" and a } brace
  "a": {"b": [1, -2.5e3, true, null, "x\\"y"], /* c */ "c": "ü",},
  "a2": [],
}
"""


def test_values_know_their_exact_spans() -> None:
    root = parse(TEXT)
    a = root.get("a")
    assert a is not None and a.kind == "object" and list(a.keys()) == ["b", "c"]
    b = a.get("b")
    assert [TEXT[i.start : i.end] for i in b.items] == ["1", "-2.5e3", "true", "null", '"x\\"y"']
    assert TEXT[a.get("c").start : a.get("c").end] == '"ü"'
    assert TEXT[a.member("c").key_start] == '"'
    assert TEXT[root.get("a2").start : root.get("a2").end] == "[]"
    assert root.start == 1 and root.end == len(TEXT) - 1


def test_plain_json_matches_the_parser() -> None:
    data = {"mcpServers": {"x": {"command": "n", "args": ["a", "b"], "env": {"K": "v"}}}}
    text = json.dumps(data, indent=2)
    root = parse(text)
    args = root.get("mcpServers").get("x").get("args")
    assert json.loads(text[args.start : args.end]) == ["a", "b"]


def test_duplicate_keys_resolve_to_the_last_as_json_does() -> None:
    text = '{"k": 1, "k": 2}'
    node = parse(text).get("k")
    assert text[node.start : node.end] == "2"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{\n  "a": 1,,\n}', "line 2"),
        ('{"a": 1} x', "after the top-level value"),
        ('{"a": /* open', "unterminated /* comment"),
        ('{"a": "b\n"}', "unterminated string"),
        ('{"a": nope}', "unexpected 'nope'"),
        ("[1 2]", "expected ',' or ']'"),
    ],
)
def test_errors_say_where(text: str, says: str) -> None:
    with pytest.raises(SpanError, match=re.escape(says)):
        parse(text)
