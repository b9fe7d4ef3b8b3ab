"""Tool calls that run as tasks, in both forms the protocol has had.

- 2025-11-25 (experimental core tasks): the server advertises ``capabilities.tasks`` (with
  ``requests.tools.call``) and marks tools with ``execution.taskSupport``; a ``tools/call`` carrying
  ``params.task = {ttl}`` is answered at once with ``{"task": Task}``; then ``tasks/get``,
  ``tasks/result`` (waits for the end and returns the tool's result), ``tasks/list``, ``tasks/cancel``
  and ``notifications/tasks/status``. Input the task needs arrives as ordinary server requests
  (``elicitation/create``) while ``tasks/result`` waits: the client's handlers answer them.
- 2026-07-28 (extension ``io.modelcontextprotocol/tasks``, advertised in the discover result's
  ``capabilities.extensions``): the client declares the extension in the request's
  ``clientCapabilities``; the server may answer ``resultType: "task"`` with the task in place of a
  result; the client polls ``tasks/get`` (honouring ``pollIntervalMs``) until the detailed task
  carries ``result`` or ``error``; ``inputRequests`` are answered with ``tasks/update``.

`TaskRunner` drives both over any requester with ``request(method, params, handle=...)`` (a
`Connection` or the core `Session`) and keeps every task it has seen in `tasks`, telling listeners
of each change. No Qt here: the Tasks pane and the CLI build on it.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from inspector.core.calls import RequestHandle
from inspector.core.client_handlers import ClientHandlers, declared_capabilities
from inspector.core.errors import LensError, ProtocolError
from inspector.core.findings import Finding, check_call_result

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities"
TERMINAL = frozenset({"completed", "failed", "cancelled"})
DEFAULT_POLL_MS = 1000
MIN_POLL_MS = 50
MAX_POLL_MS = 30_000
FETCH_GRACE_S = 5.0  # how long a finished 2025-11-25 task's tasks/result may take to answer
LEGACY, MODERN = "2025-11-25", "2026-07-28"

_local_ids = itertools.count(1)


class Requester(Protocol):
    async def request(self, method: str, params: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]: ...


def task_support(tool: Any) -> str | None:
    """A tool's ``execution.taskSupport`` (``required``, ``optional`` or ``forbidden``), if it says."""
    execution = tool.get("execution") if isinstance(tool, dict) else None
    value = execution.get("taskSupport") if isinstance(execution, dict) else None
    return value if value in ("required", "optional", "forbidden") else None


def task_form(era: str, capabilities: dict[str, Any]) -> str | None:
    """Which task form a server speaks: `LEGACY`, `MODERN` or None (no tasks)."""
    if era == "modern":
        extensions = capabilities.get("extensions")
        return MODERN if isinstance(extensions, dict) and TASKS_EXTENSION in extensions else None
    tasks = capabilities.get("tasks")
    if not isinstance(tasks, dict):
        return None
    requests = tasks.get("requests") if isinstance(tasks.get("requests"), dict) else {}
    tools = requests.get("tools") if isinstance(requests.get("tools"), dict) else {}
    return LEGACY if "call" in tools else None


def declares_tasks(params: dict[str, Any] | None, capabilities: dict[str, Any]) -> dict[str, Any]:
    """``params`` with the tasks extension declared in its own ``clientCapabilities`` (2026-07-28): the
    request's `_meta` wins over the connection's envelope, so only this request declares it."""
    out = dict(params or {})
    meta = dict(out.get("_meta") or {}) if isinstance(out.get("_meta"), dict) else {}
    declared = dict(capabilities)
    declared["extensions"] = {**(declared.get("extensions") or {}), TASKS_EXTENSION: {}}
    meta[CLIENT_CAPABILITIES_META] = declared
    out["_meta"] = meta
    return out


@dataclass
class TrackedTask:
    """One task as the client knows it, whichever form it came in."""

    task_id: str
    form: str
    tool: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    status: str = "working"
    status_message: str | None = None
    ttl_ms: int | None = None
    poll_interval_ms: int | None = None
    created_at: str | None = None
    last_updated_at: str | None = None
    input_requests: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    error: LensError | None = None
    findings: list[Finding] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)  # the last task object the server sent
    local_id: int = field(default_factory=lambda: next(_local_ids))
    started: float = field(default_factory=time.time)
    answering: bool = False  # input responses are being gathered or sent

    @property
    def done(self) -> bool:
        return self.status in TERMINAL

    @property
    def input_needed(self) -> bool:
        return self.status == "input_required" and bool(self.input_requests) and not self.answering

    def absorb(self, raw: dict[str, Any]) -> None:
        """Take in a task object of either form (``ttl``/``pollInterval`` or ``ttlMs``/``pollIntervalMs``)."""
        self.raw = dict(raw)
        if isinstance(raw.get("status"), str):
            self.status = raw["status"]
        message = raw.get("statusMessage")
        self.status_message = message if isinstance(message, str) else None
        for key, attr in (("ttl", "ttl_ms"), ("ttlMs", "ttl_ms"), ("pollInterval", "poll_interval_ms")):
            if key in raw:
                setattr(self, attr, raw[key] if isinstance(raw[key], int) else None)
        if isinstance(raw.get("pollIntervalMs"), int):
            self.poll_interval_ms = raw["pollIntervalMs"]
        for key, attr in (("createdAt", "created_at"), ("lastUpdatedAt", "last_updated_at")):
            if isinstance(raw.get(key), str):
                setattr(self, attr, raw[key])
        requests = raw.get("inputRequests")
        self.input_requests = requests if isinstance(requests, dict) and self.status == "input_required" else None
        if isinstance(raw.get("result"), dict):
            self.result = raw["result"]
        error = raw.get("error")
        if isinstance(error, dict) and self.error is None:
            code = error.get("code") if isinstance(error.get("code"), int) else None
            message = str(error.get("message") or "the task failed")
            self.error = ProtocolError(f"task failed: {message}", code=code, data=error.get("data"), method="tasks/get")

    def poll_seconds(self) -> float:
        ms = self.poll_interval_ms if self.poll_interval_ms is not None else DEFAULT_POLL_MS
        return min(max(ms, MIN_POLL_MS), MAX_POLL_MS) / 1000.0


