"""The record of tool calls made by hand: arguments, duration, outcome; for re-running and copying."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from inspector.core.calls import RequestHandle
from inspector.core.errors import ConnectFailed, LensError, ProtocolError, RequestTimeout

PENDING, OK, TOOL_ERROR, PROTOCOL_ERROR, TIMEOUT, CANCELLED, FAILED = (
    "running",
    "ok",
    "isError",
    "protocol error",
    "timeout",
    "cancelled",
    "failed",
)
LOST, CRASHED = "connection lost", "server exited"

_ids = itertools.count(1)


@dataclass
class CallRecord:
    """One `tools/call` the user made. `result` is the raw result dict; `error` the core's error."""

    tool: str
    arguments: dict[str, Any]
    handle: RequestHandle | None  # None: a call run as a task (the Tasks tab follows it) or kept from before
    id: int = field(default_factory=lambda: next(_ids))
    started: float = field(default_factory=time.time)
    duration_ms: float | None = None
    outcome: str = PENDING
    result: dict[str, Any] | None = None
    error: LensError | None = None
    findings: list[Any] = field(default_factory=list)
    # 2026-07-28 multi round-trip calls: the round being run, whether the user is being asked for
    # input right now, and every answer given (input-request key → result), for a re-run.
    round: int = 1
    waiting: bool = False
    answers: dict[str, Any] = field(default_factory=dict)
    as_task: bool = False  # run as a task: its status and result are the Tasks tab's
    earlier: bool = False  # kept from an earlier session (`history_file`): no error object, its text
    error_text: str | None = None

    def finish(self, result: dict[str, Any] | None = None, error: LensError | None = None) -> None:
        self.duration_ms = (time.time() - self.started) * 1000.0
        self.waiting = False
        self.result, self.error = result, error
        if error is None:
            self.outcome = TOOL_ERROR if isinstance(result, dict) and result.get("isError") is True else OK
        elif isinstance(error, ProtocolError):
            self.outcome = PROTOCOL_ERROR
        elif isinstance(error, RequestTimeout):
            self.outcome = CANCELLED if error.details.get("cancelled") else TIMEOUT
        elif isinstance(error, ConnectFailed) and error.details.get("server_exit") is not None:
            self.outcome = CRASHED
        elif isinstance(error, ConnectFailed) and error.details.get("lost"):
            self.outcome = LOST
        else:
            self.outcome = FAILED

    @property
    def done(self) -> bool:
        return self.outcome != PENDING

    @property
    def progress_text(self) -> str:
        """What the call is waiting for: the server, or the user's answer (with the round)."""
        if self.waiting:
            return f"waiting for your answer (round {self.round})"
        return "waiting for the server…" if self.round == 1 else f"waiting for the server… (round {self.round})"

    @property
    def outcome_text(self) -> str:
        """The outcome, with the number of rounds of a multi round-trip call, and "task" for one run as a task."""
        text = f"{self.outcome} ({self.round} rounds)" if self.round > 1 else self.outcome
        return f"task · {text}" if self.as_task else text
