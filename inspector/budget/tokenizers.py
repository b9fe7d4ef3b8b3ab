"""Tokenizers that count what a tool list costs: exact BPE encoders (offline), Claude counts reconstructed
offline (ctok, see claude.py), Anthropic's count_tokens API (online), and a characters ÷ 4 estimate.

Every figure says what it is (`FIGURES`): "exact", "reconstructed", "estimate", "count_tokens API", or
"calibrated" (a reconstruction scaled by a saved count_tokens comparison, see calibration.py).

The ``o200k_base`` and ``cl100k_base`` rank files ship in ``resources/tokenizers`` (found through
`inspector.resource_files`) and are loaded from disk, never from the network. Each file's SHA-256 (of the
decompressed content) is checked against the hash tiktoken itself expects before the encoder is built.
Encoders load lazily, once per process, under a lock.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from inspector.budget.segments import safe_pieces
from inspector.resource_files import resource_path

# What a figure is, by the tokenizer's `figure` attribute: the word shown beside every count.
FIGURES = {
    "exact": "exact: the model's own BPE encoder (tiktoken), offline",
    "reconstructed": "reconstructed: Claude text counts reproduced offline by ctok; the tools block and the "
    "tool-use system prompt as Anthropic's documentation describes them",
    "estimate": "estimate: not the model's tokenizer",
    "count_tokens API": "count_tokens API: Anthropic's own figure, online",
    "calibrated": "calibrated: reconstructed, scaled by a saved count_tokens comparison for this server",
}


def figure_of(tokenizer: object, shape: str = "") -> str:
    """What ``tokenizer``'s counts are for ``shape``: a key of `FIGURES`. Claude's list counted with an
    OpenAI encoder (or chars ÷ 4) is an estimate, whatever the encoder."""
    figure = getattr(tokenizer, "figure", None) or ("exact" if getattr(tokenizer, "exact", False) else "estimate")
    if shape == "anthropic" and figure == "exact":
        return "estimate"
    return str(figure)


def describe_figure(report: Any) -> tuple[bool, str]:
    """Whether a report's count is exact for its shape's model family, and the words that say what it is:
    the one wording of the Budget tab and ``mcp-lens tokens`` (an OpenAI encoder under a Claude shape or host
    is an estimate, never "exact")."""
    figure = str(getattr(report, "figure", "") or ("exact" if getattr(report, "exact", False) else "estimate"))
    tokenizer = str(getattr(report, "tokenizer", ""))
    if figure == "exact":
        return True, f"exact ({tokenizer} tokenizer)"
    if figure == "reconstructed":
        return False, "reconstructed — Claude's counts reproduced offline by ctok"
    if figure == "calibrated":
        return False, "calibrated — ctok scaled by this server's saved count_tokens comparison"
    if figure == "count_tokens API":
        return True, "count_tokens API — Anthropic's own count"
    if getattr(report, "shape", "") == "anthropic":
        return False, f"estimate — Claude's tokenizer is not public; counted with {tokenizer}"
    kind = TOKENIZERS.get(tokenizer)
    return False, f"estimate — {(kind.label if kind is not None else tokenizer).split(' (')[0]}"


def figure_label(report: Any) -> str:
    """The tokenizer's label as a heading shows it, saying what the figure is: ``o200k_base — GPT-4o/…
    (estimate)`` when an exact encoder counts Claude's shape, never its own "(exact)" there."""
    label = str(getattr(report, "tokenizer_label", "") or getattr(report, "tokenizer", ""))
    figure = str(getattr(report, "figure", "") or "")
    if not figure or figure == "exact" or f"({figure})" in label:
        return label
    return f"{label.split(' (')[0]} ({figure})"


class TokenizerError(RuntimeError):
    """A tokenizer could not be loaded or used; the message says why and what to do."""


@runtime_checkable
class Tokenizer(Protocol):
    name: str
    label: str
    exact: bool

    def count(self, text: str) -> int: ...


@dataclass(frozen=True)
class EncodingSpec:
    """What is needed to build one tiktoken encoding from a shipped rank file."""

    name: str
    file: str
    sha256: str  # of the decompressed file; the same value as tiktoken's ``expected_hash``
    pat_str: str
    special_tokens: dict[str, int] = field(default_factory=dict)
    label: str = ""


