"""Per-tool and whole-list counts on real servers' lists: exact totals, bounded additivity, fast recounts."""

from __future__ import annotations

import copy
import time
from typing import Any

import factories
import pytest

from inspector.budget.breakdown import (
    ANTHROPIC_TOOL_SYSTEM_PROMPT,
    CONTEXT_WINDOWS,
    PART_TOLERANCE_BASE,
    PART_TOLERANCE_PER_MEMBER,
    PARTS,
    SHAPES,
    BudgetCounter,
    parse_window,
)
from inspector.budget.shapes import LIST_FRAMES, dumps, shaped_tool
from inspector.budget.tokenizers import get_tokenizer

TOKENIZERS = ["o200k_base", "cl100k_base", "chars4"]


def whole_text(tools: list[dict[str, Any]], shape: str) -> str:
    """The list serialised in one go, independently of the counter's pieces."""
    if shape == "mcp":
        return dumps({"tools": tools})
    return dumps([shaped_tool(t, shape) for t in tools])


@pytest.fixture(params=["demo", "everything"])
def server_tools(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    return request.getfixturevalue(f"{request.param}_tools")


@pytest.mark.parametrize("name", TOKENIZERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_total_is_the_whole_serialised_list(server_tools: list[dict[str, Any]], name: str, shape: str) -> None:
    tokenizer = get_tokenizer(name)
    report = BudgetCounter(tokenizer).report(server_tools, shape)
    assert report.total == tokenizer.count(whole_text(server_tools, shape))
    assert [t.name for t in report.tools] == [t["name"] for t in server_tools]
    for cost, tool in zip(report.tools, server_tools, strict=True):
        single = whole_text([tool], shape)
        frame = LIST_FRAMES[shape]
        assert cost.total == tokenizer.count(single[len(frame.prefix) : len(single) - len(frame.suffix)])


@pytest.mark.parametrize("name", TOKENIZERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_parts_add_up_within_the_stated_tolerance(server_tools: list[dict[str, Any]], name: str, shape: str) -> None:
    counter = BudgetCounter(get_tokenizer(name))
    report = counter.report(server_tools, shape)
    for cost, tool in zip(report.tools, server_tools, strict=True):
        additive, members = counter.member_sum(tool, shape)
        assert abs(cost.total - additive) <= PART_TOLERANCE_BASE + PART_TOLERANCE_PER_MEMBER * members, cost.name
        assert cost.description_tokens + cost.schema_tokens + cost.rest_tokens == cost.total
        assert cost.parts["property_descriptions"] <= cost.parts["input_schema"]
        assert set(cost.parts) == set(PARTS)
    frame = LIST_FRAMES[shape]
    frame_tokens = counter.count(frame.prefix) + counter.count(frame.suffix)
    gap = report.total - sum(t.total for t in report.tools) - frame_tokens
    assert abs(gap) <= 1 + len(report.tools)


def test_parts_are_what_each_shape_sends(demo_tools: list[dict[str, Any]]) -> None:
    counter = BudgetCounter(get_tokenizer("o200k_base"))
    mcp = counter.report(demo_tools, "mcp")
    openai = counter.report(demo_tools, "openai")
    by_name = {t["name"]: t for t in demo_tools}
    image = next(t for t in mcp.tools if t.name == "generate_image")
    assert image.parts["title"] > 0 and image.parts["annotations"] > 0
    assert "icons" in by_name["generate_image"] and image.rest_tokens > image.parts["name"] + image.parts["title"]
    for cost in openai.tools:  # titles, annotations, output schemas and icons are not sent to the model
        assert cost.parts["title"] == cost.parts["annotations"] == cost.parts["output_schema"] == 0
    meeting = next(t for t in mcp.tools if t.name == "schedule_meeting")
    assert meeting.parts["property_descriptions"] > 0
    assert counter.report(demo_tools, "anthropic").overhead == ANTHROPIC_TOOL_SYSTEM_PROMPT
    assert mcp.overhead == openai.overhead == 0


def test_report_notes_say_what_is_estimated(demo_tools: list[dict[str, Any]]) -> None:
    exact = BudgetCounter(get_tokenizer("o200k_base"))
    assert "estimate" in exact.report(demo_tools, "anthropic").note  # Claude counted with an OpenAI encoder
    assert "estimate" not in exact.report(demo_tools, "openai").note
    rough = BudgetCounter(get_tokenizer("chars4")).report(demo_tools, "openai")
    assert not rough.exact and "estimate" in rough.note


def test_share_and_windows() -> None:
    report = BudgetCounter(get_tokenizer("o200k_base")).report([factories.tool("a", None)], "anthropic")
    assert report.share(200_000) == pytest.approx((report.total + ANTHROPIC_TOOL_SYSTEM_PROMPT) / 200_000)
    assert parse_window("200K") == CONTEXT_WINDOWS["200K"] == 200_000
    assert parse_window("1m") == 1_000_000
    assert parse_window("32k") == 32_000 and parse_window("50000") == 50_000
    for bad in ("abc", "0", "-5"):
        with pytest.raises(ValueError, match="context window"):
            parse_window(bad)


def test_bad_entries_do_not_crash() -> None:
    counter = BudgetCounter(get_tokenizer("o200k_base"))
    tools: list[Any] = [
        "not a tool",
        {"name": 42, "description": None},
        {"inputSchema": "oops"},
        factories.tool("ok", None, {"type": "object", "properties": {"x": {"description": {"nested": 1}}}}),
    ]
    for shape in SHAPES:
        report = counter.report(tools, shape)
        assert len(report.tools) == 3 and report.total > 0
    with pytest.raises(KeyError, match="unknown shape"):
        counter.report([], "gemini")
    assert counter.report([], "mcp").total == get_tokenizer("o200k_base").count('{"tools":[]}')


@pytest.mark.parametrize("shape", SHAPES)
def test_recount_after_an_edit_is_exact(everything_tools: list[dict[str, Any]], shape: str) -> None:
    tokenizer = get_tokenizer("o200k_base")
    counter = BudgetCounter(tokenizer)
    counter.report(everything_tools, shape)
    edited = list(everything_tools)
    edited[3] = copy.deepcopy(edited[3])
    edited[3]["description"] = "Completely rewritten — now with emoji 🎉 and ünïcode."
    edited[5] = copy.deepcopy(edited[5])
    props = edited[5]["inputSchema"].setdefault("properties", {})
    props["added"] = {"type": "string", "description": "a new parameter"}
    again = counter.report(edited, shape)
    fresh = BudgetCounter(tokenizer).report(edited, shape)
    assert again.total == fresh.total == tokenizer.count(whole_text(edited, shape))
    assert [t.total for t in again.tools] == [t.total for t in fresh.tools]


def test_top_level_replacement_in_place_is_noticed(demo_tools: list[dict[str, Any]]) -> None:
    tools = copy.deepcopy(demo_tools)
    counter = BudgetCounter(get_tokenizer("o200k_base"))
    before = counter.report(tools).tools[0].total
    tools[0]["description"] = tools[0].get("description", "") + " and a much longer tail of words to count"
    after = counter.report(tools).tools[0].total
    assert after > before


def test_incremental_recount_of_1000_tools_is_fast() -> None:
    tools = [
        factories.tool(
            f"tool_{i}",
            f"Tool number {i} reads record {i * 7} from table t{i % 13} and returns its fields.",
            {
                "type": "object",
                "properties": {"id": {"type": "integer", "description": f"the id of record {i}"}},
                "required": ["id"],
            },
        )
        for i in range(1000)
    ]
    real = get_tokenizer("o200k_base")
    encoded: list[int] = []  # characters handed to the tokenizer, per call

    class Counting:
        """The real tokenizer, counting what it is asked to encode."""

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def count(self, text: str) -> int:
            encoded.append(len(text))
            return real.count(text)

    counter = BudgetCounter(Counting())  # type: ignore[arg-type]
    counter.report(tools, "openai")
    best = float("inf")
    for n in range(5):
        tools[500] = {**tools[500], "description": tools[500]["description"] + f" edit {n}"}
        encoded.clear()
        started = time.perf_counter()
        report = counter.report(tools, "openai")
        best = min(best, time.perf_counter() - started)
    assert report.total == real.count(whole_text(tools, "openai"))
    # What keeps it fast (the benchmark times it): one edited tool re-encodes about that tool, not the list.
    assert sum(encoded) < len(whole_text(tools, "openai")) // 50, (sum(encoded), len(encoded))
    print(f"incremental recount of 1,000 tools: {best * 1000:.1f} ms")


def test_one_counter_used_from_two_threads(everything_tools: list[dict[str, Any]]) -> None:
    """The pane counts on a worker thread while the description lab counts on the UI thread."""
    import threading

    tokenizer = get_tokenizer("o200k_base")
    counter = BudgetCounter(tokenizer)
    expected = {shape: BudgetCounter(tokenizer).report(everything_tools, shape).total for shape in SHAPES}
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            for n in range(30):
                edited = list(everything_tools)
                edited[n % len(edited)] = {**edited[n % len(edited)], "description": f"edit {seed} {n}"}
                counter.report(edited, SHAPES[n % 3])
                shape = SHAPES[(n + seed) % 3]
                assert counter.report(everything_tools, shape).total == expected[shape]
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_one_counter_for_every_shape_equals_fresh_counters(server_tools: list[dict[str, Any]]) -> None:
    """Pieces are shared between shapes (the same schema under three key names); results must not mix."""
    tokenizer = get_tokenizer("cl100k_base")
    shared = BudgetCounter(tokenizer)
    for _ in range(2):
        for shape in SHAPES:
            mine = shared.report(server_tools, shape)
            fresh = BudgetCounter(tokenizer).report(server_tools, shape)
            assert mine.total == fresh.total
            assert [t.to_json() for t in mine.tools] == [t.to_json() for t in fresh.tools]
