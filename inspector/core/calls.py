"""In-flight requests: a timeout that progress resets, a hard maximum, and cancellation."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import anyio

ProgressCallback = Callable[["Progress"], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class Progress:
    progress: float
    total: float | None
    message: str | None


@dataclass
class RequestHandle:
    """Lets a caller watch and cancel one request while it runs.

    `cancel()` abandons the request: the SDK dispatcher then sends `notifications/cancelled`.
    """

    method: str
    timeout: float | None = None
    max_total: float | None = None
    progress: list[Progress] = field(default_factory=list)
    cancelled: bool = False
    timed_out: bool = False
    _scope: anyio.CancelScope | None = None
    _hard_deadline: float = math.inf

    def cancel(self) -> None:
        self.cancelled = True
        if self._scope is not None:
            self._scope.cancel()

    def _arm(self, scope: anyio.CancelScope) -> None:
        self._scope = scope
        now = anyio.current_time()
        self._hard_deadline = now + self.max_total if self.max_total is not None else math.inf
        self._reset(now)

    def _reset(self, now: float) -> None:
        """Push the deadline out by `timeout` from now, never past the hard maximum."""
        assert self._scope is not None
        soft = now + self.timeout if self.timeout is not None else math.inf
        self._scope.deadline = min(soft, self._hard_deadline)

    def _on_progress(self, item: Progress) -> None:
        self.progress.append(item)
        if self._scope is not None and not self.cancelled:
            self._reset(anyio.current_time())

    @property
    def deadline_hit(self) -> bool:
        return self._scope is not None and self._scope.cancelled_caught and not self.cancelled
