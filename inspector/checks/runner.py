"""Running a collection: its steps in order, each against its server, each outcome with its reasons
and the exact request and response bytes from the connection's traffic record.

The runner does not know how a server is reached: an `Opener` turns a step's server name (a profile
name, or ``""`` for the run's one target) and a `TrafficStore` into an unopened connection (one with a
``live_store``, an app's already-open session, records there instead, and its steps' bytes are read there). A server
that cannot be reached fails its steps with the reason; the other servers' steps still run.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from contextlib import AsyncExitStack, suppress
from dataclasses import dataclass, field
from typing import Any, Protocol

from inspector.checks.assertions import Observed, evaluate, needs_tool
from inspector.checks.collection import Collection, CollectionError, Step, env_references, resolve
from inspector.checks.jsonpath import PathError, get_path
from inspector.checks.secret_references import redacted_fields
from inspector.core.errors import ConnectFailed, LensError, ProtocolError
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import SeqCounter, TrafficStore


class StepConnection(Protocol):
    """What a step needs of its connection: a `core.operations.Operations` (lean or the SDK's, from
    `core/open_connection.py`), or the app's open session (`ui/collections/live.py`)."""

    tools: Any  # the last tool listing, if any

    async def list_tools(self) -> Any: ...
    def new_handle(self, method: str) -> Any: ...
    async def request_rounds(self, method: str, params: dict[str, Any], **kwargs: Any) -> dict[str, Any]: ...


Opener = Callable[[str, TrafficStore], Any]  # → an unopened connection (``async with``); may raise LensError
PASSED, FAILED, UNREACHABLE = "passed", "failed", "unreachable"
_IMPLICIT = [{"kind": "success"}]  # a step without assertions must succeed
DEFAULT_TOKENIZER = "o200k_base"  # as `mcp-lens tokens`


@dataclass
class CheckResult:
    kind: str
    passed: bool
    reason: str


@dataclass
class WireItem:
    """One traffic entry of a step: its seq, direction and the exact bytes as text."""

    seq: int
    direction: str
    kind: str
    raw: str


@dataclass
class StepResult:
    step: Step
    status: str  # PASSED | FAILED | UNREACHABLE
    reason: str = ""  # the first failed check's reason, or why the step could not run
    checks: list[CheckResult] = field(default_factory=list)
    elapsed_ms: float | None = None
    response: dict[str, Any] | None = None
    wire: list[WireItem] = field(default_factory=list)
    saved: dict[str, Any] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.status == PASSED


@dataclass
class RunResult:
    collection: Collection
    steps: list[StepResult]
    elapsed_ms: float

    def count(self, status: str) -> int:
        return sum(1 for s in self.steps if s.status == status)


class _Server:
    def __init__(
        self, conn: StepConnection | None = None, store: TrafficStore | None = None, failure: str = ""
    ) -> None:
        self.conn, self.store, self.failure = conn, store, failure


