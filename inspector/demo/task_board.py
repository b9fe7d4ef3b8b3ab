"""The demo's task store: tasks of both forms, and how each form puts a task on the wire.

A task is one background run of a task-capable tool. 2025-11-25 (experimental core tasks) shows it
as ``Task`` (``ttl``, ``pollInterval``; results through ``tasks/result``); the 2026-07-28 extension
``io.modelcontextprotocol/tasks`` as a detailed task (``ttlMs``, ``pollIntervalMs``, and the
``inputRequests``, ``result`` or ``error`` its status calls for).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS

Status = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})
DEFAULT_TTL_MS = 600_000
POLL_INTERVAL_MS = 500


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class DemoTask:
    """One task: its status, and what it finished with or is waiting for."""

    task_id: str
    ttl_ms: int | None
    created_at: str = field(default_factory=_now)
    last_updated_at: str = field(default_factory=_now)
    created: float = field(default_factory=time.monotonic)
    status: Status = "working"
    status_message: str | None = None
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    input_requests: dict[str, Any] | None = None
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    listeners: list[Callable[[DemoTask], Awaitable[None]]] = field(default_factory=list)
    _answer: asyncio.Future[dict[str, Any]] | None = None
    _runner: asyncio.Task[None] | None = None

    async def set_status(self, status: Status, message: str | None = None) -> None:
        """Change status (and message); tell the listeners (status notifications)."""
        if self.status in TERMINAL:
            return
        self.status, self.status_message, self.last_updated_at = status, message, _now()
        if status in TERMINAL:
            self.finished.set()
        for listener in list(self.listeners):
            with contextlib.suppress(Exception):  # a client gone away must not fail the task
                await listener(self)

    async def ask(self, input_requests: dict[str, Any], message: str) -> dict[str, Any]:
        """Wait in ``input_required`` for the client's input responses (2026-07-28 ``tasks/update``)."""
        self.input_requests = input_requests
        self._answer = asyncio.get_running_loop().create_future()
        await self.set_status("input_required", message)
        try:
            return await self._answer
        finally:
            self.input_requests, self._answer = None, None

    def answer(self, input_responses: dict[str, Any]) -> None:
        """Deliver ``tasks/update`` input responses to a task waiting in ``input_required``."""
        if self.status != "input_required" or self._answer is None or self._answer.done():
            raise MCPError(code=INVALID_PARAMS, message=f"Task {self.task_id} is not waiting for input")
        self._answer.set_result(input_responses)

    def v1(self) -> dict[str, Any]:
        """The 2025-11-25 ``Task`` object."""
        task: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "ttl": self.ttl_ms,
            "pollInterval": POLL_INTERVAL_MS,
        }
        if self.status_message is not None:
            task["statusMessage"] = self.status_message
        return task

    def v2(self) -> dict[str, Any]:
        """The 2026-07-28 extension's detailed task (what ``tasks/get`` returns, minus ``resultType``)."""
        task: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "ttlMs": self.ttl_ms,
            "pollIntervalMs": POLL_INTERVAL_MS,
        }
        if self.status_message is not None:
            task["statusMessage"] = self.status_message
        if self.status == "input_required":
            task["inputRequests"] = self.input_requests or {}
        elif self.status == "completed":
            task["result"] = {"resultType": "complete", **(self.result or {})}
        elif self.status == "failed":
            task["error"] = self.error or {"code": INTERNAL_ERROR, "message": "failed"}
        return task


Work = Callable[[DemoTask], Awaitable[dict[str, Any]]]
"""A task body: runs with its task (to report status and ask for input), returns the result dict."""


class TaskBoard:
    """Every task of one server process, by id; each runs as an asyncio task of its own."""

    def __init__(self) -> None:
        self._tasks: dict[str, DemoTask] = {}

    def start(self, work: Work, ttl_ms: int | None = DEFAULT_TTL_MS) -> DemoTask:
        """Create a task and run ``work`` in the background."""
        self._expire()
        task = DemoTask(task_id=str(uuid.uuid4()), ttl_ms=ttl_ms)
        self._tasks[task.task_id] = task
        task._runner = asyncio.ensure_future(self._run(task, work))
        return task

    def get(self, task_id: Any) -> DemoTask:
        self._expire()
        task = self._tasks.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown task: {task_id!r}")
        return task

    def all(self) -> list[DemoTask]:
        self._expire()
        return list(self._tasks.values())

    async def cancel(self, task_id: Any) -> DemoTask:
        """Stop a task that has not finished; a finished one cannot be cancelled."""
        task = self.get(task_id)
        if task.status in TERMINAL:
            raise MCPError(code=INVALID_PARAMS, message=f"Task {task.task_id} is already {task.status}")
        if task._runner is not None:
            task._runner.cancel()
        await task.set_status("cancelled", "Cancelled at the client's request.")
        return task

    async def _run(self, task: DemoTask, work: Work) -> None:
        try:
            result = await work(task)
        except asyncio.CancelledError:
            await task.set_status("cancelled", "Cancelled.")
        except MCPError as exc:
            task.error = {"code": exc.code, "message": exc.message}
            await task.set_status("failed", exc.message)
        except Exception as exc:  # the task fails; the server goes on
            task.error = {"code": INTERNAL_ERROR, "message": f"{type(exc).__name__}: {exc}"}
            await task.set_status("failed", task.error["message"])
        else:
            task.result = result
            await task.set_status("completed", "Done.")

    def _expire(self) -> None:
        now = time.monotonic()
        for task_id, task in list(self._tasks.items()):
            if task.ttl_ms is not None and task.status in TERMINAL and now - task.created > task.ttl_ms / 1000:
                del self._tasks[task_id]
