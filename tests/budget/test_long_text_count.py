"""A huge string (a 20 MB `data:` icon in a tool list) is counted in pieces cut at safe boundaries: the same
count as encoding it whole, without holding its whole token list (issue 21: `mcp-lens tokens` took 1.2 GB)."""

from __future__ import annotations

import base64
import json
import random
import tracemalloc

from inspector.budget.segments import safe_pieces
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
