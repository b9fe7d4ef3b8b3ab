"""What a tool list costs: per tool, per part, and the whole list as a host sends it.

Per-part counts are the tokens of each ``"key":value`` member on its own. They do not add up exactly to a
tool's total, and the tools' totals do not add up exactly to the list's total, because of the JSON
punctuation between the pieces (braces, commas, the list's brackets) and because BPE merges punctuation
across the joins (``"},{"`` is often one token, counted once in the whole but split among the pieces).
The gap is small and bounded (`PART_TOLERANCE_BASE`, `PART_TOLERANCE_PER_MEMBER`); tests/budget checks
the bound on the demo server's and server-everything's lists with every tokenizer and shape.

The totals themselves are exact for the tiktoken encoders: they are summed from pieces cut at safe
boundaries (see segments.py), so recounting after one description changes encodes only the changed piece.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any

from inspector.budget.lints import LintMemo
from inspector.budget.long_members import Counted, LongMember, json_chunks, member_or_long, stream_count
from inspector.budget.memo import IdentityMemo
from inspector.budget.segments import Split, cut_member, is_safe_boundary, split_safe
from inspector.budget.shapes import LIST_FRAMES, SHAPES, dumps, member, property_descriptions, shape_members
from inspector.budget.tokenizers import Tokenizer, describe_figure, figure_of

if TYPE_CHECKING:
    from inspector.budget.lints import Lint, LintOptions

__all__ = [
    "CONTEXT_WINDOWS",
    "PARTS",
    "SHAPES",
    "BudgetCounter",
    "BudgetReport",
    "ToolCost",
    "parse_window",
    "provider_overhead",
]

PARTS = ("name", "title", "description", "input_schema", "property_descriptions", "output_schema", "annotations")
CONTEXT_WINDOWS = {"128K": 128_000, "200K": 200_000, "1M": 1_000_000}

# Additivity, per tool: |total − Σ member counts − frame| ≤ PART_TOLERANCE_BASE + PART_TOLERANCE_PER_MEMBER × members,
# where the members are the tool's ``"key":value`` pieces (the PARTS except property_descriptions, which
# lies inside input_schema, plus keys such as _meta or icons) and the frame is the tool's own braces and,
# for OpenAI, the ``{"type":"function","function":{`` wrapper. Each comma join can lose about one token
# to a merge with the punctuation around it. Per list: |total − Σ tool totals − list frame| ≤ 1 + tools.
# Measured on the demo server and server-everything (tests/budget/test_breakdown.py): at most members + 1.
PART_TOLERANCE_BASE = 1
PART_TOLERANCE_PER_MEMBER = 1

# Anthropic adds a tool-use system prompt whenever ``tools`` is set: 346 tokens with tool_choice
# auto/none on the Claude 4 family (Opus 4.x, Sonnet 4.x, Haiku 4.5); 313 with any/tool.
# Source: https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview (section "Pricing",
# table "Tool use system prompt token count"), also quoted at
# https://claudecodeguides.com/claude-tool-definitions-346-tokens-per-call/
ANTHROPIC_TOOL_SYSTEM_PROMPT = 346
# OpenAI documents no fixed overhead for function tools (they are rendered into the system message in an
# undocumented format); we add 0 and say so. The MCP shape is a protocol message, not a model prompt: 0.
OVERHEADS = {"mcp": 0, "openai": 0, "anthropic": ANTHROPIC_TOOL_SYSTEM_PROMPT}
OVERHEAD_NOTES = {
    "mcp": "tools/list as sent on the wire; no model prompt overhead",
    "openai": "OpenAI documents no fixed tool overhead; none added",
    "anthropic": f"+{ANTHROPIC_TOOL_SYSTEM_PROMPT} tokens: Anthropic's documented tool-use system prompt "
    "(Claude 4 family, tool_choice auto/none)",
}


def provider_overhead(shape: str) -> int:
    return OVERHEADS.get(shape, 0)


def parse_window(text: str | int) -> int:
    """``128K`` / ``200K`` / ``1M`` / ``32000`` / ``32k`` → tokens. Raises ValueError with a clear message."""
    if isinstance(text, int):
        value = text
    else:
        raw = str(text).strip()
        if raw.upper() in CONTEXT_WINDOWS:
            return CONTEXT_WINDOWS[raw.upper()]
        scale = 1
        if raw[-1:].lower() == "k":
            scale, raw = 1_000, raw[:-1]
        elif raw[-1:].lower() == "m":
            scale, raw = 1_000_000, raw[:-1]
        try:
            value = round(float(raw.replace("_", "")) * scale)
        except ValueError:
            raise ValueError(f"context window {text!r} is not a number (use 128K, 200K, 1M or a token count)") from None
    if value <= 0:
        raise ValueError(f"context window must be positive, got {text!r}")
    return value


@dataclass
class ToolCost:
    name: str
    total: int
    parts: dict[str, int]
    description_tokens: int
    schema_tokens: int
    rest_tokens: int
    members: int = 0  # ``"key":value`` members serialised (for the additivity tolerance)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "parts": dict(self.parts),
            "description_tokens": self.description_tokens,
            "schema_tokens": self.schema_tokens,
            "rest_tokens": self.rest_tokens,
        }


@dataclass(frozen=True)
class Cut:
    """One member: its pieces (None when it has no safe boundary) and the property descriptions inside it."""

    pieces: tuple[str, list[str], str] | None
    inner: list[str]


@dataclass(frozen=True)
class Pieces:
    """One serialised tool cut at safe boundaries: ``first`` (None when it has none) and ``last`` are open
    at the tool's edges, ``inner`` is the count of everything between; ``text`` is the whole tool (empty
    for a segmentable tokenizer, which never needs it)."""

    first: str | None
    inner: int
    last: str
    text: str


@dataclass
class BudgetReport:
    tokenizer: str
    exact: bool
    shape: str
    tools: list[ToolCost]
    total: int
    overhead: int
    lints: list[Lint] = field(default_factory=list)
    tokenizer_label: str = ""
    note: str = ""  # how far to trust the figure (e.g. Claude counted with an OpenAI encoder is an estimate)
    figure: str = ""  # what the figure is: a key of tokenizers.FIGURES ("exact", "reconstructed", …)

    def share(self, window: int) -> float:
        return (self.total + self.overhead) / window if window > 0 else math.inf

    @property
    def grand_total(self) -> int:
        return self.total + self.overhead

    def to_json(self) -> dict[str, Any]:
        return {
            "tokenizer": self.tokenizer,
            "tokenizer_label": self.tokenizer_label,
            "exact": describe_figure(self)[0],  # exact for this shape's model family (never o200k for Claude)
            "figure": self.figure,
            "shape": self.shape,
            "total": self.total,
            "overhead": self.overhead,
            "grand_total": self.grand_total,
            "note": self.note,
            "tools": [t.to_json() for t in self.tools],
            "lints": [lint.to_json() for lint in self.lints],
        }


class BudgetCounter:
    """Counts tool lists with one tokenizer, caching the count of every string it has seen.

    Strings are cache keys (Python hashes a str by content once and keeps the hash), so an unchanged
    member, tool middle or property description is never encoded twice. The cache is bounded.
    """

    MAX_CACHE = 500_000
    # Strings longer than this are not kept as cache keys: a 20 MB icon held as a count's key, a split's,
    # a cut's and a tool's text was five copies of it. An unchanged tool is still never recounted (the
    # tool memo keeps its cost by identity), and counting such a string is done in pieces anyway.
    HUGE = 1_000_000
    # A member longer than this is not kept as a split's key: its split's middle (the cut's piece and the
    # count's key) is the one copy kept; splitting it again when its tool is new is a regex scan.
    LONG_SPLIT = 65_536

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self._counts: dict[str, int] = {}
        self._cuts: dict[tuple[bool, str], Cut] = {}
        self._splits: dict[str, Split] = {}
        self._segmentable = bool(getattr(tokenizer, "segmentable", False))
        self.lint_memo = LintMemo()
        self._tool_memo: dict[str, IdentityMemo] = {shape: IdentityMemo() for shape in SHAPES}

    def count(self, text: str) -> int:
        """Tokens in ``text``, cached."""
        cached = self._counts.get(text)
        if cached is None:
            if len(text) > self.HUGE:
                return self.tokenizer.count(text)
            if len(self._counts) >= self.MAX_CACHE:
                self.clear()
            cached = self._counts[text] = self.tokenizer.count(text)
        return cached

    def clear(self) -> None:
        self._counts.clear()
        self._cuts.clear()
        self._splits.clear()
        self.lint_memo.clear()
        for memo in self._tool_memo.values():
            memo.clear()

    def split(self, text: str) -> Split:
        """`split_safe`, cached."""
        try:
            return self._splits[text]
        except KeyError:
            parts = split_safe(text)
            if len(text) <= self.LONG_SPLIT:
                self._splits[text] = parts
            return parts

    def member_sum(self, tool: dict[str, Any], shape: str = "mcp") -> tuple[int, int]:
        """``(Σ member counts + frame, members)``: the additive estimate the tolerance above bounds."""
        prefix, members, suffix = shape_members(tool, shape)
        total = self.count(prefix) + self.count(suffix) + sum(self.count(f) for _, _, f in members)
        return total, len(members)

    def _cut(self, part: str | None, key: str, fragment: str, tool: dict[str, Any]) -> Cut:
        """A member cut into pieces (see `cut_member`), and the property descriptions inside it; cached.

        The cache is keyed by the member's text after its key name (its safe split's middle and tail: no
        copy of it), so the same schema sent as ``inputSchema``, ``parameters`` or ``input_schema`` (the
        three shapes) is cut once.
        """
        head = dumps(key)[:-1]  # '"name': the cut after it is safe when the name ends in a letter or digit
        outer = self.split(fragment) if self._segmentable else None
        body_key = (part == "input_schema", outer[1], outer[2]) if outer is not None and outer[0] == head else None
        cached = self._cuts.get(body_key) if body_key is not None else None
        if cached is not None and cached.pieces is not None:
            _, closed, tail = cached.pieces
            return Cut((head, closed, tail), cached.inner)
        inner: list[str] = []
        if part == "input_schema":
            inner = [member("description", d) for d in property_descriptions(tool.get("inputSchema"))]
        pieces = cut_member(fragment, inner, self.split, outer=outer) if self._segmentable else None
        cut = Cut(pieces, inner)
        if pieces is not None and body_key is not None and len(fragment) <= self.HUGE:  # any key name's cut
            self._cuts[body_key] = cut
        return cut

    def _cut_tokens(self, cut: Cut, fragment: str) -> tuple[int, int]:
        """``(member tokens, property-description tokens)`` of a cut member, from cached piece counts."""
        if cut.pieces is None:
            tokens = self.count(fragment)
        else:
            head, closed, tail = cut.pieces
            tokens = self.count(head) + sum(map(self._piece_tokens, closed)) + self.count(tail)
        return tokens, sum(map(self._member_tokens, cut.inner))

    def _piece_tokens(self, piece: str | Counted) -> int:
        return piece.tokens if isinstance(piece, Counted) else self.count(piece)

    def _long_cut(self, part: str | None, long: LongMember, tool: dict[str, Any]) -> Cut | None:
        """A very long member cut after its key name and at its last safe boundary, the text between counted
        as a stream (long_members.py), never written whole; None when it has no safe boundary to stream by."""
        head = dumps(long.key)[:-1]
        if not is_safe_boundary(head + '"', len(head)):  # the cut after the key name is not a safe one
            return None
        counted = stream_count(self.tokenizer.count, chain(['":'], json_chunks(long.value)))
        if counted is None:
            return None
        tokens, tail = counted
        inner: list[str] = []
        if part == "input_schema":
            inner = [member("description", d) for d in property_descriptions(tool.get("inputSchema"))]
        return Cut((head, [Counted(tokens)], tail), inner)

    def _member_tokens(self, fragment: str) -> int:
        """Tokens of a small member (a property description), from its safe pieces."""
        split = self.split(fragment) if self._segmentable else None
        if split is None:
            return self.count(fragment)
        head, middle, tail = split
        return self.count(head) + (self.count(middle) if middle else 0) + self.count(tail)

    def tool_cost(self, tool: dict[str, Any], shape: str = "mcp") -> tuple[ToolCost, Pieces]:
        """The cost of one tool in ``shape``, and its text cut into pieces for the list's total.

        Each member is cut at safe boundaries (after the key name, before the value's closing
        punctuation, around property descriptions). The tool's text is the sequence of those pieces and
        the short joins between members. The long pieces are shared by the member's count, the property
        descriptions' count, the tool's total and the list's total, so an edit re-encodes only the piece
        it changed. (Encoding a new tool once and splitting the counts at the cuts was tried: mapping
        token offsets in Python cost more than the tiktoken calls it saved.)
        """
        prefix, members, suffix = shape_members(tool, shape, member_or_long if self._segmentable else member)
        cuts = []
        for n, (part, key, fragment) in enumerate(members):
            cut = self._long_cut(part, fragment, tool) if isinstance(fragment, LongMember) else None
            if cut is None and isinstance(fragment, LongMember):  # no safe boundary to stream by: written whole
                members[n] = (part, key, fragment := member(key, fragment.value))
            cuts.append(cut if cut is not None else self._cut(part, key, fragment, tool))
        sequence: list[Any] = []  # the tool's text, cut at safe boundaries (`Counted` for a streamed piece)
        pending = prefix
        for n, ((_part, _key, fragment), cut) in enumerate(zip(members, cuts, strict=True)):
            if n:
                pending += ","
            if cut.pieces is None:
                pending += fragment
            else:
                head, closed, tail = cut.pieces
                sequence.append(pending + head)
                sequence.extend(closed)
                pending = tail
        sequence.append(pending + suffix)
        # the whole text only where a tokenizer needs it (a segmentable one sums the pieces)
        text = "" if self._segmentable else prefix + ",".join(fragment for _, _, fragment in members) + suffix
        parts = dict.fromkeys(PARTS, 0)
        for (part, _key, fragment), cut in zip(members, cuts, strict=True):
            if part is not None:
                tokens, described = self._cut_tokens(cut, fragment)
                parts[part] += tokens
                parts["property_descriptions"] += described
        first = sequence[0] if len(sequence) > 1 else None
        inner = sum(map(self._piece_tokens, sequence[1:-1]))
        if not self._segmentable:
            total = self.count(text)
        else:
            total = (self.count(first) if first is not None else 0) + inner + self.count(sequence[-1])
        description = parts["description"]
        schema_tokens = parts["input_schema"] + parts["output_schema"]
        name = tool.get("name")
        cost = ToolCost(
            name=name if isinstance(name, str) else dumps(name),
            total=total,
            parts=parts,
            description_tokens=description,
            schema_tokens=schema_tokens,
            rest_tokens=total - description - schema_tokens,
            members=len(members),
        )
        return cost, Pieces(first=first, inner=inner, last=sequence[-1], text=text)

    def _strings_needed(self, tools: list[dict[str, Any]], shape: str) -> list[str]:
        """Every string a non-segmentable tokenizer is asked to count for ``tools`` (members, property
        descriptions, tools' texts, and descriptions for the lints)."""
        needed: list[str] = []
        for tool in tools:
            prefix, members, suffix = shape_members(tool, shape)
            needed.extend(fragment for _, _, fragment in members)
            needed.append(prefix + ",".join(fragment for _, _, fragment in members) + suffix)
            needed.extend(member("description", d) for d in property_descriptions(tool.get("inputSchema")))
            if isinstance(tool.get("description"), str):
                needed.append(tool["description"])
        return needed

    def list_total(self, pieces: list[Pieces], shape: str) -> int:
        """Tokens of the whole list (the tools joined inside the shape's frame), exact.

        Only the joins between tools (one tool's last piece, a comma, the next tool's first piece) are
        new strings; everything else was counted with the tools.
        """
        frame = LIST_FRAMES[shape]
        remote = getattr(self.tokenizer, "count_tool_list", None)
        if remote is not None:
            return remote([p.text for p in pieces], shape)
        if not self._segmentable:
            return self.count(frame.prefix + ",".join(p.text for p in pieces) + frame.suffix)
        total = 0
        pending = frame.prefix
        for n, tool in enumerate(pieces):
            if n:
                pending += ","
            if tool.first is None:
                pending += tool.last
                continue
            total += self.count(pending + tool.first) + tool.inner
            pending = tool.last
        return total + self.count(pending + frame.suffix)

    def report(
        self, tools: list[dict[str, Any]], shape: str = "mcp", *, lint_options: LintOptions | None = None
    ) -> BudgetReport:
        """Count ``tools`` (raw ``tools/list`` entries; non-dicts are skipped) in ``shape`` and lint them.

        Work is reused for tool dicts passed again unchanged (see memo.py): to edit a tool, pass an edited
        copy rather than changing a nested value of a dict already counted.
        """
        from inspector.budget.lints import lint_tools

        if shape not in SHAPES:
            raise KeyError(f"unknown shape {shape!r}; choose one of {', '.join(SHAPES)}")
        valid = [t for t in tools if isinstance(t, dict)]
        prefetch = getattr(self.tokenizer, "prefetch", None)
        if prefetch is not None:  # a remote tokenizer: send the strings this report needs in parallel
            prefetch(self._strings_needed(valid, shape))
        costs: list[ToolCost] = []
        pieces: list[Pieces] = []
        memo = self._tool_memo[shape]
        memo.rotate()
        for tool in valid:
            hit = memo.get(tool)
            if hit is None:
                hit = self.tool_cost(tool, shape)
                memo.put(tool, hit)
            cost, tool_pieces = hit
            costs.append(cost)
            pieces.append(tool_pieces)
        return BudgetReport(
            tokenizer=self.tokenizer.name,
            exact=self.tokenizer.exact,
            shape=shape,
            tools=costs,
            total=self.list_total(pieces, shape),
            overhead=tokenizer_overhead(self.tokenizer, shape),
            lints=lint_tools(valid, self.tokenizer, lint_options, counter=self, memo=self.lint_memo),
            tokenizer_label=self.tokenizer.label,
            note=report_note(self.tokenizer, shape),
            figure=figure_of(self.tokenizer, shape),
        )


def tokenizer_overhead(tokenizer: Tokenizer, shape: str) -> int:
    """The shape's fixed overhead; a Claude tokenizer knows its model's documented tool-use system prompt."""
    prompt = getattr(tokenizer, "tool_prompt", None)
    if shape == "anthropic" and prompt is not None:
        return int(prompt.tokens)
    return provider_overhead(shape)


def report_note(tokenizer: Tokenizer, shape: str) -> str:
    """What the figure means for this tokenizer and shape, in one sentence."""
    notes = [OVERHEAD_NOTES.get(shape, "")]
    prompt = getattr(tokenizer, "tool_prompt", None)
    if shape == "anthropic" and prompt is not None:
        model = getattr(tokenizer, "model", "?")
        notes = [f"+{prompt.tokens} tokens: the tool-use system prompt for {model} ({prompt.source})"]
    if getattr(tokenizer, "figure", "") in ("reconstructed", "calibrated"):
        rendering = (
            ", the tools block as the tools parameter's JSON plus the documented tool-use system prompt"
            if shape == "anthropic"
            else ""
        )
        notes.append(
            f"reconstructed offline with ctok (Claude family {getattr(tokenizer, 'family', '?')}): text counts "
            f"reproduced offline{rendering}"
        )
        calibration = getattr(tokenizer, "calibration", None)
        if calibration is not None:
            notes.append(f"calibrated: {calibration.describe()}")
    elif shape == "anthropic" and tokenizer.name != "anthropic":
        notes.append(
            f"Claude's tokenizer is not public: this is an estimate made with {tokenizer.name}; "
            "use --encoding claude (reconstructed offline) or --encoding anthropic (ANTHROPIC_API_KEY)"
        )
    elif tokenizer.name == "anthropic":
        notes.append(f"counted by Anthropic's count_tokens API ({getattr(tokenizer, 'model', '?')})")
    elif not tokenizer.exact:
        notes.append(f"estimate: {tokenizer.label}")
    return "; ".join(n for n in notes if n)
