"""Lints on a tool list: what costs tokens for nothing or breaks a provider's rules.

Codes: ``missing-description``, ``missing-param-description``, ``long-description``,
``duplicate-description``, ``near-duplicate-description``, ``invalid-name``, ``duplicate-name``,
``untyped-property``, ``missing-input-schema``, ``too-many-tools``, ``app-only-tool``.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inspector.budget.memo import IdentityMemo
from inspector.budget.similar import NearIndex
from inspector.budget.tokenizers import Tokenizer, figure_of

if TYPE_CHECKING:
    from inspector.budget.breakdown import BudgetCounter

SEVERITIES = ("error", "warning", "info")
# OpenAI and Anthropic both require tool names to match this (and reject the whole request otherwise).
PROVIDER_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
# A schema without "type" that still says what it accepts.
_TYPE_LIKE = ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not")


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
    """``text``'s words, lower-cased, one space apart: ``" ".join(re.findall(r"\\w+", text.lower()))``, found a
    piece at a time (a list of a 1 MB description's ~200,000 words held ~12 MB at once)."""
    return " ".join(_normal_pieces(text))


def normal_digest(text: str) -> str:
    """The SHA-256 of `normalise(text)`, without the normal form whole."""
    digest = hashlib.sha256()
    for n, piece in enumerate(_normal_pieces(text)):
        digest.update(((" " if n else "") + piece).encode())
    return digest.hexdigest()


def _normal_pieces(text: str) -> Iterator[str]:
    """`normalise`'s text in pieces that join with single spaces, none empty: the text is lower-cased and
    read a piece at a time, each cut before a space or newline (lower-casing is per character but for a
    final sigma, whose context a space or newline ends)."""
    start = 0
    while start < len(text):
        cut = _CUT.search(text, start + _NORMAL_PIECE)
        end = cut.start() if cut is not None else len(text)
        words = _WORD.findall(text[start:end].lower())
        if words:
            yield " ".join(words)
        start = end


_WORD = re.compile(r"\w+")
_CUT = re.compile(r"[ \n]")
_NORMAL_PIECE = 1 << 14  # characters normalised at once
_HUGE_MARK = "\x00"  # a huge description's normal form is its digest: no near-duplicate check (normal forms
# never hold NUL), and nothing holds a copy of its text
_Found = tuple[str, str, str, str]  # code, severity, path below tools[i], message


class LintMemo:
    """Caches that make re-linting an unchanged tool list cheap: per-tool results, normalised texts,
    the near-duplicate index, keyed by content or by tool object (memo.py). Owned by a `BudgetCounter`."""

    MAX = 200_000
    # A longer description's normal form is kept as its digest: equal ones are still duplicates, but it is
    # never compared character by character (SequenceMatcher took 6 s on two near-identical 20,000-character
    # descriptions, 390 s on 100,000) nor held beside the description (a second megabyte per counter).
    HUGE = 10_000

    def __init__(self) -> None:
        self.normal: dict[str, str] = {}
        self.index = NearIndex()
        self.near: dict[tuple[Any, ...], list[tuple[int, int, float]]] = {}
        self.by_tool = IdentityMemo()

    def clear(self) -> None:
        self.normal.clear()
        self.index.clear()
        self.near.clear()
        self.by_tool.clear()

    def trim(self) -> None:
        if len(self.normal) > self.MAX:
            self.normal.clear()
        if len(self.near) > 8:
            self.near.clear()


def _blank(text: str) -> bool:
    """``not text.strip()``, without the stripped copy (a 1 MB description ending in a newline)."""
    return not text or text.isspace()


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
    options = options or LintOptions()
    memo = memo if memo is not None else LintMemo()
    memo.trim()
    memo.by_tool.rotate()
    count = counter.count if counter is not None else tokenizer.count
    counted_by = counter.tokenizer if counter is not None else tokenizer
    unit = f"{getattr(counted_by, 'name', '?')} tokens, {figure_of(counted_by)}"
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
            found = _lint_tool(tool, options, count, unit)
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


def _lint_tool(tool: dict[str, Any], options: LintOptions, count: Any, unit: str = "tokens") -> list[_Found]:
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
    if not isinstance(description, str) or _blank(description):
        out.append(("missing-description", "warning", ".description", "no description"))
    else:
        tokens = count(description)
        if tokens > options.max_description_tokens:
            out.append(
                (
                    "long-description",
                    "warning",
                    ".description",
                    f"description is {tokens} {unit} (limit {options.max_description_tokens})",
                )
            )
    if _app_only(tool):
        out.append(
            (
                "app-only-tool",
                "info",
                "._meta.ui.visibility",
                'for MCP Apps only (visibility ["app"]): a host that renders apps keeps it from the model, '
                "so its tokens count in the raw list but not in such a host's prompt",
            )
        )
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        out.append(("missing-input-schema", "error", ".inputSchema", "no inputSchema object (required)"))
        return out
    out.extend(_lint_properties(".inputSchema", schema))
    return out


def _app_only(tool: dict[str, Any]) -> bool:
    """Whether the MCP Apps extension's `_meta.ui.visibility` says only apps may use the tool."""
    meta = tool.get("_meta")
    ui = meta.get("ui") if isinstance(meta, dict) else None
    return isinstance(ui, dict) and ui.get("visibility") == ["app"]


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
        if not isinstance(text, str) or _blank(text):
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
        if isinstance(description, str) and not _blank(description):
            normal = memo.normal.get(description)
            if normal is None:
                if len(description) > memo.HUGE:  # kept as its digest (two equal ones are still duplicates)
                    normal = _HUGE_MARK + normal_digest(description)
                else:
                    normal = normalise(description)
                memo.normal[description] = normal
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
        firsts = [(members[0], text) for text, members in groups.items() if not text.startswith(_HUGE_MARK)]
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
    """Pairs ``(i, j, ratio)`` of the given ``(index, normalised text)`` items whose similarity ratio is
    ≥ ``threshold`` (see similar.py); the memo's index makes the next call after a small edit cheap."""
    memo = memo if memo is not None else LintMemo()
    key = (threshold, *(text for _, text in texts))
    cached = memo.near.get(key)
    if cached is None:
        found = memo.index.find([text for _, text in texts], threshold)
        cached = memo.near[key] = [(texts[n][0], texts[m][0], value) for n, m, value in found]
    return cached
