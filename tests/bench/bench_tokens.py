"""Token budget speed: ``python tests/bench/run.py tokens``.

A synthetic list of 1,000 tools (deterministic; names, titles, 15–80-word descriptions drawn from a
3,000-word vocabulary with some non-ASCII, 1–6 parameters with descriptions, enums and annotations):

* full count: a fresh `BudgetCounter` (tokenizer already loaded) reports the list in all three shapes,
  per-part breakdown and lints included. Target: under 1 s.
* incremental recount: one tool's description changes (an edited copy, as the description lab does)
  and the list is reported again. Target: under 20 ms.
* tokens/s against raw ``tiktoken`` ``encode_ordinary`` of the same whole text (already serialised):
  our tokenizer layer (`Tokenizer.count`) on that text — target within 1.5× —; then, without a target,
  a cold counter (empty caches) serialising the list and counting its exact total plus every tool's
  parts, and the full report (lints included). The breakdown encodes about the same amount of text
  as the whole, but in ~10 pieces per tool (so parts, tools and the list share them), and per-call
  overhead plus the Python around it make it ~3× raw; it stays well inside the 1 s budget.
* Claude reconstructed offline (ctok, pure Python), per family v3 / v4.7 / v4.8: tokens/s of
  `ClaudeTokenizer.count` on the same list in the Anthropic shape, beside raw tiktoken on that text;
  and a full Claude report (parts + lints) of the first `CLAUDE_REPORT_TOOLS` tools. No targets: the
  figures say what a Claude count costs next to an exact BPE count.
"""

from __future__ import annotations

import random
import time
from typing import Any

from common import Row, median, quick

from inspector.budget.breakdown import SHAPES, BudgetCounter
from inspector.budget.shapes import dumps, shaped_tool
from inspector.budget.tokenizers import get_tokenizer

FULL_TARGET_S = 1.0
INCREMENTAL_TARGET_MS = 20.0
THROUGHPUT_TARGET = 1.5
TOOLS = 1000
CLAUDE_MODELS = {"v3": "claude-sonnet-4-5", "v4.7": "claude-opus-4-7", "v4.8": "claude-opus-4-8"}
CLAUDE_REPORT_TOOLS = 100


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    consonants = "bcdfghjklmnprstvwz"
    vowels = "aeiouy"
    words = [
        "".join(rng.choice(consonants) + rng.choice(vowels) for _ in range(rng.randint(1, 4))) for _ in range(size)
    ]
    return words + ["données", "größe", "naïve", "→", "☀️", "日本", "the", "a", "of", "to", "and"] * 20


def sentence(rng: random.Random, words: list[str], low: int, high: int) -> str:
    return " ".join(rng.choice(words) for _ in range(rng.randint(low, high))).capitalize() + "."


def synthetic_tools(n: int = TOOLS, seed: int = 5) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    words = vocabulary(rng)
    tools = []
    for i in range(n):
        properties: dict[str, Any] = {}
        for j in range(rng.randint(1, 6)):
            prop: dict[str, Any] = {"type": rng.choice(["string", "integer", "boolean", "number"])}
            prop["description"] = sentence(rng, words, 4, 18)
            if prop["type"] == "string" and rng.random() < 0.3:
                prop["enum"] = [rng.choice(words) for _ in range(rng.randint(2, 5))]
            properties[f"{rng.choice(words)}_{j}"] = prop
        tool = {
            "name": f"{rng.choice(words)}_{i}",
            "title": sentence(rng, words, 2, 4).rstrip("."),
            "description": sentence(rng, words, 15, 80),
            "inputSchema": {"type": "object", "properties": properties, "required": list(properties)[:1]},
        }
        if rng.random() < 0.5:
            tool["annotations"] = {"readOnlyHint": rng.random() < 0.5, "openWorldHint": False}
        tools.append(tool)
    return tools