class Runner:
    def __init__(self, opener: Opener, *, env: Mapping[str, str] | None = None, one_server: bool = False) -> None:
        self.opener = opener
        self.env = os.environ if env is None else env
        self.one_server = one_server
        self.seqs = SeqCounter()
        self._counter: Any = None
        self._hidden: list[tuple[str, str]] = []  # (a ${VAR}'s value as JSON text, "${VAR}")

    async def run(self, collection: Collection) -> RunResult:
        started = time.perf_counter()
        self._hidden = [
            (json.dumps(self.env[name], ensure_ascii=False)[1:-1], "${" + name + "}")
            for name in env_references(collection)
            if len(self.env.get(name, "")) >= 3
        ]
        results: list[StepResult] = []
        saved: dict[str, dict[str, Any]] = {}
        servers: dict[str, _Server] = {}
        stack = AsyncExitStack()
        try:
            for step in collection.steps:
                key = "" if self.one_server else (step.server or "")
                if key not in servers:
                    servers[key] = await self._open(key, stack)
                result = await self._run_step(step, servers[key], saved)
                if result.saved:
                    saved[step.id] = result.saved
                results.append(result)
        finally:
            with suppress(LensError, OSError):  # a server that went away is already reported by its steps
                await stack.aclose()
        return RunResult(collection, results, (time.perf_counter() - started) * 1000)

    async def _open(self, key: str, stack: AsyncExitStack) -> _Server:
        store = TrafficStore(source=key or None, seqs=self.seqs)
        try:
            # what ``async with`` gives (a wrapper such as the OAuth connection yields the connection inside)
            conn = await stack.enter_async_context(self.opener(key, store))
        except (LensError, OSError, ValueError) as exc:
            name = f"server {key!r}" if key else "the server"
            return _Server(store=store, failure=f"could not connect to {name}: {getattr(exc, 'message', exc)}")
        return _Server(conn, getattr(conn, "live_store", None) or store)

    async def _run_step(self, step: Step, server: _Server, saved: dict[str, dict[str, Any]]) -> StepResult:
        if server.failure:
            return StepResult(step, UNREACHABLE, server.failure)
        conn, store = server.conn, server.store
        try:
            params = resolve(step.params, self.env, saved)
        except CollectionError as exc:
            return StepResult(step, FAILED, str(exc))
        if hidden := redacted_fields(params, "params"):  # a placeholder of ours is never sent
            return StepResult(step, FAILED, refused_redacted(hidden))
        expect = step.expect or _IMPLICIT
        tool = None
        since: int | None = None
        try:
            if needs_tool(expect) and step.method == "tools/call":
                listing = conn.tools or await conn.list_tools()
                tool = listing.by_name(str(params.get("name")))
            since = store.next_seq
            started = time.perf_counter()
            response = await self._send(conn, step.method, params)
            elapsed = (time.perf_counter() - started) * 1000
        except ConnectFailed as exc:
            server.failure = f"connection lost: {exc.message}"
            return StepResult(step, UNREACHABLE, server.failure, wire=self._wire(store, since))
        except LensError as exc:
            return StepResult(step, FAILED, exc.message, wire=self._wire(store, since))
        except Exception as exc:  # our bug or a server's answer we did not foresee: this step fails, the run goes on
            return StepResult(
                step, FAILED, f"could not run: {type(exc).__name__}: {exc}", wire=self._wire(store, since)
            )
        wire = self._wire(store, since)
        if "error" in response:  # the exact error object as sent, not our re-worded one
            response = _error_from_wire(wire) or response
        observed = Observed(response, elapsed, tool, self._count_tokens)
        checks = []
        for spec in expect:
            passed, reason = evaluate(spec, observed)
            checks.append(CheckResult(str(spec.get("kind")), passed, self._hide(reason)))
        result = StepResult(step, PASSED, "", checks, elapsed, response, wire)
        for var, path in step.save.items():
            try:
                result.saved[var] = get_path(response, path)
            except PathError as exc:
                checks.append(CheckResult("save", False, f"cannot save {var}: {exc}"))
        failed = [c for c in checks if not c.passed]
        if failed:
            result.status, result.reason = FAILED, failed[0].reason
        return result

    async def _send(self, conn: StepConnection, method: str, params: dict[str, Any]) -> dict[str, Any]:
        handle = conn.new_handle(method)
        try:
            result = await conn.request_rounds(method, params, handle=handle, with_progress=method == "tools/call")
        except ProtocolError as exc:
            return {"error": {"code": exc.code, "message": exc.message, **({"data": exc.data} if exc.data else {})}}
        return {"result": result}

    def _wire(self, store: TrafficStore, since: int | None) -> list[WireItem]:
        """The step's requests and responses (and what the server sent in between), the exact bytes as
        text except that the values of the collection's ``${VAR}`` references read ``${VAR}`` again."""
        if since is None:
            return []
        kinds = {Kind.REQUEST, Kind.RESPONSE, Kind.ERROR, Kind.NOTIFICATION, Kind.UNPARSABLE}
        items = []
        for entry in store:
            if entry.seq >= since and entry.kind in kinds and entry.direction is not Direction.META:
                raw = self._hide(entry.raw.decode("utf-8", errors="replace"))
                items.append(WireItem(entry.seq, str(entry.direction), str(entry.kind), raw))
        return items

    def _hide(self, text: str) -> str:
        for value, reference in self._hidden:
            text = text.replace(value, reference)
        return text

    def _count_tokens(self, tools: list[Any]) -> int:
        if self._counter is None:
            from inspector.budget.breakdown import BudgetCounter
            from inspector.budget.tokenizers import get_tokenizer

            self._counter = BudgetCounter(get_tokenizer(DEFAULT_TOKENIZER))
        return self._counter.report([t for t in tools if isinstance(t, dict)], "mcp").grand_total


def refused_redacted(fields: list[str]) -> str:
    """Why a step or server that still holds `<redacted>` (a file saved by an older version) is not sent."""
    return (
        f"not sent: {', '.join(fields)} holds <redacted>, a secret hidden when the collection was saved (its "
        "value is not in the file): replace it with a ${NAME} reference and give NAME with --input or the environment"
    )


def _error_from_wire(wire: list[WireItem]) -> dict[str, Any] | None:
    for item in reversed(wire):
        if item.kind == Kind.ERROR:
            try:
                message = json.loads(item.raw)
            except ValueError:
                return None
            if isinstance(message, dict) and isinstance(message.get("error"), dict):
                return {"error": message["error"]}
    return None
