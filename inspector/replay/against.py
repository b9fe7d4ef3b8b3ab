"""A regression run: the client's side of a record sent, in order, to another server (a command line or
a URL), each answer compared with the recorded one (`compare`). The server's own requests (sampling,
elicitation, roots) are answered as the client answered them in the record; a 2026-07-28
`input_required` round's `requestState` is the new server's, carried into the next round.

`run_against(replay, target, ignore=()) -> list[Verdict]`: `target` an argv list (stdio), an
``http(s)://`` URL (Streamable HTTP), or (`run_against_async`) a stdio server profile. The new server's
wire is recorded in `Run.store`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from inspector.config.redact import redact_args, redact_url
from inspector.core.era import (
    METHOD_HEADER,
    NAME_BEARING_METHODS,
    NAME_HEADER,
    PROTOCOL_VERSION_HEADER,
    PROTOCOL_VERSION_META_KEY,
)
from inspector.core.open_connection import open_pipes
from inspector.replay.compare import EQUAL, IDENTICAL, Verdict, compare
from inspector.replay.matcher import Matcher
from inspector.replay.mock import dump
from inspector.replay.record import Replay
from inspector.replay.volatile import Volatile
from inspector.traffic.store import TrafficStore
from inspector.transports.http_pipes import HttpPipes

ANSWER_TIMEOUT_S = 60.0


class TargetFailed(ConnectionError):
    """The server the record is replayed against could not be started or stopped answering."""


@dataclass
class Run:
    """The verdicts, in record order, and the new server's wire."""

    verdicts: list[Verdict] = field(default_factory=list)
    store: TrafficStore = field(default_factory=TrafficStore)
    ended: str | None = None  # why the run stopped before the record's end
    # False: a passing verdict keeps neither answer, and `store` only the request in flight (the CLI on a
    # long record: memory stays flat; the record holds the recorded answers); a failing verdict keeps both
    keep_answers: bool = True
    # Told of each verdict as it is judged (the CLI writes it out); `keep_verdicts` False: not kept in
    # `verdicts` then (a long record's run holds only its counts)
    on_verdict: Callable[[Verdict], None] | None = None
    keep_verdicts: bool = True
    counts: dict[str, int] = field(default_factory=dict)  # verdict → how many

    @property
    def passed(self) -> bool:
        return self.ended is None and all(word in (IDENTICAL, EQUAL) for word in self.counts)

    def judged(self, verdict: Verdict) -> None:
        self.counts[verdict.verdict] = self.counts.get(verdict.verdict, 0) + 1
        if self.keep_verdicts:
            self.verdicts.append(verdict)
        if self.on_verdict is not None:
            self.on_verdict(verdict)


def run_against(
    replay: Replay,
    target: list[str] | str,
    ignore: tuple[Volatile, ...] = (),
    timeout: float = ANSWER_TIMEOUT_S,
    run: Run | None = None,
) -> Run:
    """Send `replay`'s client side to `target` and judge each answer (blocking; runs its own event loop)."""
    return asyncio.run(run_against_async(replay, target, ignore, timeout, run))


async def run_against_async(
    replay: Replay,
    target: list[str] | str | Any,
    ignore: tuple[Volatile, ...] = (),
    timeout: float = ANSWER_TIMEOUT_S,
    run: Run | None = None,
    bearer_token: str | None = None,
) -> Run:
    """`run`: the caller's own `Run`, filled as the answers come (the app shows its progress, and what was
    judged before a Cancel). A profile (the app's workspace) brings its env and folder (stdio) or its headers
    (HTTP); `bearer_token` is its stored sign-in's access token."""
    run = Run() if run is None else run
    pipes = open_pipes(target, run.store, bearer_token=bearer_token)
    try:
        await pipes.start()
    except OSError as exc:
        raise TargetFailed(f"could not start {_named(target)}: {exc}") from None
    talk = _Talk(replay, pipes, run)
    reader = asyncio.ensure_future(talk.read())
    try:
        await talk.walk(ignore, timeout)
    finally:
        reader.cancel()
        await pipes.close()
    return run


