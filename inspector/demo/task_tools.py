"""``research_topic``: a tool that runs as a task, in both task forms, or as a plain call.

- 2025-11-25 (experimental core tasks): ``capabilities.tasks`` (list, cancel, ``tools/call``) in the
  ``initialize`` result; the tool is listed with ``execution.taskSupport: "optional"``; a
  ``tools/call`` with ``params.task`` gets ``{"task": Task}`` at once, then ``tasks/get``,
  ``tasks/result`` (waits for the end), ``tasks/list`` and ``tasks/cancel``; status changes are sent
  as ``notifications/tasks/status``.
- 2026-07-28 (extension ``io.modelcontextprotocol/tasks``, advertised in ``server/discover``): when
  the request's client capabilities declare the extension, the call is answered with
  ``resultType: "task"``; then ``tasks/get`` (the detailed task, with its result when done),
  ``tasks/update`` (input responses for an ``input_required`` task) and ``tasks/cancel``.
- Otherwise the tool runs inside the call, reporting progress.

``MCPServer`` has no task support, so a middleware (the SDK's public ``middleware=`` hook) serves it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, Notification, ToolAnnotations
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, Field, ValidationError

from inspector.demo import icons
from inspector.demo.task_board import DemoTask, TaskBoard

TASK_TOOL = "research_topic"
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
CLIENT_CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities"
RELATED_TASK_META = "io.modelcontextprotocol/related-task"
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"publish": {"type": "boolean", "title": "Publish the findings", "default": True}},
    "required": ["publish"],
}

Step = Callable[[int, int, str], Awaitable[None]]

Topic = Annotated[str, Field(min_length=1, description="What to research.")]
Steps = Annotated[int, Field(ge=1, le=50, description="Number of steps.")]
Delay = Annotated[float, Field(ge=0, le=10, description="Seconds per step.")]
Confirm = Annotated[bool, Field(description="When run as a task: ask the user before publishing.")]
FailAt = Annotated[int, Field(ge=0, le=50, description="Fail at this step (0: never).")]


class ResearchArguments(BaseModel):
    """``research_topic``'s arguments, for the task path (the tool's own defaults and limits)."""

    topic: Topic = "MCP tasks"
    steps: Steps = 5
    delay: Delay = 0.6
    confirm: Confirm = False
    fail_at_step: FailAt = 0


async def research(topic: str, steps: int, delay: float, fail_at_step: int, on_step: Step) -> str:
    """The work itself: ``steps`` steps of ``delay`` seconds, each reported through ``on_step``."""
    for step in range(1, steps + 1):
        await anyio.sleep(delay)  # a cancelled task stops here
        if step == fail_at_step:
            raise MCPError(code=INTERNAL_ERROR, message=f"Simulated failure at step {step} of {steps}")
        await on_step(step, steps, f"Step {step} of {steps}: reading about {topic}")
    return f"Research on {topic!r} finished: {steps} sources read, 3 findings."


async def research_topic(
    ctx: Context,
    topic: Topic = "MCP tasks",
    steps: Steps = 5,
    delay: Delay = 0.6,
    confirm: Confirm = False,
    fail_at_step: FailAt = 0,
) -> str:
    """Research a topic for steps × delay seconds. Runs as a task when the client asks (either task form),
    reporting status messages; cancellable; with confirm, a task asks the user before it ends."""

    async def progress(step: int, total: int, message: str) -> None:
        await ctx.report_progress(step, total, message)

    text = await research(topic, steps, delay, fail_at_step, progress)
    return text + (" (confirm applies only when run as a task)" if confirm else "")


class _TaskNotification(Notification[dict[str, Any], str]):
    """A notification the SDK has no model for (``notifications/tasks/status``)."""


class TaskSupport:
    """Server middleware: both task forms for ``research_topic``."""

    def __init__(self, board: TaskBoard) -> None:
        self.board = board

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
        params: dict[str, Any] = dict(ctx.params or {})
        if ctx.method == "tools/call" and params.get("name") == TASK_TOOL:
            if modern and _declares_tasks(params):
                return {"resultType": "task", **self._start(params).v2()}
            if not modern and params.get("task") is not None:
                return {"task": self._start(params, _ttl(params), ctx.session).v1()}
            return await call_next(ctx)
        handler = (MODERN if modern else LEGACY).get(ctx.method)
        if handler is not None:
            return await handler(self, params)
        result = await call_next(ctx)
        if isinstance(result, dict):
            _advertise(ctx.method, modern, result)
        return result

    def _start(self, params: dict[str, Any], ttl_ms: int | None = None, session: Any = None) -> DemoTask:
        try:
            args = ResearchArguments.model_validate(params.get("arguments") or {})
        except ValidationError as exc:
            raise MCPError(code=INVALID_PARAMS, message=f"Invalid arguments for {TASK_TOOL}: {exc}") from None

        async def work(task: DemoTask) -> dict[str, Any]:
            async def status(step: int, total: int, message: str) -> None:
                await task.set_status("working", message)

            text = await research(args.topic, args.steps, args.delay, args.fail_at_step, status)
            if args.confirm:
                text += " " + await (_confirm(task) if session is None else _confirm_legacy(task, session))
            return {"content": [{"type": "text", "text": text}], "isError": False}

        task = self.board.start(work, **({"ttl_ms": ttl_ms} if ttl_ms is not None else {}))
        task.status_message = f"Starting research on {args.topic}"
        if session is not None:
            task.listeners.append(_status_notifier(session))
        return task

    # -- 2025-11-25 ---------------------------------------------------------------------------
    async def v1_get(self, params: dict[str, Any]) -> dict[str, Any]:
        return self.board.get(params.get("taskId")).v1()

    async def v1_result(self, params: dict[str, Any]) -> dict[str, Any]:
        task = self.board.get(params.get("taskId"))
        await task.finished.wait()
        if task.status == "completed":
            return {**(task.result or {}), "_meta": {RELATED_TASK_META: {"taskId": task.task_id}}}
        error = task.error or {"code": INVALID_PARAMS, "message": f"Task {task.task_id} was cancelled"}
        raise MCPError(code=error["code"], message=error["message"], data={"taskId": task.task_id})

    async def v1_list(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"tasks": [task.v1() for task in self.board.all()]}

    async def v1_cancel(self, params: dict[str, Any]) -> dict[str, Any]:
        return (await self.board.cancel(params.get("taskId"))).v1()

    # -- 2026-07-28 extension -----------------------------------------------------------------
    async def v2_get(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"resultType": "complete", **self.board.get(params.get("taskId")).v2()}

    async def v2_update(self, params: dict[str, Any]) -> dict[str, Any]:
        responses = params.get("inputResponses")
        if not isinstance(responses, dict):
            raise MCPError(code=INVALID_PARAMS, message="tasks/update needs inputResponses (an object)")
        self.board.get(params.get("taskId")).answer(responses)
        return {"resultType": "complete"}

    async def v2_cancel(self, params: dict[str, Any]) -> dict[str, Any]:
        await self.board.cancel(params.get("taskId"))
        return {"resultType": "complete"}


Handler = Callable[[TaskSupport, dict[str, Any]], Awaitable[dict[str, Any]]]
LEGACY: dict[str, Handler] = {
    "tasks/get": TaskSupport.v1_get,
    "tasks/result": TaskSupport.v1_result,
    "tasks/list": TaskSupport.v1_list,
    "tasks/cancel": TaskSupport.v1_cancel,
}
MODERN: dict[str, Handler] = {
    "tasks/get": TaskSupport.v2_get,
    "tasks/update": TaskSupport.v2_update,
    "tasks/cancel": TaskSupport.v2_cancel,
}


async def _confirm(task: DemoTask) -> str:
    """Ask (through the task's ``input_required`` state) whether to publish."""
    request = {"method": "elicitation/create", "params": {"mode": "form", "message": "Publish the findings?"}}
    request["params"]["requestedSchema"] = CONFIRM_SCHEMA
    responses = await task.ask({"confirm": request}, "Waiting for the user: publish the findings?")
    await task.set_status("working", "Finishing up")
    answer = responses.get("confirm") if isinstance(responses.get("confirm"), dict) else {}
    content = answer.get("content") if isinstance(answer.get("content"), dict) else {}
    if answer.get("action") == "accept" and content.get("publish") is True:
        return "Published."
    return f"Not published (the user chose {answer.get('action', 'nothing')})."


async def _confirm_legacy(task: DemoTask, session: Any) -> str:
    """2025-11-25: ask with a classic ``elicitation/create`` request while the task is ``input_required``."""
    await task.set_status("input_required", "Waiting for the user: publish the findings?")
    answer = await session.elicit_form("Publish the findings?", requested_schema=CONFIRM_SCHEMA)
    await task.set_status("working", "Finishing up")
    if answer.action == "accept" and (answer.content or {}).get("publish") is True:
        return "Published."
    return f"Not published (the user chose {answer.action})."


def _declares_tasks(params: dict[str, Any]) -> bool:
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    capabilities = meta.get(CLIENT_CAPABILITIES_META) if isinstance(meta.get(CLIENT_CAPABILITIES_META), dict) else {}
    extensions = capabilities.get("extensions") if isinstance(capabilities.get("extensions"), dict) else {}
    return TASKS_EXTENSION in extensions


def _ttl(params: dict[str, Any]) -> int | None:
    ttl = (params.get("task") or {}).get("ttl") if isinstance(params.get("task"), dict) else None
    return ttl if isinstance(ttl, int) and ttl > 0 else None


def _status_notifier(session: Any) -> Callable[[DemoTask], Awaitable[None]]:
    async def notify(task: DemoTask) -> None:
        await session.send_notification(_TaskNotification(method="notifications/tasks/status", params=task.v1()))

    return notify


def _advertise(method: str, modern: bool, result: dict[str, Any]) -> None:
    """Say that tasks are supported: capabilities (either form) and the tool's ``execution`` (2025-11-25)."""
    if method == "initialize" and not modern:
        capabilities = result.setdefault("capabilities", {})
        capabilities["tasks"] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    elif method == "server/discover" and modern:
        result.setdefault("capabilities", {}).setdefault("extensions", {})[TASKS_EXTENSION] = {}
    elif method == "tools/list" and not modern:
        for tool in result.get("tools") or []:
            if isinstance(tool, dict) and tool.get("name") == TASK_TOOL:
                tool["execution"] = {"taskSupport": "optional"}


def register(server: MCPServer, board: TaskBoard) -> None:
    """Add ``research_topic`` and the task middleware to ``server``."""
    server.add_tool(
        research_topic,
        title="Research a topic (runs as a task)",
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=False),
        structured_output=False,
        icons=[icons.svg()],
    )
    server.middleware.append(TaskSupport(board))
