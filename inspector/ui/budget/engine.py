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


@dataclass
class Counters:
    """One counter per tokenizer name, created on first use (loading is done in the caller's thread)."""

    counters: dict[str, BudgetCounter] = field(default_factory=dict)
    tokenizers: dict[str, Tokenizer] = field(default_factory=dict)

    def tokenizer(self, name: str) -> Tokenizer:
        if name not in self.tokenizers:
            self.tokenizers[name] = get_tokenizer(name)
        return self.tokenizers[name]

    def get(self, name: str) -> BudgetCounter:
        counter = self.counters.get(name)
        if counter is None:
            counter = self.counters[name] = BudgetCounter(self.tokenizer(name))
        return counter


@dataclass
class Job:
    tools: list[dict[str, Any]]
    tokenizer: str
    shape: str
    options: LintOptions | None = None


class ReportRunner(QObject):
    """Counts `Job`s on a worker thread. Emits `ready(report, seconds)` or `failed(message)`."""

    ready = Signal(object, float)
    failed = Signal(str)
    busyChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.counters = Counters()
        self._pending: Job | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def request(self, job: Job) -> None:
        self._pending = job
        if not self.busy:
            self._task = asyncio.ensure_future(self._drain())
            self.busyChanged.emit(True)

    def _count(self, job: Job) -> tuple[BudgetReport, float]:
        started = time.perf_counter()
        report = self.counters.get(job.tokenizer).report(job.tools, job.shape, lint_options=job.options)
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
