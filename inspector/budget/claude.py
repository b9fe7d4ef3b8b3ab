"""Claude token counts reconstructed offline with ctok (families v3, v4.7, v4.8), and what the API adds.

Claude's tokenizer is not public. ``ctok`` (PyPI, MIT, pure Python, no network) reproduces the
``count_tokens`` figure of a one-message request offline; a text's own tokens are that figure minus the
message frame (the ``⟨pad⟩`` tokens ctok reports first). These figures are labelled "reconstructed":
the text counts are reproduced offline, while the way the API writes the ``tools`` block into the prompt
is taken from Anthropic's documentation (the tools parameter's names, descriptions and schemas, plus a
fixed tool-use system prompt whose size Anthropic publishes per model, `tool_prompt_tokens`).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

# ctok version → family, as ctok routes it ("3.0" ≤ v < "4.7" → v3; "4.7" → v4.7; ≥ "4.8" → v4.8).
FAMILY_VERSIONS = {"v3": "3.0", "v4.7": "4.7", "v4.8": "4.8"}
NEWEST_FAMILY = "v4.8"
DEFAULT_MODEL = "claude-opus-4-8"  # newest family by default
_PAD = "⟨pad⟩"  # ctok's notation for a token of the message frame


@dataclass(frozen=True)
class ToolPrompt:
    """The tool-use system prompt Anthropic adds whenever ``tools`` is set (tool_choice auto/none)."""

    tokens: int
    source: str
    documented: bool  # False: no figure published for this model; the nearest documented one is used


# Tool-use system prompt, tokens with tool_choice auto (or none), as published by Anthropic.
# Claude 3: https://docs.anthropic.com/en/docs/tool-use-pricing-and-tokens (table "Tool use system prompt
# token count": Claude 3 Opus 530, Sonnet 159, Haiku 264). Claude 4 family (Opus 4.x, Sonnet 4.x,
# Haiku 4.5): 346, https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview (section "Pricing").
# Checked 2026-11-25. Other models have no published figure: the Claude 4 figure stands in, said as such.
_DOCS_3 = "Anthropic docs, tool-use pricing (Claude 3 table), checked 2026-11-25"
_DOCS_4 = "Anthropic docs, tool-use overview › Pricing (Claude 4 family), checked 2026-11-25"
_CLAUDE_3 = {"opus": 530, "sonnet": 159, "haiku": 264}
_UNDOCUMENTED = ToolPrompt(346, "not published for this model; the Claude 4 family's 346 is assumed", False)


def model_version(model: str) -> tuple[int, int] | None:
    """``(major, minor)`` of a Claude model id, old (claude-3-5-sonnet-…) or new (claude-opus-4-7) naming."""
    name = model.strip().lower()
    old = re.match(r"claude-(\d+)(?:-(\d))?-[a-z]", name)
    new = re.match(r"claude-[a-z]+-(\d+)(?:[-.](\d{1,2}))?(?=$|[-@.])", name)
    match = old or new
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def tool_prompt(model: str) -> ToolPrompt:
    """The tool-use system prompt for ``model`` (documented, or the Claude 4 figure marked undocumented)."""
    version = model_version(model)
    if version is not None and version[0] == 4:
        return ToolPrompt(346, _DOCS_4, True)
    tier = re.match(r"claude-3-(opus|sonnet|haiku)", model.strip().lower())
    if tier:
        return ToolPrompt(_CLAUDE_3[tier.group(1)], _DOCS_3, True)
    return _UNDOCUMENTED


def family_of(model: str | None) -> str:
    """The ctok family for a model name: Claude 3 up to the 4.6 models → v3; 4.7 → v4.7; newer or
    unknown → v4.8 (the newest). A family name itself (``v3``, ``4.7``…) is accepted too."""
    name = (model or "").strip().lower()
    if name in FAMILY_VERSIONS:
        return name
    if "v" + name in FAMILY_VERSIONS:
        return "v" + name
    if name in ("3", "3.0", "v3.0"):
        return "v3"
    version = model_version(name) if name else None
    if version is None:
        return NEWEST_FAMILY
    if version < (4, 7):
        return "v3"
    if version < (4, 8):
        return "v4.7"
    return NEWEST_FAMILY


class ClaudeTokenizer:
    """Claude token counts reconstructed offline by ctok for one family (the text's tokens, no frame)."""

    name = "claude"
    exact = False
    figure = "reconstructed"
    segmentable = False  # ctok tiles words, not BPE merges: pieces are not cut at "safe" boundaries

    def __init__(self, model: str | None = None) -> None:
        try:
            import ctok
        except ImportError as exc:  # pragma: no cover - ctok is a dependency
            from inspector.budget.tokenizers import TokenizerError

            raise TokenizerError("ctok is not installed; pip install ctok==1.3.0") from exc
        self.model = model or DEFAULT_MODEL
        self.family = family_of(self.model)
        self.version = FAMILY_VERSIONS[self.family]
        self._count = ctok.token_count
        self._frame = ctok.tokenize("a", self.version).count(_PAD)
        self.tool_prompt = tool_prompt(self.model)
        self.label = f"Claude {self.family} via ctok — {self.model} (reconstructed)"
        self._lock = threading.Lock()

    def message_tokens(self, text: str) -> int:
        """ctok's figure for ``text`` as one user message (what count_tokens would answer)."""
        return self._count(text, self.version)

    def count(self, text: str) -> int:
        if not text:
            return 0
        return max(0, self._count(text, self.version) - self._frame)

    def count_many(self, texts: list[str]) -> list[int]:
        return [self.count(t) for t in texts]