def _task_object(result: dict[str, Any]) -> dict[str, Any] | None:
    """The task in a ``tools/call`` result: 2025-11-25 ``{"task": …}``, 2026-07-28 ``resultType: task``."""
    if result.get("resultType") == "task" and isinstance(result.get("taskId"), str):
        return result
    if isinstance(result.get("task"), dict) and isinstance(result["task"].get("taskId"), str):
        return result["task"]
    return None


async def answer_inputs(handlers: ClientHandlers | None, requests: dict[str, Any]) -> dict[str, Any]:
    """Answer a task's ``inputRequests`` with the client's handlers (the same dialogs as mid-call requests)."""
    responses: dict[str, Any] = {}
    for key, request in requests.items():
        method = request.get("method") if isinstance(request, dict) else None
        params = request.get("params") if isinstance(request, dict) and isinstance(request.get("params"), dict) else {}
        if method == "elicitation/create" and handlers is not None and handlers.elicitation is not None:
            responses[key] = await handlers.elicitation(params)
        elif method == "sampling/createMessage" and handlers is not None and handlers.sampling is not None:
            responses[key] = await handlers.sampling(params)
        elif method == "roots/list" and handlers is not None and handlers.roots is not None:
            responses[key] = {"roots": await handlers.roots()}
        else:
            raise LensError(f"the task asks for {method!r}, which this client cannot answer")
    return responses


Listener = Callable[[TrackedTask], None]


