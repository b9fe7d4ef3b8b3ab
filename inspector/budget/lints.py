"""Lints on a tool list: what costs tokens for nothing or breaks a provider's rules.

Codes: ``missing-description``, ``missing-param-description``, ``long-description``,
``duplicate-description``, ``near-duplicate-description``, ``invalid-name``, ``duplicate-name``,
``untyped-property``, ``missing-input-schema``, ``too-many-tools``.
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from inspector.budget.memo import IdentityMemo
from inspector.budget.tokenizers import Tokenizer

if TYPE_CHECKING:
    from inspector.budget.breakdown import BudgetCounter

SEVERITIES = ("error", "warning", "info")
# OpenAI and Anthropic both require tool names to match this (and reject the whole request otherwise).
PROVIDER_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# A schema without "type" that still says what it accepts.
_TYPE_LIKE = ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not")

# Near-duplicate search (see near_duplicates).
_BANDS = 6  # LSH bands per text
_ROWS = 2  # min-hashes per band
_MIN_RESEMBLANCE = 0.4  # estimated word-pair Jaccard below which two texts are not compared character by character
_MAX_BUCKET = 32  # texts in one band bucket beyond which only neighbours in list order are paired
_MIN_CHARS = 24  # shorter descriptions are too short to call near-duplicates


@dataclass(frozen=True)
class Lint:
    code: str
    severity: str  # "error" | "warning" | "info"
    tool: str | None
    path: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "tool": self.tool,
            "path": self.path,
            "message": self.message,
        }


@dataclass
class LintOptions:
    max_description_tokens: int = 300
    max_tools: int = 40
    near_duplicate: float = 0.9  # similarity ratio (0–1) at or above which two descriptions are near-duplicates


def normalise(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


_WORD = re.compile(r"\w+")
_Found = tuple[str, str, str, str]  # code, severity, path below tools[i], message


class LintMemo:
    """Caches that make re-linting an unchanged tool list cheap: per-tool results, normalised texts,
    sketches and similarity ratios, keyed by content or by tool object (memo.py). Owned by a `BudgetCounter`."""

    MAX = 200_000

    def __init__(self) -> None:
        self.tools: dict[tuple[Any, ...], list[_Found]] = {}
        self.normal: dict[str, str] = {}
        self.ratios: dict[tuple[str, str], float] = {}
        self.sketches: dict[str, Sketch] = {}
        self.near: dict[tuple[Any, ...], list[tuple[int, int, float]]] = {}
        self.by_tool = IdentityMemo()

    def clear(self) -> None:
        self.tools.clear()
        self.normal.clear()
        self.ratios.clear()
        self.sketches.clear()
        self.near.clear()
        self.by_tool.clear()

    def trim(self) -> None:
        for cache in (self.tools, self.normal, self.ratios, self.sketches):
            if len(cache) > self.MAX:
                cache.clear()
        if len(self.near) > 8:
            self.near.clear()


def _tool_name(tool: dict[str, Any]) -> str:
    name = tool.get("name")
    return name if isinstance(name, str) else repr(name)


def lint_tools(
    tools: list[dict[str, Any]],
    tokenizer: Tokenizer,
    options: LintOptions | None = None,
    *,
    counter: BudgetCounter | None = None,
    memo: LintMemo | None = None,
) -> list[Lint]:
    """Every lint for ``tools`` (raw ``tools/list`` entries), errors first, then in list order.

    ``counter`` reuses its cached counts; ``memo`` (kept between calls) makes re-linting an edited list cheap.
    """
    from inspector.budget.shapes import dumps

    options = options or LintOptions()
    memo = memo if memo is not None else LintMemo()
    memo.trim()
    memo.by_tool.rotate()
    count = counter.count if counter is not None else tokenizer.count
    lints: list[Lint] = []
    tools = [t for t in tools if isinstance(t, dict)]
    if len(tools) > options.max_tools:
        lints.append(
            Lint(
                "too-many-tools",
                "warning",
                None,
                "tools",
                f"{len(tools)} tools (limit {options.max_tools}); hosts load every one into every turn — "
                "split the server or let users enable groups of tools",
            )
        )
    seen_names: dict[str, int] = {}
    for i, tool in enumerate(tools):
        name = _tool_name(tool)
        found = memo.by_tool.get(tool, options.max_description_tokens)
        if found is None:
            schema = tool.get("inputSchema")
            key = (
                name,
                tool.get("name") is None,
                tool.get("description") if isinstance(tool.get("description"), str) else None,
                dumps(schema) if isinstance(schema, dict) else None,
                options.max_description_tokens,
            )
            found = memo.tools.get(key)
            if found is None:
                found = memo.tools[key] = _lint_tool(tool, options, count)
            memo.by_tool.put(tool, found, options.max_description_tokens)
        lints.extend(
            Lint(code, severity, name, f"tools[{i}]{path}", message) for code, severity, path, message in found
        )
        if name in seen_names:
            lints.append(
                Lint("duplicate-name", "error", name, f"tools[{i}].name", f"same name as tools[{seen_names[name]}]")
            )
        seen_names.setdefault(name, i)
    lints.extend(_duplicates(tools, options, memo))
    order = {s: n for n, s in enumerate(SEVERITIES)}
    return sorted(lints, key=lambda lint: order.get(lint.severity, 3))


def _lint_tool(tool: dict[str, Any], options: LintOptions, count: Any) -> list[_Found]:
    out: list[_Found] = []
    name = _tool_name(tool)
    if not isinstance(tool.get("name"), str) or not PROVIDER_NAME.match(tool["name"]):
        out.append(
            (
                "invalid-name",
                "error",
                ".name",
                f"name {name!r} breaks the OpenAI/Anthropic rule ^[a-zA-Z0-9_-]{{1,64}}$; hosts reject or rename it",
            )
        )
    description = tool.get("description")
    if not isinstance(description, str) or not description.strip():
        out.append(("missing-description", "warning", ".description", "no description"))
    else:
        tokens = count(description)
        if tokens > options.max_description_tokens:
            out.append(
                (
                    "long-description",
                    "warning",
                    ".description",
                    f"description is {tokens} tokens (limit {options.max_description_tokens})",
                )
            )
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        out.append(("missing-input-schema", "error", ".inputSchema", "no inputSchema object (required)"))
        return out
    out.extend(_lint_properties(".inputSchema", schema))
    return out


def _lint_properties(path: str, schema: dict[str, Any], depth: int = 0) -> list[_Found]:
    out: list[_Found] = []
    properties = schema.get("properties")
    if not isinstance(properties, dict) or depth > 8:
        return out
    for key, prop in properties.items():
        where = f"{path}.properties.{key}"
        if not isinstance(prop, dict):
            continue
        text = prop.get("description")
        if not isinstance(text, str) or not text.strip():
            out.append(("missing-param-description", "info", where, f"parameter {key!r} has no description"))
        if not any(k in prop for k in _TYPE_LIKE):
            out.append(("untyped-property", "warning", where, f"parameter {key!r} has no type; models guess"))
        if isinstance(prop.get("properties"), dict):
            out.extend(_lint_properties(where, prop, depth + 1))
        items = prop.get("items")
        if isinstance(items, dict) and isinstance(items.get("properties"), dict):
            out.extend(_lint_properties(where + ".items", items, depth + 1))
    return out


def _duplicates(tools: list[dict[str, Any]], options: LintOptions, memo: LintMemo) -> list[Lint]:
    """Exact duplicates (after normalising case, punctuation and spacing) and near-duplicates."""
    texts: list[tuple[int, str]] = []
    for i, tool in enumerate(tools):
        description = tool.get("description")
        if isinstance(description, str) and description.strip():
            normal = memo.normal.get(description)
            if normal is None:
                normal = memo.normal[description] = normalise(description)
            texts.append((i, normal))
    out: list[Lint] = []
    groups: dict[str, list[int]] = defaultdict(list)
    for i, text in texts:
        groups[text].append(i)
    for members in groups.values():
        for other in members[1:]:
            out.append(
                Lint(
                    "duplicate-description",
                    "warning",
                    _tool_name(tools[other]),
                    f"tools[{other}].description",
                    f"same description as {_tool_name(tools[members[0]])!r}",
                )
            )
    if options.near_duplicate <= 1.0:
        firsts = [(members[0], text) for text, members in groups.items()]
        for i, j, ratio in near_duplicates(firsts, options.near_duplicate, memo):
            out.append(
                Lint(
                    "near-duplicate-description",
                    "info",
                    _tool_name(tools[j]),
                    f"tools[{j}].description",
                    f"description is {ratio:.0%} similar to {_tool_name(tools[i])!r}'s",
                )
            )
    return out


def near_duplicates(
    texts: list[tuple[int, str]], threshold: float, memo: LintMemo | None = None
) -> list[tuple[int, int, float]]:
    """Pairs ``(i, j, ratio)`` of distinct normalised texts whose `SequenceMatcher` ratio ≥ threshold.

    Candidates come from MinHash with banding (locality-sensitive hashing): each text's set of word
    pairs gets `_BANDS` × `_ROWS` min-hashes, and two texts are compared only when all the hashes of one
    band agree, which pairs with a word-pair Jaccard similarity of 0.75 (one word changed in sixteen)
    do with probability ≈ 0.99, and unrelated texts almost never. A band shared by more than
    `_MAX_BUCKET` texts (a family of near-identical descriptions) pairs neighbours in list order only,
    so the work stays linear and the family is reported as a chain. A candidate pair whose estimated
    Jaccard similarity is under `_MIN_RESEMBLANCE` is dismissed before the (slow) character comparison.
    This is a heuristic: copy-pasted descriptions with edited words are found; texts that differ by
    many scattered characters are not. Sketches are cached per text and ratios per pair of texts, so
    re-linting after one edit sketches and compares only the edited text.
    """
    memo = memo if memo is not None else LintMemo()
    key = (threshold, *(text for _, text in texts))
    cached = memo.near.get(key)
    if cached is not None:
        return cached
    buckets: dict[int, list[int]] = defaultdict(list)
    sketches = memo.sketches
    for n, (_, text) in enumerate(texts):
        if len(text) < _MIN_CHARS:
            continue
        sketch = sketches.get(text)
        if sketch is None:
            sketch = sketches[text] = _sketch(text)
        for band in sketch[0]:
            buckets[band].append(n)
    candidates: set[tuple[int, int]] = set()
    for docs in buckets.values():
        if len(docs) < 2:
            continue
        if len(docs) <= _MAX_BUCKET:
            candidates.update((n, m) for a, n in enumerate(docs) for m in docs[a + 1 :])
        else:
            candidates.update(pairwise(docs))
    found: list[tuple[int, int, float]] = []
    for n, m in sorted(candidates):
        pair = (texts[n][1], texts[m][1])
        ratio = memo.ratios.get(pair)
        if ratio is None:
            similar = resemblance(sketches[pair[0]], sketches[pair[1]]) >= _MIN_RESEMBLANCE
            ratio = memo.ratios[pair] = _ratio(pair[0], pair[1], threshold) if similar else 0.0
        if ratio >= threshold:
            found.append((texts[n][0], texts[m][0], ratio))
    memo.near[key] = found
    return found


Sketch = tuple[tuple[int, ...], tuple[int, ...]]  # (band keys, min-hashes)
_SLOTS = _BANDS * _ROWS
_GOLDEN = 0x9E3779B97F4A7C15  # Fibonacci hashing spreads a 32-bit CRC over 64 bits
_MASK = (1 << 64) - 1


def resemblance(a: Sketch, b: Sketch) -> float:
    """Estimated Jaccard similarity of two texts' word-pair sets: the share of equal min-hashes."""
    return sum(x == y for x, y in zip(a[1], b[1], strict=True)) / len(a[1])


