"""traffic/sliced_json: the same values and errors as json.loads, with strings parsed a slice at a time."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.traffic import sliced_json

ESCAPY = st.text(alphabet=st.sampled_from(list('ab"\\/\n\t\x01é€😀\ud800\udc00<>')), max_size=200)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | ESCAPY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ESCAPY, inner, max_size=4),
    max_leaves=12,
)


def _no_fallback(monkeypatch):
    """Well-formed JSON is walked by sliced_json itself, never handed to json.loads whole."""

    def refuse(raw, *args, **kwargs):
        raise AssertionError("handed to json.loads")

    monkeypatch.setattr(sliced_json.json, "loads", refuse)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.integers(min_value=13, max_value=40), st.booleans())
def test_any_value_parses_as_json_loads_does(value, size, ascii_only):
    raw = json.dumps(value, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    expected = json.loads(raw)
    with pytest.MonkeyPatch.context() as patch:
        _no_fallback(patch)
        assert sliced_json.loads(raw, slice_bytes=size) == expected


@pytest.mark.parametrize("size", [13, 14, 15, 16, 17, 18, 19, 64])
def test_escapes_and_surrogate_pairs_cut_at_every_place(size, monkeypatch):
    text = 'x\\"y\\\\z\\u00e9\\ud83d\\ude00\\né€😀\\n' * 5 + "tail"
    raw = ('{"jsonrpc": "2.0", "id": 1, "result": {"text": "' + text + '"}}').encode()
    expected = json.loads(raw)
    _no_fallback(monkeypatch)
    assert sliced_json.loads(raw, slice_bytes=size) == expected
    assert "😀" in sliced_json.loads(raw, slice_bytes=size)["result"]["text"]


def test_a_big_result_parses_in_slices_and_whole(monkeypatch):
    text = json.dumps([{"id": n, "name": f"row {n}", "n": n / 3} for n in range(20_000)])
    raw = json.dumps({"jsonrpc": "2.0", "id": 7, "result": {"content": [{"type": "text", "text": text}]}}).encode()
    expected = json.loads(raw)
    _no_fallback(monkeypatch)
    assert sliced_json.loads(raw, slice_bytes=4096) == expected


@pytest.mark.parametrize(
    "raw", [b'{"a": "unterminated', b'{"a": "bad \\x escape"}', b'{"a": "ctl \x01"}', b"[1, 2", b'{"a" 1}', b"\xff"]
)
def test_broken_input_raises_what_json_loads_raises(raw):
    with pytest.raises(Exception) as expected:
        json.loads(raw)
    with pytest.raises(type(expected.value)) as got:
        sliced_json.loads(raw, slice_bytes=3)
    assert str(got.value) == str(expected.value)
