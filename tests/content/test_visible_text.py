"""Untrusted text made visible: what a terminal or Qt would obey is written as an escape (issue 21)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.content.visible import has_invisible, json_visible, terminal_safe, visible

HIDDEN = [
    "\x00",
    "\x07",
    "\x1b",
    "\x7f",
    "\x9b",
    "\u00ad",
    "\u061c",
    "\u200b",
    "\u200e",
    "\u2028",
    "\u202a",
    "\u202e",
    "\u2066",
    "\u2069",
    "\ufeff",
    "\ud800",
    "\U000e0041",
]


def test_a_spoofed_name_reads_as_sent() -> None:
    assert visible("rtl\u202eloot") == "rtl\\u202eloot"


def test_terminal_escapes_and_nul_are_shown() -> None:
    osc8 = "\x1b]8;;https://evil.example\x07link\x1b]8;;\x07"
    assert visible(f"\x1b[2J{osc8}\x00") == "\\x1b[2J\\x1b]8;;https://evil.example\\x07link\\x1b]8;;\\x07\\x00"


@pytest.mark.parametrize("char", HIDDEN)
def test_every_hidden_character_is_escaped(char: str) -> None:
    shown = visible(f"a{char}b")
    assert char not in shown and shown.startswith("a\\") and shown.endswith("b")
    assert has_invisible(char) and not has_invisible(shown)


def test_newlines_tabs_and_crlf_are_kept_a_lone_cr_is_not() -> None:
    assert visible("a\n\tb\r\nc") == "a\n\tb\r\nc"
    assert visible("over\rwrite") == "over\\rwrite"
    assert visible("a\n\tb\r\nc", one_line=True) == "a\\n\\tb\\r\\nc"


def test_ordinary_text_is_the_same_object() -> None:
    text = "Grüße, 日本語, emoji 🙂, <b>markup</b> is not our business here"
    assert visible(text) is text


@given(st.dictionaries(st.text(), st.text() | st.integers() | st.lists(st.text())))
def test_json_stays_valid_and_means_the_same(value: dict) -> None:
    dumped = json_visible(value, indent=2)
    assert json.loads(dumped) == value
    assert not has_invisible(dumped.replace("\r", ""))


@given(st.text())
def test_terminal_safe_leaves_nothing_a_terminal_obeys(text: str) -> None:
    assert not has_invisible(terminal_safe(text))
    assert json.loads(terminal_safe(json.dumps(text, ensure_ascii=False))) == text


# Unicode 15.1's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), plus the braille blank: each renders
# as nothing (or a blank), so two names that differ only by one read the same.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def test_every_default_ignorable_character_is_shown_as_an_escape_after_a_letter() -> None:
    for low, high in DEFAULT_IGNORABLE + VARIATION_SELECTORS:
        for code in range(low, high + 1):
            name = f"ev{chr(code)}il"
            for shown in (visible(name), visible(name, one_line=True)):
                assert shown != name and chr(code) not in shown, hex(code)
            assert chr(code) not in terminal_safe(name), hex(code)
            assert json.loads(f'"{terminal_safe(name)}"') == name


def test_an_emoji_keeps_its_presentation_selector() -> None:
    """A variation selector after a symbol (❤️, ☀️) is how emoji are written, not a look-alike name."""
    for text in ("❤\ufe0f ok", "☀\ufe0f", "a ✔\ufe0e b"):
        assert visible(text) == text
        assert terminal_safe(text) == text
