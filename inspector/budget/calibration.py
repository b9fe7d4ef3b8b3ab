"""Claude counts beside Anthropic's ``count_tokens``, and a saved calibration per server.

`compare` asks the API (only when the user asks: it sends the tool list to Anthropic) what the tools
cost — the request with the ``tools`` parameter minus the same request without it, which is the tools
block plus the tool-use system prompt — and sets it beside ctok's reconstruction. "Save as calibration"
keeps the ratio (API ÷ ctok, on the tools block, the documented system prompt left as it is) for that
server and ctok family in ``calibrations.json`` in the app's data folder; the CLI's ``--calibration`` and
the Budget tab read it back, and the counts then say "calibrated".
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from inspector.budget.shapes import shaped_tool
from inspector.config.files import folder_lock, private_folder, stamped_sibling, write_atomic
from inspector.config.text_files import read_utf8

FILE_NAME = "claude-calibrations.json"


@dataclass(frozen=True)
class Comparison:
    """count_tokens beside ctok for one tool list: both with the tool-use system prompt."""

    api: int  # count_tokens: with tools − without tools
    reconstructed: int  # ctok: the tools block + the documented tool-use system prompt
    overhead: int  # the documented tool-use system prompt in both
    model: str
    family: str

    @property
    def difference(self) -> int:
        return self.api - self.reconstructed

    @property
    def ratio(self) -> float:
        """API ÷ ctok on the tools block (the system prompt taken out of both)."""
        ours = self.reconstructed - self.overhead
        return (self.api - self.overhead) / ours if ours > 0 else 1.0

    def describe(self) -> str:
        share = f"{self.difference / self.reconstructed * 100:+.1f}%" if self.reconstructed else "n/a"
        return (
            f"count_tokens API {self.api:,} · reconstructed {self.reconstructed:,} · "
            f"difference {self.difference:+,} ({share}) · {self.model}"
        )


@dataclass(frozen=True)
class Calibration:
    """A saved comparison: counts of the tools block are multiplied by `ratio`; `offset` is what was off."""

    server: str
    family: str
    model: str
    ratio: float
    offset: int
    api: int
    reconstructed: int
    saved_at: str

    def apply(self, tokens: int) -> int:
        return max(0, round(tokens * self.ratio))

    def describe(self) -> str:
        return (
            f"×{self.ratio:.4f} from count_tokens ({self.model}, {self.api:,} vs {self.reconstructed:,} "
            f"reconstructed, saved {self.saved_at[:10]})"
        )

    @classmethod
    def from_comparison(cls, server: str, comparison: Comparison) -> Calibration:
        return cls(
            server=server,
            family=comparison.family,
            model=comparison.model,
            ratio=round(comparison.ratio, 6),
            offset=comparison.difference,
            api=comparison.api,
            reconstructed=comparison.reconstructed,
            saved_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )


def compare(tools: list[dict[str, Any]], claude: Any, api: Any) -> Comparison:
    """ctok's figure for ``tools`` in the Anthropic shape beside count_tokens' (``api``: an AnthropicTokenizer)."""
    from inspector.budget.breakdown import BudgetCounter

    report = BudgetCounter(claude).report(tools, "anthropic")
    shaped = [shaped_tool(tool, "anthropic") for tool in tools if isinstance(tool, dict)]
    with_tools = api.input_tokens(api.request_body(tools=shaped))
    without = api.input_tokens(api.request_body())
    return Comparison(
        api=max(0, with_tools - without),
        reconstructed=report.grand_total,
        overhead=report.overhead,
        model=getattr(api, "model", "?"),
        family=getattr(claude, "family", "?"),
    )


class CalibratedTokenizer:
    """A Claude tokenizer whose counts are scaled by a saved calibration: figures say "calibrated"."""

    figure = "calibrated"
    exact = False
    segmentable = False

    def __init__(self, base: Any, calibration: Calibration) -> None:
        self.base = base
        self.calibration = calibration
        self.name = base.name
        self.model = base.model
        self.family = base.family
        self.tool_prompt = base.tool_prompt
        self.label = f"Claude {base.family} via ctok — {base.model} (calibrated ×{calibration.ratio:.3f})"

    def count(self, text: str) -> int:
        return self.calibration.apply(self.base.count(text))

    def count_many(self, texts: list[str]) -> list[int]:
        return [self.count(t) for t in texts]


def default_path() -> Path:
    from inspector.config.locations import app_data_dir

    return app_data_dir() / "mcp-lens" / FILE_NAME


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(read_utf8(path))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _read_for_update(path: Path) -> dict[str, Any]:
    """The file's calibrations before a save; a damaged file is moved aside (`.corrupt-<time>`), never
    overwritten, so the calibrations it holds can still be recovered by hand."""
    try:
        data = json.loads(read_utf8(path))
    except FileNotFoundError:
        return {}
    except ValueError:
        data = None
    if isinstance(data, dict):
        return data
    os.replace(path, stamped_sibling(path, "corrupt"))
    return {}


def damaged_note(path: Path | None = None) -> str | None:
    """What is wrong with the calibration file, when it exists and cannot be read (None otherwise)."""
    path = path or default_path()
    try:
        data = json.loads(read_utf8(path))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return f"{path} cannot be read ({getattr(exc, 'reason', None) or exc})"
    return None if isinstance(data, dict) else f"{path} is not a JSON object"


def load_calibration(server: str, family: str, path: Path | None = None) -> Calibration | None:
    """The calibration saved for ``server`` and ctok ``family``, or None."""
    entry = _read(path or default_path()).get(server, {})
    entry = entry.get(family) if isinstance(entry, dict) else None
    if not isinstance(entry, dict):
        return None
    try:
        calibration = Calibration(**{key: entry[key] for key in Calibration.__dataclass_fields__})
    except (KeyError, TypeError):
        return None
    valid = isinstance(calibration.ratio, (int, float)) and 0 < calibration.ratio < 10
    return calibration if valid else None


def save_calibration(calibration: Calibration, path: Path | None = None) -> Path:
    """Store ``calibration`` (replacing that server's and family's); written atomically. Returns the file."""
    path = path or default_path()
    private_folder(path.parent)
    with folder_lock(path.parent):  # read-merge-write: another window's calibrations stay
        data = _read_for_update(path)
        server = data.get(calibration.server)
        server = server if isinstance(server, dict) else {}
        server[calibration.family] = asdict(calibration)
        data[calibration.server] = server
        write_atomic(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path


def calibrated(base: Any, server: str, path: Path | None = None) -> Any:
    """``base`` scaled by the calibration saved for ``server`` and its family, or ``base`` when none is saved."""
    calibration = load_calibration(server, getattr(base, "family", ""), path)
    return base if calibration is None else CalibratedTokenizer(base, calibration)