def run() -> list[Row]:
    tokenizer = get_tokenizer("o200k_base")
    encoding = tokenizer.encoding
    tools = synthetic_tools()
    rounds = 3 if quick() else 7

    full: list[float] = []
    for _ in range(rounds):
        counter = BudgetCounter(tokenizer)
        started = time.perf_counter()
        reports = [counter.report(tools, shape) for shape in SHAPES]
        full.append(time.perf_counter() - started)
    total_tokens = sum(r.total for r in reports)
    print(f"synthetic list: {TOOLS} tools, {', '.join(f'{r.shape} {r.total:,}' for r in reports)} tokens (o200k_base)")

    counter = BudgetCounter(tokenizer)
    counter.report(tools, "openai")
    edited = list(tools)
    incremental: list[float] = []
    for n in range(10 if quick() else 40):
        index = (n * 37) % len(edited)
        edited[index] = {**edited[index], "description": edited[index]["description"] + f" Edit {n}."}
        started = time.perf_counter()
        report = counter.report(edited, "openai")
        incremental.append(time.perf_counter() - started)
    whole = dumps([shaped_tool(t, "openai") for t in edited])
    assert report.total == len(encoding.encode_ordinary(whole)), "incremental total is not exact"

    text = dumps([shaped_tool(t, "openai") for t in tools])
    raw: list[float] = []
    layer: list[float] = []
    ours: list[float] = []
    reports_cold: list[float] = []
    for _ in range(rounds):
        started = time.perf_counter()
        expected = len(encoding.encode_ordinary(text))
        raw.append(time.perf_counter() - started)
        started = time.perf_counter()
        assert tokenizer.count(text) == expected
        layer.append(time.perf_counter() - started)
        cold = BudgetCounter(tokenizer)
        started = time.perf_counter()
        pieces = [cold.tool_cost(t, "openai")[1] for t in tools]
        counted = cold.list_total(pieces, "openai")
        ours.append(time.perf_counter() - started)
        assert counted == expected, (counted, expected)
        cold = BudgetCounter(tokenizer)
        started = time.perf_counter()
        cold.report(tools, "openai")
        reports_cold.append(time.perf_counter() - started)
    raw_rate = expected / median(raw)
    our_rate = expected / median(ours)
    report_rate = expected / median(reports_cold)
    # The machine is shared: compare each round's figures with the raw figure of the same round.
    layer_ratio = median([o / r for o, r in zip(layer, raw, strict=True)])
    ratio = median([o / r for o, r in zip(ours, raw, strict=True)])
    report_ratio = median([o / r for o, r in zip(reports_cold, raw, strict=True)])

    return [
        *_tiktoken_rows(full, total_tokens, incremental, expected, layer, raw_rate, layer_ratio),
        *_ratio_rows(our_rate, raw_rate, ratio, report_rate, report_ratio),
        *claude_rows(tools, encoding),
    ]


def claude_rows(tools: list[dict[str, Any]], encoding: Any) -> list[Row]:
    """ctok's throughput per family beside raw tiktoken on the same (Anthropic-shaped) text."""
    text = dumps([shaped_tool(t, "anthropic") for t in tools])
    started = time.perf_counter()
    raw_tokens = len(encoding.encode_ordinary(text))
    raw_rate = raw_tokens / (time.perf_counter() - started)
    rows = []
    for family, model in CLAUDE_MODELS.items():
        claude = get_tokenizer("claude", model=model)
        claude.count("warm up")
        seconds: list[float] = []
        for _ in range(1 if quick() else 3):
            started = time.perf_counter()
            tokens = claude.count(text)
            seconds.append(time.perf_counter() - started)
        rate = tokens / median(seconds)
        print(f"claude {family} ({model}): {tokens:,} tokens in {median(seconds):.2f} s; tiktoken o200k {raw_tokens:,}")
        rows.append(
            Row(
                f"tokens: Claude {family} (ctok) count, {TOOLS} tools as Anthropic (vs raw tiktoken)",
                rate / 1e6,
                "M tok/s",
                baseline=raw_rate / 1e6,
                ratio=raw_rate / rate,
            )
        )
    claude = get_tokenizer("claude")
    started = time.perf_counter()
    BudgetCounter(claude).report(tools[:CLAUDE_REPORT_TOOLS], "anthropic")
    rows.append(
        Row(
            f"tokens: Claude v4.8 full report incl. parts + lints, cold, {CLAUDE_REPORT_TOOLS} tools",
            time.perf_counter() - started,
            "s",
        )
    )
    return rows


def _tiktoken_rows(
    full: list[float],
    total_tokens: int,
    incremental: list[float],
    expected: int,
    layer: list[float],
    raw_rate: float,
    layer_ratio: float,
) -> list[Row]:
    return [
        Row(
            f"tokens: full count, {TOOLS} tools × 3 shapes ({total_tokens:,} tokens)",
            median(full),
            "s",
            target=f"< {FULL_TARGET_S:g} s",
            ok=median(full) < FULL_TARGET_S,
        ),
        Row(
            f"tokens: recount after one description edit ({TOOLS} tools)",
            median(incremental) * 1000,
            "ms",
            target=f"< {INCREMENTAL_TARGET_MS:g} ms",
            ok=median(incremental) * 1000 < INCREMENTAL_TARGET_MS,
        ),
        Row(
            "tokens: Tokenizer.count, same text (vs raw tiktoken)",
            expected / median(layer) / 1e6,
            "M tok/s",
            baseline=raw_rate / 1e6,
            ratio=layer_ratio,
            target=f"≤ {THROUGHPUT_TARGET:g}× raw",
            ok=layer_ratio <= THROUGHPUT_TARGET,
        ),
    ]


def _ratio_rows(our_rate: float, raw_rate: float, ratio: float, report_rate: float, report_ratio: float) -> list[Row]:
    return [
        Row(
            "tokens: list total + all parts, cold (vs raw)",
            our_rate / 1e6,
            "M tok/s",
            baseline=raw_rate / 1e6,
            ratio=ratio,
        ),
        Row(
            "tokens: full report incl. parts + lints, cold (vs raw)",
            report_rate / 1e6,
            "M tok/s",
            baseline=raw_rate / 1e6,
            ratio=report_ratio,
        ),
    ]