# Facts about the public encodings (token-splitting regexes and special token ids), as published with
# tiktoken (tiktoken_ext/openai_public.py). tests/budget checks them against tiktoken's own constructors.
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_CL100K_PATTERN = "|".join(
    [
        r"""'(?i:[sdmt]|ll|ve|re)""",
        r"""[^\r\n\p{L}\p{N}]?+\p{L}++""",
        r"""\p{N}{1,3}+""",
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*+""",
        r"""\s++$""",
        r"""\s*[\r\n]""",
        r"""\s+(?!\S)""",
        r"""\s""",
    ]
)

_O200K = EncodingSpec(
    name="o200k_base",
    file="o200k_base.tiktoken.gz",
    sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    pat_str=_O200K_PATTERN,
    special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    label="o200k_base — GPT-4o/4.1/o-series/GPT-5 (exact)",
)
_CL100K = EncodingSpec(
    name="cl100k_base",
    file="cl100k_base.tiktoken.gz",
    sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    pat_str=_CL100K_PATTERN,
    special_tokens={
        "<|endoftext|>": 100257,
        "<|fim_prefix|>": 100258,
        "<|fim_middle|>": 100259,
        "<|fim_suffix|>": 100260,
        "<|endofprompt|>": 100276,
    },
    label="cl100k_base — GPT-4/GPT-3.5 (exact)",
)


_lock = threading.Lock()
_loaded: dict[str, Any] = {}  # name → tiktoken.Encoding; one per process


def rank_file_bytes(spec: EncodingSpec) -> bytes:
    """The decompressed rank file shipped with MCP Lens, hash-checked. Raises `TokenizerError`."""
    path = resource_path("tokenizers", spec.file)
    try:
        raw = gzip.decompress(path.read_bytes())
    except FileNotFoundError as exc:
        raise TokenizerError(
            f"tokenizer file {spec.file} is missing from the installation (expected at {path}); reinstall mcp-lens"
        ) from exc
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise TokenizerError(f"tokenizer file {spec.file} is unreadable ({exc}); reinstall mcp-lens") from exc
    digest = hashlib.sha256(raw).hexdigest()
    if digest != spec.sha256:
        raise TokenizerError(
            f"tokenizer file {spec.file} is corrupt: SHA-256 {digest} does not match the expected {spec.sha256}; "
            "reinstall mcp-lens"
        )
    return raw


LONG_TEXT_CHARS = 64 * 1024  # longer text is counted in pieces cut at safe boundaries (segments.py)
PIECE_CHARS = 16 * 1024  # the size of those pieces (the token list of one, ~0.15 MB, is what counting holds)
RANK_SLICE_BYTES = 128 * 1024  # parsed per slice (~6,000 rank lines, a few ms)


def parse_ranks(raw: bytes, file: str = "rank file") -> dict[bytes, int]:
    """Parse tiktoken's ``<base64 token> <rank>`` lines (vectorised per slice: about twice as fast as a
    line loop). In slices of whole lines: one C call over all 200k pairs held the GIL ~140 ms, and a UI
    thread waits that long while the Budget tab's worker loads a tokenizer."""
    ranks: dict[bytes, int] = {}
    start = 0
    while start < len(raw):
        end = raw.find(b"\n", start + RANK_SLICE_BYTES)
        end = len(raw) if end < 0 else end + 1
        chunk = raw[start:end]
        words = chunk.split()
        if len(words) % 2 or len(words) != 2 * chunk.count(b"\n") + (0 if chunk.endswith(b"\n") else 2):
            raise TokenizerError(f"{file} is malformed: expected one '<token> <rank>' pair per line")
        try:
            ranks.update(zip(map(binascii.a2b_base64, words[0::2]), map(int, words[1::2]), strict=True))
        except ValueError as exc:  # binascii.Error is a ValueError
            raise TokenizerError(f"{file} is malformed: {exc}") from exc
        start = end
    return ranks


def load_encoding(name: str) -> Any:
    """The `tiktoken.Encoding` for ``name``, built from the shipped file once per process (thread-safe)."""
    spec = ENCODINGS.get(name)
    if spec is None:
        raise KeyError(f"unknown encoding {name!r}; choose one of {', '.join(ENCODINGS)}")
    encoding = _loaded.get(name)
    if encoding is not None:
        return encoding
    with _lock:
        encoding = _loaded.get(name)
        if encoding is None:
            try:
                import tiktoken
            except ImportError as exc:  # pragma: no cover - tiktoken is a dependency
                raise TokenizerError("tiktoken is not installed; pip install tiktoken") from exc
            ranks = parse_ranks(rank_file_bytes(spec), spec.file)
            encoding = tiktoken.Encoding(
                spec.name, pat_str=spec.pat_str, mergeable_ranks=ranks, special_tokens=dict(spec.special_tokens)
            )
            _loaded[name] = encoding
    return encoding


class TiktokenTokenizer:
    """Exact counts with a shipped BPE encoding. Special-token text counts as ordinary text."""

    exact = True
    figure = "exact"
    segmentable = True  # counts of pieces split at safe boundaries add up exactly (see segments.py)

    def __init__(self, spec: EncodingSpec) -> None:
        self.name = spec.name
        self.label = spec.label
        self._spec = spec
        self._encoding: Any = None

    @property
    def encoding(self) -> Any:
        if self._encoding is None:
            self._encoding = load_encoding(self.name)
        return self._encoding

    def encode(self, text: str) -> list[int]:
        return self.encoding.encode_ordinary(text)

    def count(self, text: str) -> int:
        if len(text) > LONG_TEXT_CHARS:  # in pieces: never the token list of 20 MB at once
            encode = self.encoding.encode_ordinary
            return sum(len(encode(piece)) for piece in safe_pieces(text, PIECE_CHARS))
        return len(self.encoding.encode_ordinary(text))

    def count_many(self, texts: list[str]) -> list[int]:
        return [self.count(t) for t in texts]


class CharsTokenizer:
    """Characters ÷ 4, rounded up: the common rule of thumb. An estimate, not a tokenizer."""

    name = "chars4"
    label = "characters ÷ 4 (estimate)"
    exact = False
    figure = "estimate"
    segmentable = False

    def count(self, text: str) -> int:
        return math.ceil(len(text) / 4)

    def count_many(self, texts: list[str]) -> list[int]:
        return [math.ceil(len(t) / 4) for t in texts]


def _chars(**options: Any) -> Tokenizer:
    return CharsTokenizer()


def _claude(**options: Any) -> Tokenizer:
    from inspector.budget.claude import ClaudeTokenizer

    return ClaudeTokenizer(options.get("model"))


def _anthropic(**options: Any) -> Tokenizer:
    from inspector.budget.anthropic import AnthropicTokenizer

    return AnthropicTokenizer.from_environment(**options)


@dataclass(frozen=True)
class TokenizerKind:
    """One tokenizer the app and ``mcp-lens tokens --encoding`` offer.

    `label` is what a picker shows before the tokenizer loads (a loaded tokenizer's own `label` names it
    in reports); `encoding` makes it an exact tiktoken encoder built from a shipped rank file, otherwise
    `load(**options)` builds it; `offline` is False for one that needs the network (and a key).
    """

    name: str
    label: str
    encoding: EncodingSpec | None = None
    load: Callable[..., Tokenizer] | None = None
    offline: bool = True

    def make(self, **options: Any) -> Tokenizer:
        if self.encoding is not None:
            tokenizer = TiktokenTokenizer(self.encoding)
            tokenizer.encoding  # noqa: B018 - load and verify now
            return tokenizer
        assert self.load is not None
        return self.load(**options)


# The tokenizers, one table: adding one is one entry here plus its test (tests/budget/test_tokenizer_table.py
# checks the Budget pickers and `mcp-lens tokens --encoding` offer exactly these).
TOKENIZERS: dict[str, TokenizerKind] = {
    kind.name: kind
    for kind in (
        TokenizerKind("o200k_base", "o200k_base — GPT-4o / 4.1 / o-series / GPT-5 (exact)", encoding=_O200K),
        TokenizerKind("cl100k_base", "cl100k_base — GPT-4 / 3.5 (exact)", encoding=_CL100K),
        TokenizerKind("claude", "Claude — ctok offline, newest family (reconstructed)", load=_claude),
        TokenizerKind("chars4", "characters ÷ 4 (estimate)", load=_chars),
        TokenizerKind(
            "anthropic",
            "Anthropic count_tokens API (online; runs only when you press Count)",
            load=_anthropic,
            offline=False,
        ),
    )
}
# The tiktoken encodings among them, by name (their rank files ship in resources/tokenizers).
ENCODINGS: dict[str, EncodingSpec] = {
    name: kind.encoding for name, kind in TOKENIZERS.items() if kind.encoding is not None
}


def offline_tokenizers() -> list[str]:
    """Tokenizers that work without a network: ``["o200k_base", "cl100k_base", "claude", "chars4"]``."""
    return [name for name, kind in TOKENIZERS.items() if kind.offline]


def all_tokenizers() -> list[str]:
    """Every tokenizer name; ``anthropic`` needs ANTHROPIC_API_KEY and the network."""
    return list(TOKENIZERS)


def get_tokenizer(name: str, **options: Any) -> Tokenizer:
    """A tokenizer by name. Raises `KeyError` for an unknown name, `TokenizerError` when it cannot load.

    Exact encoders are loaded here (not lazily at first count) so a broken installation fails early.
    ``claude`` accepts ``model=`` (a Claude model id or family; newest family by default);
    ``anthropic`` accepts the options of `inspector.budget.anthropic.AnthropicTokenizer`.
    """
    kind = TOKENIZERS.get(name)
    if kind is None:
        raise KeyError(f"unknown tokenizer {name!r}; choose one of {', '.join(all_tokenizers())}")
    return kind.make(**options)
