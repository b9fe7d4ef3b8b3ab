"""In-flight requests: a timeout that progress resets, a hard maximum, and cancellation.

No SDK or anyio import: both the SDK-based connection and the CLI's lean client use it. Times
are event-loop times (`loop.time()`, which is also anyio's clock on asyncio).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

ProgressCallback = Callable[["Progress"], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class Progress:
    progress: float
    total: float | None
    message: str | None


@dataclass
class RequestHandle:
    """Lets a caller watch and cancel one request while it runs.

    `timeout` restarts on every progress notification; `max_total` never moves. `cancel()`
    abandons the request, and the client sends `notifications/cancelled`.
    """

    method: str
    timeout: float | None = None
    max_total: float | None = None
    progress: list[Progress] = field(default_factory=list)
    cancelled: bool = False
    request_id: int | str | None = None
    _set_deadline: Callable[[float], None] | None = None
    _cancel: Callable[[], None] | None = None
    _hard_deadline: float = math.inf

    def cancel(self) -> None:
        self.cancelled = True
        if self._cancel is not None:
            self._cancel()

    def arm(self, set_deadline: Callable[[float], None], cancel: Callable[[], None]) -> None:
        """Called by the client when the request starts, with its timeout scope's controls."""
        self._set_deadline, self._cancel = set_deadline, cancel
        now = asyncio.get_running_loop().time()
        self._hard_deadline = now + self.max_total if self.max_total is not None else math.inf
        self._reset(now)
        if self.cancelled:
            cancel()

    def _reset(self, now: float) -> None:
        """Push the deadline out by `timeout` from now, never past the hard maximum."""
        if self._set_deadline is not None:
            soft = now + self.timeout if self.timeout is not None else math.inf
            self._set_deadline(min(soft, self._hard_deadline))

    def hold(self) -> None:
        """The server is waiting on the client (a person answering it): only the hard maximum applies."""
        if self._set_deadline is not None and not self.cancelled:
            self._set_deadline(self._hard_deadline)

    def release(self) -> None:
        """The client answered: the progress timeout starts again from now."""
        if not self.cancelled:
            self._reset(asyncio.get_running_loop().time())

    def on_progress(self, item: Progress) -> None:
        self.progress.append(item)
        if not self.cancelled:
            self._reset(asyncio.get_running_loop().time())

    def ran_past_max(self) -> bool:
        """The hard maximum (not the progress timeout) is what ran out."""
        now = asyncio.get_running_loop().time()
        return self.max_total is not None and now >= self._hard_deadline - 1e-3

    def describe_timeout(self) -> str:
        if self.ran_past_max():
            return f"{self.method} ran past its maximum of {self.max_total:g}s"
        return f"{self.method} timed out after {self.timeout:g}s without a response or progress"
