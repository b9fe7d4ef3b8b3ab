"""Long lines in pieces for a text view: bounded, marked, and the text as sent once the marks are taken out."""

from __future__ import annotations

import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from inspector.content.long_lines import MARK, PIECE_CHARS, in_pieces, longest_line


def test_a_megabyte_on_one_line_becomes_bounded_pieces() -> None:
    text = "A" * 1_048_576
    shown = in_pieces(text)
    assert longest_line(shown) <= PIECE_CHARS + len(MARK)
    assert shown.count("\n") == 524 and shown.replace(MARK + "\n", "") == text


def test_short_lines_are_left_alone() -> None:
    text = "one line\n" + "word " * 300 + "\nthree"
    assert in_pieces(text) is text


def test_a_piece_ends_after_a_space_when_one_is_near() -> None:
    shown = in_pieces("aaaa bbbb cccc", limit=6)
    assert shown.split("\n") == ["aaaa " + MARK, "bbbb " + MARK, "cccc"]


@given(st.text(alphabet="ab \n", max_size=400), st.integers(min_value=1, max_value=50))
def test_pieces_are_bounded_and_give_back_the_text(text: str, limit: int) -> None:
    shown = in_pieces(text, limit)
    assert longest_line(shown) <= limit + len(MARK)
    if MARK not in text:
        assert shown.replace(MARK + "\n", "") == text


@given(st.text(alphabet="ab \n", max_size=300), st.integers(min_value=1, max_value=40))
def test_the_longest_line_is_found_in_any_window(text: str, window: int) -> None:
    assert longest_line(text, window=window) == max(len(line) for line in text.split("\n"))


def test_the_longest_line_of_a_megabyte_is_found_without_a_copy_of_it() -> None:
    """`longest_line` split the whole text into lines (a copy of a 1 MB description, twice per Show full
    description: issue 21 point 4); it reads a window at a time."""
    text = ("The quick brown fox jumps over the lazy dog. " * 25 + "\n") * 900 + "x" * 3_000
    short = text[:-3_001]
    tracemalloc.start()
    try:
        longest = longest_line(text)
        assert in_pieces(short) is short  # no line over the limit: the text itself, no copy
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert longest == 3_000
    assert peak < len(text) / 5, f"{len(text) / 2**20:.1f} MB of text took {peak / 2**20:.1f} MB"
