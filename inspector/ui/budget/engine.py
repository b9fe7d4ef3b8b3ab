"""Counting off the UI thread: one `BudgetCounter` per tokenizer, newest request wins.

A report of a big list takes a noticeable fraction of a second, so it runs on a worker thread through
the asyncio loop's executor; the UI only receives finished reports. Requests made while one runs are
coalesced: only the latest is counted next, and a result that is already stale is not emitted.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.budget.breakdown import BudgetCounter, BudgetReport
from inspector.budget.lints import LintOptions
from inspector.budget.tokenizers import TOKENIZERS, Tokenizer, get_tokenizer

ANTHROPIC = "anthropic"
FALLBACK = "o200k_base"
# shown before a tokenizer is loaded (loading reads a rank file); the loaded label wins later
LABELS = {name: kind.label for name, kind in TOKENIZERS.items()}


def anthropic_available() -> bool:
    return bool(os.environ.get("ANTHROPIC_API_KEY"))


def tokenizer_choices() -> list[tuple[str, str]]:
    """(name, label) of the tokenizers the picker offers: offline ones, Anthropic only with a key."""
    return [
        (name, kind.label)
        for name, kind in TOKENIZERS.items()
        if kind.offline or (name == ANTHROPIC and anthropic_available())
    ]


def offline_or_fallback(name: str) -> str:
    """Views that count as you type never call the network: they use an offline tokenizer."""
    return name if name != ANTHROPIC else FALLBACK


def figure_words(report: Any) -> str:
    """What a report's figures are, for the views: exact, reconstructed, estimate, count_tokens API, calibrated."""
    return str(getattr(report, "figure", "") or ("exact" if getattr(report, "exact", False) else "estimate"))


def split_key(key: str) -> tuple[str, dict[str, Any]]:
    """``"claude:claude-opus-4-7"`` → ``("claude", {"model": "claude-opus-4-7"})``; a plain name has no options."""
    name, _, model = key.partition(":")
    return name, ({"model": model} if model else {})


@dataclass
class Counters:
    """One counter per tokenizer key (a name, or ``claude:MODEL``), created on first use (loading is done
    in the caller's thread); a Claude counter for a server with a saved calibration is its own counter."""

    counters: dict[str, BudgetCounter] = field(default_factory=dict)
    tokenizers: dict[str, Tokenizer] = field(default_factory=dict)

    def tokenizer(self, key: str) -> Tokenizer:
        if key not in self.tokenizers:
            name, options = split_key(key)
            self.tokenizers[key] = get_tokenizer(name, **options)
        return self.tokenizers[key]

    def get(self, key: str, server: str = "") -> BudgetCounter:
        tokenizer: Any = self.tokenizer(key)
        if server and getattr(tokenizer, "figure", "") == "reconstructed":
            from inspector.budget.calibration import CalibratedTokenizer, load_calibration

            calibration = load_calibration(server, tokenizer.family)
            if calibration is not None:
                key = f"{key}@{server}×{calibration.ratio}"
                tokenizer = CalibratedTokenizer(tokenizer, calibration)
        counter = self.counters.get(key)
        if counter is None:
            counter = self.counters[key] = BudgetCounter(tokenizer)
        return counter


@dataclass
class Job:
    tools: list[dict[str, Any]]
    tokenizer: str
    shape: str
    options: LintOptions | None = None
    host: str = ""  # count the list as this host sends it (ui/budget/host_picker.py); "" for the raw list
    host_server: str = ""  # the server's name in the host's configuration (Claude Code prefixes it)
    window: int = 200_000  # a host's deferral threshold is a share of the window
    server: str = ""  # a Claude count applies the calibration saved for this server


class ReportRunner(QObject):
    """Counts `Job`s on a worker thread. Emits `ready(report, seconds)` or `failed(message)`."""

    ready = Signal(object, float)
    failed = Signal(str)
    busyChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.counters = Counters()
        self._pending: Job | None = None
        self.host_of: Any = None  # () -> (host, server, window): the pane's host choice, applied to each job
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def request(self, job: Job) -> None:
        if self.host_of is not None:
            job.host, job.host_server, job.window = self.host_of()
        self._pending = job
        if not self.busy:
            self._task = asyncio.ensure_future(self._drain())
            self.busyChanged.emit(True)

    def _count(self, job: Job) -> tuple[BudgetReport, float]:
        started = time.perf_counter()
        if job.host:
            from inspector.ui.budget.host_picker import host_report

            counter = self.counters.get(job.tokenizer)
            report = host_report(counter, job.tools, job.host, job.host_server, job.window)
            return report, time.perf_counter() - started
        report = self.counters.get(job.tokenizer, job.server).report(job.tools, job.shape, lint_options=job.options)
        return report, time.perf_counter() - started

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending is not None:
                job, self._pending = self._pending, None
                try:
                    report, seconds = await loop.run_in_executor(None, self._count, job)
                except Exception as exc:  # a tokenizer that cannot load, a network error, a broken list
                    if self._pending is None:
                        self.failed.emit(describe_error(exc))
                    continue
                if self._pending is None:
                    self.ready.emit(report, seconds)
        finally:
            self.busyChanged.emit(False)


def describe_error(exc: BaseException) -> str:
    message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return f"{message or type(exc).__name__}"
