"""A huge string (a 20 MB `data:` icon in a tool list) is counted in pieces cut at safe boundaries: the same
count as encoding it whole, without holding its whole token list (issue 21: `mcp-lens tokens` took 1.2 GB)."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import tracemalloc

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.lints import normal_digest, normalise
from inspector.budget.segments import safe_pieces
from inspector.budget.shapes import LIST_FRAMES, SHAPES, shape_members, shaped_tool
from inspector.budget.similar import sketch
from inspector.budget.tokenizers import LONG_TEXT_CHARS, get_tokenizer


def icon_text(size: int) -> str:
    data = random.Random(7).randbytes(size * 3 // 4)
    return json.dumps({"icons": [{"src": "data:image/png;base64," + base64.b64encode(data).decode()}]})


def test_pieces_join_back_and_are_bounded() -> None:
    text = icon_text(3_000_000)
    pieces = list(safe_pieces(text, 500_000))
    assert "".join(pieces) == text
    assert len(pieces) >= 5 and all(len(p) < 600_000 for p in pieces)


def test_a_long_text_counts_the_same_in_pieces() -> None:
    tokenizer = get_tokenizer("o200k_base")
    text = icon_text(LONG_TEXT_CHARS * 3)
    whole = len(tokenizer.encoding.encode_ordinary(text))
    assert tokenizer.count(text) == whole


def test_counting_a_big_icon_does_not_hold_its_token_list() -> None:
    tokenizer = get_tokenizer("o200k_base")
    text = icon_text(8_000_000)
    tracemalloc.start()
    try:
        tokenizer.count(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * len(text), f"peak {peak:,} bytes while counting {len(text):,} characters"


def test_a_report_keeps_no_copy_of_a_huge_member() -> None:
    """The counter's caches held a 1 MB description (and a 20 MB icon) five times over: as a count's key,
    a split's, a cut's, its middle piece and the tool's whole text. An unchanged tool is never recounted
    (the tool memo keeps its cost by identity), so huge strings are not kept; the count stays exact."""
    tokenizer = get_tokenizer("o200k_base")
    description = " ".join(f"word{n % 977} and more." for n in range(120_000))  # ~2.5 MB
    tool = {"name": "big", "description": description, "inputSchema": {"type": "object"}}
    counter = BudgetCounter(tokenizer)
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        report = counter.report([tool], "mcp")
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert report.tools[0].total == len(tokenizer.encoding.encode_ordinary(json.dumps(tool, separators=(",", ":"))))
    size = len(description)
    assert kept < size / 2, f"the counter kept {kept / 2**20:.1f} MB for a {size / 2**20:.1f} MB text"


def test_the_near_duplicate_sketch_of_a_long_description_holds_no_list_of_its_words() -> None:
    """Sketching a 1 MB description made lists of its words, word pairs and hashes (~30 MB)."""
    text = " ".join(f"w{n % 5000}" for n in range(200_000))
    tracemalloc.start()
    try:
        sketch(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(text), f"sketching {len(text) / 2**20:.1f} MB peaked at {peak / 2**20:.1f} MB"


def test_normalising_a_long_description_makes_no_list_of_its_words() -> None:
    """The lints' normal form of a 1 MB description was built from a list of its ~200,000 words (~12 MB
    at once, in the Budget tab and again in the Description lab); the same normal form, from the text."""
    text = "The Quick, brown fox: jumps over the lazy dog!\n" * 22_000  # ~1 MB
    tracemalloc.start()
    try:
        normal = normalise(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert normal == " ".join(re.findall(r"\w+", text.lower()))
    assert normal_digest(text) == hashlib.sha256(normal.encode()).hexdigest()
    assert peak < 3 * len(text), f"normalising {len(text) / 2**20:.1f} MB peaked at {peak / 2**20:.1f} MB"
    for odd in ("", "  ", "...", "_a_ b", " ÉTÉ, İstanbul; ß ", "x\u0307y", "a\x00b"):
        assert normalise(odd) == " ".join(re.findall(r"\w+", odd.lower())), repr(odd)


def test_a_report_of_a_long_description_keeps_one_copy_and_makes_few() -> None:
    """Under `BudgetCounter.HUGE` a description was cached for recounts: the counter kept it five times (its
    member as a split's key, the split's middle, the cut's key, the cut's own slice, the lints' normal
    form) and peaked at 6.4x its size; now it is counted as a stream and linted by its digest, a token list
    of a small piece at a time, and its blankness is not checked on a stripped copy."""
    tokenizer = get_tokenizer("o200k_base")
    description = ("The quick brown fox jumps over the lazy dog, and then it does so again. " * 12 + "\n") * 1_000
    assert len(description) < BudgetCounter.HUGE
    tool = {"name": "long", "description": description, "inputSchema": {"type": "object"}}
    counter = BudgetCounter(tokenizer)
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        report = counter.report([tool], "mcp")
        kept, peak = (n - before for n in tracemalloc.get_traced_memory())
    finally:
        tracemalloc.stop()
    assert report.tools[0].total == len(tokenizer.encoding.encode_ordinary(json.dumps(tool, separators=(",", ":"))))
    size = len(description)
    assert kept < 2.5 * size, f"the counter kept {kept / 2**20:.1f} MB for a {size / 2**20:.1f} MB text"
    assert peak < size, f"counting {size / 2**20:.1f} MB peaked at {peak / 2**20:.1f} MB"  # no copy of it at all
    again = BudgetCounter(tokenizer)  # the cached pieces give the same counts in the other shapes
    for shape in ("openai", "anthropic", "mcp"):
        assert counter.report([dict(tool)], shape).total == again.report([tool], shape).total


def long_tools() -> list[dict]:
    """Tools whose members hold strings past `STREAM_CHARS`: escapes, non-ASCII, a long schema, punctuation."""
    rng = random.Random(11)
    icon = "data:image/png;base64," + base64.b64encode(rng.randbytes(450_000)).decode()
    mixed = "".join(
        rng.choice(['a"b', "\\", "\n", "é", "\u202e", "\x01", "word ", "42, ", "\U0001f600"]) for _ in range(90_000)
    )
    schema = {"type": "object", "properties": {"blob": {"type": "string", "description": mixed, "default": "x"}}}
    return [
        {"name": "icon", "description": "An icon.", "inputSchema": {"type": "object"}, "icons": [{"src": icon}]},
        {"name": "mixed", "description": mixed, "inputSchema": schema, "_meta": {"n": [1, 2.5, None, True]}},
        {"name": "punct", "description": "!" * 300_000 + "end", "inputSchema": {"type": "object"}},
        {"name": "dash", "description": "short", "inputSchema": {"type": "object"}, "x-": ["?" * 300_000]},
        {"name": "ok", "description": "An ordinary tool.", "inputSchema": {"type": "object"}},
    ]


def test_a_very_long_member_is_counted_as_a_stream_exactly_and_never_written_whole() -> None:
    """A 20 MB icon's member was written whole twice over (the encoder's text, then the member) and cut
    a third time: 2.25x its size at once when the Budget tab counted it (issue 21 point 4: the app's peak).
    Streamed, every count is the same as writing the tool whole."""
    tokenizer = get_tokenizer("o200k_base")
    encode = tokenizer.encoding.encode_ordinary
    tools = long_tools()
    for shape in SHAPES:
        report = BudgetCounter(tokenizer).report(tools, shape)
        frame = LIST_FRAMES[shape]
        whole = frame.prefix + ",".join(shaped(t, shape) for t in tools) + frame.suffix
        assert report.total == len(encode(whole)), shape
        for tool, cost in zip(tools, report.tools, strict=True):
            assert cost.total == len(encode(shaped(tool, shape))), (shape, tool["name"])
            _, members, _ = shape_members(tool, shape)
            for part in ("description", "input_schema"):
                expected = sum(len(encode(f)) for p, _, f in members if p == part)
                assert cost.parts[part] == expected, (shape, tool["name"], part)
    icon = dict(tools[0], icons=[{"src": "data:image/png;base64," + "iVBORw0KGgo+/" * 400_000}])  # ~5 MB
    tracemalloc.start()
    try:
        BudgetCounter(tokenizer).report([icon], "mcp")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = len(icon["icons"][0]["src"])
    assert peak < size / 2, f"counting a {size / 2**20:.1f} MB icon peaked at {peak / 2**20:.1f} MB"


def shaped(tool: dict, shape: str) -> str:
    return json.dumps(shaped_tool(tool, shape), separators=(",", ":"), ensure_ascii=False)
