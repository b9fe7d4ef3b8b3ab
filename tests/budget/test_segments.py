"""Splitting at safe boundaries keeps counts exact: the property the incremental totals rely on."""

from __future__ import annotations

import json
import random
import string

import pytest

from inspector.budget.segments import _FIRST, _PUNCT, cut_member, is_safe_boundary, join_segments, split_safe
from inspector.budget.tokenizers import get_tokenizer

ALPHABET = (
    string.ascii_letters + string.digits + string.punctuation + " \n\t" + "éÜßçñ—–’“”…☀️😀👩‍💻日本語한국어\u0301\u200b"
)


def random_text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(n))


def random_tool(rng: random.Random) -> dict:
    words = ["fetch", "the", "City", "'s", "weather", "☀️", "42", "x_y", "don't", "\n", "  ", "URL", "naïve", "→"]
    return {
        "name": "".join(rng.choice(words) for _ in range(rng.randint(1, 3))),
        "description": " ".join(rng.choice(words) for _ in range(rng.randint(0, 30))),
        "inputSchema": {
            "type": "object",
            "properties": {random_text(rng, 5): {"type": "string", "description": random_text(rng, 20)}},
        },
        rng.choice(["annotations", "_meta", "x"]): {"readOnlyHint": rng.random() < 0.5, "n": rng.randint(0, 999)},
    }


def test_regex_class_is_the_punctuation_set() -> None:
    for ch in map(chr, range(128)):
        assert bool(_FIRST.search("a" + ch)) == (ch in _PUNCT), repr(ch)
    assert "'" not in _PUNCT


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_every_safe_split_of_random_text_adds_up(name: str) -> None:
    tokenizer = get_tokenizer(name)
    rng = random.Random(7)
    checked = 0
    for _ in range(300):
        text = random_text(rng, rng.randint(2, 80))
        whole = tokenizer.count(text)
        for b in range(1, len(text)):
            if is_safe_boundary(text, b):
                assert tokenizer.count(text[:b]) + tokenizer.count(text[b:]) == whole, (text, b)
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_joined_tool_lists_count_exactly(name: str) -> None:
    tokenizer = get_tokenizer(name)
    rng = random.Random(11)
    for _ in range(40):
        items = [json.dumps(random_tool(rng), ensure_ascii=False, separators=(",", ":")) for _ in range(8)]
        segments = join_segments('{"tools":[', items, ",", "]}")
        whole = '{"tools":[' + ",".join(items) + "]}"
        assert "".join(segments) == whole
        assert sum(tokenizer.count(s) for s in segments) == tokenizer.count(whole)


def test_split_safe_shapes() -> None:
    assert split_safe('{"name":"x"}') == ('{"name', '":"x', '"}')
    assert split_safe("{}") is None
    assert split_safe("a.") == ("a", "", ".")  # one boundary only
    assert split_safe('"x":true') == ('"x', "", '":true')
    assert split_safe("😀😀") is None


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_cut_member_around_property_descriptions_is_exact(name: str) -> None:
    from inspector.budget.shapes import member, property_descriptions

    tokenizer = get_tokenizer(name)
    rng = random.Random(5)
    for _ in range(60):
        schema = random_tool(rng)["inputSchema"]
        schema["properties"]["dup"] = dict(next(iter(schema["properties"].values())))  # a repeated description
        text = member("inputSchema", schema)
        inner = [member("description", d) for d in property_descriptions(schema)]
        head, closed, tail = cut_member(text, inner)
        assert head + "".join(closed) + tail == text
        assert tokenizer.count(head) + sum(map(tokenizer.count, closed)) + tokenizer.count(tail) == tokenizer.count(
            text
        )
        for fragment in inner:  # each description's long middle is one of the pieces
            middle = split_safe(fragment)[1]
            assert not middle or middle in closed
