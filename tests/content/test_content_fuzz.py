"""Nothing in inspector.content raises, whatever a server sends."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.content import preview, result_summary

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
block_types = st.sampled_from(["text", "image", "audio", "resource_link", "resource", "other", None, 1])
blocks = st.fixed_dictionaries(
    {"type": block_types},
    optional={
        "text": json_values,
        "data": st.text(alphabet="QUJD=+/ab\n-_", max_size=24) | json_values,
        "mimeType": st.sampled_from(["image/png", "audio/wav", "image/jpeg", ""]) | json_values,
        "uri": json_values,
        "name": json_values,
        "size": json_values,
        "resource": json_values
        | st.fixed_dictionaries({}, optional={"uri": json_values, "text": json_values, "blob": json_values}),
        "annotations": json_values
        | st.fixed_dictionaries({}, optional={"audience": json_values, "priority": json_values}),
    },
)


@settings(max_examples=300, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(blocks, json_values))
def test_preview_never_raises(block) -> None:
    spec = preview(block, "$.content[0]")
    assert spec.kind in {"text", "image", "audio", "resource_link", "resource", "unknown"}


@settings(max_examples=150, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "content": st.lists(st.one_of(blocks, json_values), max_size=4) | json_values,
            "isError": json_values,
            "structuredContent": json_values,
        },
    )
    | json_values,
    st.none() | st.fixed_dictionaries({"outputSchema": json_values | st.just({"type": "object"})}),
)
def test_result_summary_never_raises(result, tool) -> None:
    summary = result_summary(result, tool)
    assert isinstance(summary.raw_json, str)


def test_deeply_nested_json_text() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert preview({"type": "text", "text": deep}).kind == "text"
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    assert preview({"type": "x", "payload": nested}).kind == "unknown"