class TaskRunner:
    """Starts, follows, answers and cancels tasks on one server; `tasks` holds each, newest last."""

    def __init__(
        self,
        requester: Requester,
        *,
        form: Callable[[], str | None],
        handlers: Callable[[], ClientHandlers | None] = lambda: None,
        auto_answer: bool = False,
    ) -> None:
        self.requester = requester
        self.form = form
        self.handlers = handlers
        self.auto_answer = auto_answer  # answer input requests at once (the CLI) or wait for `answer` (the pane)
        self.tasks: dict[str, TrackedTask] = {}
        self.listeners: list[Listener] = []
        self._wake: dict[str, asyncio.Event] = {}

    # -- helpers -----------------------------------------------------------------------------
    def _changed(self, task: TrackedTask) -> None:
        for listener in list(self.listeners):
            listener(task)

    def _capabilities(self) -> dict[str, Any]:
        return declared_capabilities(self.handlers())

    async def _send(self, form: str, method: str, params: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if form == MODERN:
            params = declares_tasks(params, self._capabilities())
        return await self.requester.request(method, params, **kwargs)

    def _wake_up(self, task_id: str) -> None:
        if (event := self._wake.get(task_id)) is not None:
            event.set()

    # -- starting ------------------------------------------------------------------------------
    async def call(
        self, name: str, arguments: dict[str, Any], *, ttl_ms: int | None = None, tool: Any = None
    ) -> TrackedTask:
        """Call ``name`` as a task and follow it to its end; returns the finished task. A server that
        answers with a plain result (it ran the tool inline) gives a task that is already completed."""
        form = self.form()
        if form is None:
            raise LensError("this server does not support tasks", hint="Call the tool without 'Run as task'.")
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if form == LEGACY:
            params["task"] = {"ttl": ttl_ms} if ttl_ms is not None else {}
        started = await self._send(form, "tools/call", params, handle=RequestHandle("tools/call", timeout=60.0))
        created = _task_object(started)
        if created is None:  # ran inline: show it as a finished task all the same
            task = TrackedTask(task_id=f"(inline {next(_local_ids)})", form=form, tool=name, arguments=arguments)
            task.status, task.result = "completed", started
            task.findings = check_call_result(started, tool)
            self.tasks[task.task_id] = task
            self._changed(task)
            return task
        task = TrackedTask(task_id=created["taskId"], form=form, tool=name, arguments=arguments)
        task.absorb(created)
        self.tasks[task.task_id] = task
        self._changed(task)
        await self.follow(task, tool)
        return task

    async def follow(self, task: TrackedTask, tool: Any = None) -> None:
        """Poll ``tasks/get`` at the task's poll interval (woken early by a status notification) until the
        task ends; in the 2025-11-25 form ``tasks/result`` waits for the end meanwhile and brings the result."""
        self._wake[task.task_id] = wake = asyncio.Event()
        fetch = asyncio.ensure_future(self._fetch_result(task, tool)) if task.form == LEGACY else None
        try:
            while True:
                await self._poll(task, quiet=fetch is not None)
                if fetch is None and task.status in TERMINAL:
                    break
                if fetch is None and task.input_needed and self.auto_answer:
                    await self.answer(task)
                    continue
                if fetch is not None and (fetch.done() or task.status in TERMINAL - {"completed"}):
                    break
                wake.clear()
                waiter = asyncio.ensure_future(wake.wait())
                await asyncio.wait([waiter, *([fetch] if fetch else [])], timeout=task.poll_seconds())
                waiter.cancel()
            if fetch is not None:  # a cancelled or failed task's tasks/result ends with an error at once
                await asyncio.wait([fetch], timeout=FETCH_GRACE_S)
                await self._poll(task, quiet=True)
        finally:
            if fetch is not None and not fetch.done():
                fetch.cancel()
            self._wake.pop(task.task_id, None)
        if task.result is not None and not task.findings:
            task.findings = check_call_result(task.result, tool)
        self._changed(task)

    async def _poll(self, task: TrackedTask, *, quiet: bool = False) -> None:
        try:
            raw = await self._send(task.form, "tasks/get", {"taskId": task.task_id})
        except LensError as exc:
            if quiet:
                return
            if task.status not in TERMINAL:
                task.status, task.error = "failed", exc
            self._changed(task)
            return
        task.absorb(raw.get("task") if isinstance(raw.get("task"), dict) else raw)
        self._changed(task)

    async def _fetch_result(self, task: TrackedTask, tool: Any) -> None:
        """2025-11-25: ``tasks/result`` waits for the end (server requests for input arrive meanwhile)."""
        try:
            params = {"taskId": task.task_id}
            result = await self._send(task.form, "tasks/result", params, handle=RequestHandle("tasks/result"))
        except LensError as exc:
            task.error = exc
            if task.status not in TERMINAL:
                task.status = "failed"
        else:
            task.result = result
            task.findings = check_call_result(result, tool)
            task.status = "completed"
        self._changed(task)

    # -- acting on a task ------------------------------------------------------------------------
    async def answer(self, task: TrackedTask) -> None:
        """2026-07-28: answer the task's input requests through the client's handlers and ``tasks/update``."""
        if task.form != MODERN or not task.input_requests or task.answering:
            return
        task.answering = True
        self._changed(task)
        try:
            responses = await answer_inputs(self.handlers(), task.input_requests)
            await self._send(task.form, "tasks/update", {"taskId": task.task_id, "inputResponses": responses})
            task.input_requests = None
        finally:
            task.answering = False
            self._changed(task)
            self._wake_up(task.task_id)

    async def cancel(self, task: TrackedTask) -> None:
        """``tasks/cancel``; the task's own status says when it has stopped."""
        raw = await self._send(task.form, "tasks/cancel", {"taskId": task.task_id})
        if isinstance(raw.get("status"), str):
            task.absorb(raw)
        self._changed(task)
        self._wake_up(task.task_id)

    async def task_request(self, method: str, task_id: str | None = None) -> dict[str, Any]:
        """One ``tasks/get``, ``tasks/cancel`` or ``tasks/list``, raw, in the server's form (the CLI)."""
        params = {"taskId": task_id} if task_id is not None else {}
        return await self._send(self.form() or LEGACY, method, params)

    async def list(self) -> list[TrackedTask]:
        """2025-11-25 ``tasks/list``: every task the server holds (known ones updated, others added)."""
        raw = await self.requester.request("tasks/list", {})
        out = []
        for item in raw.get("tasks") or []:
            if not isinstance(item, dict) or not isinstance(item.get("taskId"), str):
                continue
            task = self.tasks.get(item["taskId"])
            if task is None:
                task = self.tasks[item["taskId"]] = TrackedTask(task_id=item["taskId"], form=LEGACY)
            task.absorb(item)
            out.append(task)
            self._changed(task)
        return out

    def on_notification(self, method: str, params: dict[str, Any]) -> None:
        """``notifications/tasks/status`` (either form): update the task it names."""
        if method != "notifications/tasks/status" or not isinstance(params, dict):
            return
        task_id = params.get("taskId")
        task = self.tasks.get(task_id) if isinstance(task_id, str) else None
        if task is None:
            return
        had_result = task.result
        task.absorb(params.get("task") if isinstance(params.get("task"), dict) else params)
        task.result = task.result or had_result
        self._changed(task)
        self._wake_up(task.task_id)