def _sketch(text: str) -> Sketch:
    """One-permutation MinHash of the text's word pairs (its words are single-space separated), densified
    by rotation, and its band keys. One pass over the pairs instead of one per hash function."""
    words = text.split(" ")
    pairs = [a + " " + b for a, b in pairwise(words)] if len(words) > 2 else [text]
    slots: list[int | None] = [None] * _SLOTS
    for pair in pairs:
        h = (zlib.crc32(pair.encode()) * _GOLDEN) & _MASK  # a stable hash: the same lints in every run
        slot, value = (h >> 40) % _SLOTS, h & 0xFFFFFFFFFF
        current = slots[slot]
        if current is None or value < current:
            slots[slot] = value
    mins: list[int] = []
    for i in range(_SLOTS):  # an empty slot borrows the next filled one's value, marked by the distance
        for step in range(_SLOTS):
            value = slots[(i + step) % _SLOTS]
            if value is not None:
                mins.append(value * _SLOTS + step)
                break
    bands = tuple(hash((b, *mins[b * _ROWS : (b + 1) * _ROWS])) for b in range(_BANDS))
    return bands, tuple(mins)


def _ratio(a: str, b: str, threshold: float) -> float:
    """`SequenceMatcher` ratio, or 0.0 when its cheap upper bounds are already below ``threshold``."""
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
        return 0.0
    return matcher.ratio()
