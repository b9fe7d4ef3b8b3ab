"""Two records lined up by request (`diff_records(a, b)`): each request of A with the matching request
of B (the matcher's rules: same method and params once the volatile fields are gone, in order), what
each answered, where the answers differ, the latency of each; the requests only one of them made; the
tool lists' differences (the Budget's list diff, `budget/snapshot.diff_tools`) and the capabilities'."""

from __future__ import annotations

import json
import re
from array import array
from dataclasses import dataclass, field
from typing import Any

from inspector.core.era import LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY, SERVER_INFO_META_KEY
from inspector.replay.compare import ABSENT, DIFFERENT, Change, compare, json_diff
from inspector.replay.matcher import Matcher
from inspector.replay.mock import request_matcher
from inspector.replay.record import Replay
from inspector.replay.volatile import HANDSHAKES, Volatile, normalise, request_key

TOKENIZER = "o200k_base"  # as `mcp-lens tokens` and a collection's budget step
# The 2026-07-28 era's own envelope, set aside when the two records are of different eras (the same
# server recorded by a client of each): what a legacy request or answer cannot hold.
ERA_ENVELOPE: tuple[Volatile, ...] = (
    Volatile(("params", "_meta", PROTOCOL_VERSION_META_KEY), "a 2026-07-28 request names its version"),
    Volatile(("params", "_meta", LOG_LEVEL_META_KEY), "a 2026-07-28 request carries the log level"),
    Volatile(("result", "_meta", SERVER_INFO_META_KEY), "a 2026-07-28 answer names its server"),
    Volatile(("result", "resultType"), "a 2026-07-28 answer says whether it is complete"),
    Volatile(("result", "ttlMs"), "a 2026-07-28 list answer's caching hint"),
    Volatile(("result", "cacheScope"), "a 2026-07-28 list answer's caching hint"),
)


@dataclass
class Pair:
    """Request `number` of A (1-based; 0: a request only B made) beside its match in B."""

    number: int
    method: str
    params: Any
    a: Any  # A's answer (None: no answer, or A never asked)
    b: Any
    verdict: str  # compare's verdict, or "only in A" / "only in B"
    changes: list[Change] = field(default_factory=list)
    a_ms: float | None = None
    b_ms: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "method": self.method,
            "params": self.params,
            "verdict": self.verdict,
            "changes": [change.to_json() for change in self.changes],
            "a_latency_ms": self.a_ms,
            "b_latency_ms": self.b_ms,
        }


@dataclass
class RecordDiff:
    a: str
    b: str
    pairs: list[Pair] = field(default_factory=list)
    tools: Any = None  # a `SnapshotDiff`, or None when neither listed tools
    capabilities: list[Change] = field(default_factory=list)
    a_era: str | None = None  # the protocol version of each record's handshake
    b_era: str | None = None

    @property
    def same(self) -> bool:
        changed_tools = self.tools is not None and not self.tools.unchanged
        return (
            not changed_tools and not self.capabilities and all(p.verdict in ("identical", "equal") for p in self.pairs)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "a_era": self.a_era,
            "b_era": self.b_era,
            "same": self.same,
            "requests": [pair.to_json() for pair in self.pairs],
            "tools": None if self.tools is None else self.tools.to_json(),
            "capabilities": [change.to_json() for change in self.capabilities],
        }


ONLY_A, ONLY_B = "only in A", "only in B"


def diff_records(a: Replay, b: Replay) -> RecordDiff:
    """Line `a` and `b` up by request and compare them (both stay open; the caller closes them). Records of
    two eras are lined up and compared with the 2026-07-28 envelope set aside (`ERA_ENVELOPE`)."""
    out = RecordDiff(a.path, b.path, a_era=a.era, b_era=b.era)
    aside = ERA_ENVELOPE if a.era != b.era else ()
    matcher = _envelope_free_matcher(b) if aside else request_matcher(b)
    used: set[int] = set()
    for n in range(len(a)):
        asked = a.request(n).value
        method = str(asked.get("method"))
        params = normalise({"params": asked.get("params")}, method, aside).get("params")
        answer_a, ms_a = _answer(a, n)
        m = matcher.match(normalise(asked, method, aside) if aside else asked)
        if m is None or m in used:
            out.pairs.append(Pair(n + 1, method, params, answer_a, None, ONLY_A, a_ms=ms_a))
            continue
        used.add(m)
        answer_b, ms_b = _answer(b, m)
        verdict, changes = compare(answer_a, answer_b, method, aside)
        if answer_a is None and answer_b is None:
            verdict = "identical"
        out.pairs.append(Pair(n + 1, method, params, answer_a, answer_b, verdict, changes, ms_a, ms_b))
    for m in range(len(b)):
        if m not in used:
            asked = b.request(m).value
            method = str(asked.get("method"))
            params = normalise({"params": asked.get("params")}, method, aside).get("params")
            answer_b, ms_b = _answer(b, m)
            out.pairs.append(Pair(0, method, params, None, answer_b, ONLY_B, b_ms=ms_b))
    tools_a, tools_b = _tools(a), _tools(b)
    if tools_a is not None or tools_b is not None:
        from inspector.budget.breakdown import BudgetCounter
        from inspector.budget.snapshot import diff_tools
        from inspector.budget.tokenizers import get_tokenizer

        out.tools = diff_tools(tools_a or [], tools_b or [], BudgetCounter(get_tokenizer(TOKENIZER)))
    out.capabilities = json_diff(_capabilities(a), _capabilities(b), "$.capabilities")
    return out