class _Talk:
    def __init__(self, replay: Replay, pipes: Any, run: Run) -> None:
        self.replay, self.pipes, self.run = replay, pipes, run
        self.pending: dict[Any, asyncio.Future[Any]] = {}
        self.theirs = Matcher(
            replay.server_request_keys,
            lambda m: replay.message(replay.server_requests[m]).value,
            lambda m: replay.index.name(replay.index.methods[replay.server_requests[m]]),
        )
        self.version: str | None = None  # the negotiated protocol version (HTTP's header)
        self.state: Any = None  # the last requestState the new server gave
        self.gone = asyncio.Event()

    async def read(self) -> None:
        while (got := await self.pipes.next_line()) is not None:
            value = got[2]
            if not isinstance(value, dict):
                continue
            if "method" in value and "id" in value:
                await self._answer_server(value)
            elif "method" not in value:
                future = self.pending.pop(_key(value.get("id")), None)
                if future is not None and not future.done():
                    future.set_result(value)
        self.gone.set()
        for future in self.pending.values():
            if not future.done():
                future.set_result(None)

    async def _answer_server(self, request: dict[str, Any]) -> None:
        m = self.theirs.match(request)
        answer = self.replay.client_answer(m) if m is not None else None
        if answer is None or not isinstance(answer.value, dict):
            reply = {
                "jsonrpc": "2.0",
                "id": request["id"],
                "error": {"code": -32601, "message": f"the record has no answer to {request.get('method')}"},
            }
        else:
            reply = {**answer.value, "id": request["id"]}
        with suppress(ConnectionError):  # the request that waits for it ends the run
            await self._send(reply)

    async def _send(self, message: dict[str, Any]) -> None:
        data = dump(message)
        if isinstance(self.pipes, HttpPipes):
            await self.pipes.send(data, self._headers(message))
        else:
            await self.pipes.send(data)

    def _headers(self, message: dict[str, Any]) -> dict[str, str]:
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        modern = isinstance(meta.get(PROTOCOL_VERSION_META_KEY), str)
        headers: dict[str, str] = {}
        version = meta.get(PROTOCOL_VERSION_META_KEY) if modern else self.version
        if version:
            headers[PROTOCOL_VERSION_HEADER] = version
        method = message.get("method")
        if modern and isinstance(method, str):
            headers[METHOD_HEADER] = method
            name = params.get(NAME_BEARING_METHODS.get(method, ""))
            if isinstance(name, str):
                headers[NAME_HEADER] = name
        return headers

    async def walk(self, ignore: tuple[Volatile, ...], timeout: float) -> None:
        replay = self.replay
        notes = list(replay.client_notes)
        at = 0
        for n in range(len(replay)):
            row = replay.requests[n]
            while at < len(notes) and notes[at] < row:
                note = replay.message(notes[at]).value
                at += 1
                if isinstance(note, dict):
                    try:
                        await self._send(note)
                    except ConnectionError as exc:
                        self.run.ended = f"could not reach the server before request {n + 1}: {exc}"
                        return
            if self.gone.is_set():
                self.run.ended = f"the server ended before request {n + 1} ({self.pipes.describe_exit()})"
                return
            await self._one(n, ignore, timeout)
            if self.run.ended:
                return

    async def _one(self, n: int, ignore: tuple[Volatile, ...], timeout: float) -> None:
        replay = self.replay
        original = replay.request(n)
        asked = original.value
        method = str(asked.get("method"))
        params = asked.get("params")
        if isinstance(params, dict) and "requestState" in params and self.state is not None:
            asked = {**asked, "params": {**params, "requestState": self.state}}
        recorded = replay.response(n)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[_key(asked.get("id"))] = future
        started = time.perf_counter()
        try:
            await self._send(asked)
            new = await asyncio.wait_for(future, timeout)
        except ConnectionError as exc:
            new = None
            note = f"no answer: {exc}"
            self.run.ended = f"could not reach the server at request {n + 1}: {exc}"
        except TimeoutError:
            new = None
            note = f"no answer within {timeout:g} s"
        else:
            note = None if new is not None else f"no answer: {self.pipes.describe_exit()}"
            if new is None:
                self.run.ended = f"the server ended at request {n + 1} ({self.pipes.describe_exit()})"
        latency = (time.perf_counter() - started) * 1000 if new is not None else None
        if new is not None and (redactor := self.run.store.redactor):
            new = redactor.json(new)  # the target's secrets hidden as its record hides them: shown and compared so
        if isinstance(new, dict):
            result = new.get("result")
            if method == "initialize" and isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                self.version = result["protocolVersion"]
            self.state = result.get("requestState") if isinstance(result, dict) else None
        old = recorded.value if recorded is not None else None
        verdict, changes = compare(old, new, method, ignore)
        if not self.run.keep_answers:
            self.run.store.clear()  # its wire is not kept either (the entries so far are answered)
            if verdict in (IDENTICAL, EQUAL):
                old = new = None
        sent = original.mono
        self.run.judged(
            Verdict(
                n + 1,
                method,
                params,
                old,
                new,
                verdict,
                changes,
                latency,
                (recorded.mono - sent) * 1000 if recorded is not None else None,
                note,
            )
        )


def _key(rpc_id: Any) -> Any:
    return ("s", rpc_id) if isinstance(rpc_id, str) else ("n", rpc_id)


def _named(target: Any) -> str:
    """A target as a message names it: a command or URL with its secrets redacted, a profile by its name
    (its headers and env never said)."""
    if isinstance(target, str):
        return redact_url(target)
    if isinstance(target, list):
        return " ".join(redact_args([str(word) for word in target]))
    return repr(getattr(target, "name", "the server"))