def _envelope_free_matcher(replay: Replay) -> Matcher:
    """`request_matcher(replay)` with each request's key taken without the era's envelope."""
    keys = array("q")
    for n in range(len(replay)):
        asked = replay.request(n).value
        keys.append(request_key(normalise(asked, asked.get("method"), ERA_ENVELOPE)))
    return Matcher(keys, lambda n: replay.request(n).value, replay.method)


def _answer(replay: Replay, n: int) -> tuple[Any, float | None]:
    answer = replay.response(n)
    if answer is None:
        return None, None
    return answer.value, (answer.mono - replay.request(n).mono) * 1000


def _tools(replay: Replay) -> list[dict[str, Any]] | None:
    """Every tool the record's tools/list answers named (each page; a later answer's tool wins)."""
    tools: dict[str, dict[str, Any]] = {}
    seen = False
    for n in range(len(replay)):
        if replay.method(n) != "tools/list":
            continue
        answer = replay.response(n)
        result = answer.value.get("result") if answer is not None and isinstance(answer.value, dict) else None
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            seen = True
            for tool in result["tools"]:
                if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                    tools[tool["name"]] = tool
    return list(tools.values()) if seen else None


def _capabilities(replay: Replay) -> Any:
    for n in range(len(replay)):
        if replay.method(n) in HANDSHAKES:
            answer = replay.response(n)
            result = answer.value.get("result") if answer is not None and isinstance(answer.value, dict) else None
            if isinstance(result, dict) and "capabilities" in result:
                return result["capabilities"]
    return ABSENT


# -- writing ---------------------------------------------------------------------------------------
SHOWN = 200


def _show(value: Any) -> str:
    if value is ABSENT:
        return "(absent)"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _era(era: str | None) -> str:
    return f" ({era})" if era else ""


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f} ms"


def _asked(pair: Pair) -> str:
    params = pair.params
    if isinstance(params, dict):
        params = {key: value for key, value in params.items() if key != "_meta"}
    return pair.method if params in (None, {}) else f"{pair.method} {_show(params)}"


def _tool_lines(diff: RecordDiff) -> list[str]:
    if diff.tools is None:
        return []
    tools = diff.tools
    lines = [f"tools/list: {tools.old_total:,} → {tools.new_total:,} tokens ({TOKENIZER})"]
    lines += [f"  + {c.name}" for c in tools.added]
    lines += [f"  - {c.name}" for c in tools.removed]
    for change in tools.changed:
        lines.append(f"  ~ {change.name}: " + "; ".join([*change.changes, *change.breaking]))
    return lines


def to_text(diff: RecordDiff) -> str:
    lines = [f"A: {diff.a}{_era(diff.a_era)}", f"B: {diff.b}{_era(diff.b_era)}"]
    for pair in diff.pairs:
        number = f"{pair.number:>4}" if pair.number else "   -"
        lines.append(f"{number} {_asked(pair)}: {pair.verdict} (A {_ms(pair.a_ms)}, B {_ms(pair.b_ms)})")
        lines += [f"    {c.path}: {_show(c.recorded)} → {_show(c.new)}" for c in pair.changes]
    lines += _tool_lines(diff)
    lines += [f"{c.path}: {_show(c.recorded)} → {_show(c.new)}" for c in diff.capabilities]
    different = sum(1 for p in diff.pairs if p.verdict not in ("identical", "equal"))
    lines.append("the same" if diff.same else f"{different} of {len(diff.pairs)} requests differ")
    return "\n".join(lines) + "\n"


def to_json(diff: RecordDiff) -> str:
    return json.dumps(diff.to_json(), indent=2, ensure_ascii=False, default=str) + "\n"


def _cell(text: str, table: bool = False) -> str:
    """`text` as a code span on one line, fenced by more backticks than it holds in a row (a recorded
    backtick never ends the span: no Markdown or HTML in it); in a `table` cell its pipes escaped (GitHub
    splits the row before it reads the span, and shows an escaped pipe as a pipe)."""
    text = text.replace("\r", " ").replace("\n", " ")
    if table:
        text = text.replace("|", "\\|")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip(" ") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _block_fence(lines: list[str]) -> str:
    """A code block's fence longer than any backtick run in `lines`."""
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    return "`" * max(3, longest + 1)


def to_markdown(diff: RecordDiff) -> str:
    lines = [
        f"**A** {_cell(diff.a)}{_era(diff.a_era)} · **B** {_cell(diff.b)}{_era(diff.b_era)}",
        "",
        "| # | request | verdict | A | B |",
        "| --- | --- | --- | --- | --- |",
    ]
    for pair in diff.pairs:
        asked = _cell(_asked(pair), table=True)
        lines.append(f"| {pair.number or '-'} | {asked} | {pair.verdict} | {_ms(pair.a_ms)} | {_ms(pair.b_ms)} |")
    changed = [p for p in diff.pairs if p.verdict == DIFFERENT]
    for pair in changed:
        lines += ["", f"### {pair.number} {_cell(pair.method)}", ""]
        lines += [f"- {_cell(c.path)}: {_cell(_show(c.recorded))} → {_cell(_show(c.new))}" for c in pair.changes]
    if tool_lines := _tool_lines(diff):
        fence = _block_fence(tool_lines)
        lines += ["", fence, *tool_lines, fence]
    if diff.capabilities:
        lines += ["", "Capabilities:", ""]
        lines += [f"- {_cell(c.path)}: {_cell(_show(c.recorded))} → {_cell(_show(c.new))}" for c in diff.capabilities]
    return "\n".join(lines) + "\n"


RENDERERS = {"text": to_text, "json": to_json, "markdown": to_markdown}
