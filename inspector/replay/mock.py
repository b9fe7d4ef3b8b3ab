"""A record played back as a stdio MCP server (`mcp-lens replay RECORD`): each request a client sends is
answered with the recorded answer to the matching request (`matcher`), its id the client's, and the
server's notifications the record has after that request are sent as recorded (a progress token
rewritten to the client's), at their recorded pace or at once (`fast`). The server's own requests
(sampling, elicitation, roots) are not sent: a mock has no use for the answers.

A request with no recorded answer gets a JSON-RPC error naming its method and params and the nearest
recorded request, and a line on stderr; `strict` ends the server then instead (`Unmatched`)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from inspector.replay.matcher import Matcher
from inspector.replay.record import Message, Replay

MAX_WAIT_S = 5.0  # the longest recorded pause kept between two messages (a record's idle minutes are not)
NO_ANSWER = -32601  # the method was never recorded
OTHER_PARAMS = -32602  # recorded, but never with these params
SHOWN = 300  # characters of params quoted in a message
# What the mock answers itself when the record has no answer: a receiver must answer ping, and a client
# sets the log level of a server that declared logging before anything else.
OWN_ANSWERS: dict[str, dict[str, Any]] = {"ping": {}, "logging/setLevel": {}}


class Unmatched(Exception):
    """`strict`: a request the record has no answer for (the message says which)."""


@dataclass
class MockStats:
    answered: int = 0
    unmatched: int = 0
    notifications: int = 0


def dump(value: Any) -> bytes:
    """Compact JSON in UTF-8 (every non-ASCII character escaped when a lone surrogate forbids UTF-8)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode()
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode()


def request_matcher(replay: Replay) -> Matcher:
    return Matcher(replay.keys, lambda n: replay.request(n).value, replay.method)


class MockServer:
    """Answers one request at a time: `handle(line)` returns nothing and writes through `write`."""

    def __init__(
        self,
        replay: Replay,
        write: Callable[[bytes], None],
        warn: Callable[[str], None],
        *,
        fast: bool = False,
        strict: bool = False,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.replay, self.write, self.warn = replay, write, warn
        self.fast, self.strict, self.sleep = fast, strict, sleep
        self.matcher = request_matcher(replay)
        self.stats = MockStats()

    def handle(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError as exc:
            self._send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": f"Parse error: {exc}"}})
            return
        if not isinstance(message, dict) or "method" not in message or "id" not in message:
            return  # a notification, or an answer to nothing we asked
        n = self.matcher.match(message)
        if n is None and message.get("method") in OWN_ANSWERS:  # the record's answer first, if it has one
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": OWN_ANSWERS[message["method"]]})
            return
        if n is None:
            self._unmatched(message)
            return
        self._answer(message, n)

    def _answer(self, message: dict[str, Any], n: int) -> None:
        replay = self.replay
        asked = replay.request(n)
        rows = replay.server_rows(n)
        answer_row = replay.response_row(n)
        if answer_row is not None:
            rows = sorted([*rows, answer_row])  # the record's order (its clock may go back)
        messages = [replay.message(row) for row in rows]
        answer = messages[rows.index(answer_row)] if answer_row is not None else None
        theirs = _token(message)
        recorded = _token(asked.value)
        clock = asked.mono
        for shown in messages:
            if not self.fast and shown.mono > clock:
                self.sleep(min(shown.mono - clock, MAX_WAIT_S))
            clock = max(clock, shown.mono)
            value = shown.value
            if not isinstance(value, dict) or (shown is not answer and "id" in value):
                continue  # the server's own requests are not replayed
            if shown is answer:
                value = {**value, "id": message["id"]}
                self.stats.answered += 1
            else:
                value = _retoken(value, recorded, theirs)
                self.stats.notifications += 1
            self._send(value)
        if answer is None:
            self._send(_error(message["id"], OTHER_PARAMS, f"the record has {replay.method(n)} without an answer"))

    def _unmatched(self, message: dict[str, Any]) -> None:
        self.stats.unmatched += 1
        method = message.get("method")
        params = message.get("params")
        near = self.matcher.nearest(message)
        said = f"no recorded answer to {method} with params {_short(params)}"
        if near is not None:
            said += f"; nearest recorded: {_short(self.replay.request(near).value.get('params'))}"
        else:
            said += "; recorded methods: " + ", ".join(self.replay.methods())
        self.warn(f"mcp-lens replay: {said}")
        if self.strict:
            raise Unmatched(said)
        data = {"method": method, "params": params}
        if near is not None:
            data["nearest"] = self.replay.request(near).value
        code = OTHER_PARAMS if near is not None else NO_ANSWER
        error = _error(message["id"], code, f"mcp-lens replay: {said}")
        error["error"]["data"] = data
        self._send(error)

    def _send(self, value: dict[str, Any]) -> None:
        self.write(dump(value) + b"\n")


def _error(rpc_id: Any, code: int, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rpc_id, "error": {"code": code, "message": text}}


def _token(value: Any) -> Any:
    params = value.get("params") if isinstance(value, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    return meta.get("progressToken") if isinstance(meta, dict) else None


def _retoken(value: dict[str, Any], recorded: Any, theirs: Any) -> dict[str, Any]:
    params = value.get("params")
    if value.get("method") != "notifications/progress" or not isinstance(params, dict):
        return value
    if recorded is not None and params.get("progressToken") == recorded and theirs is not None:
        return {**value, "params": {**params, "progressToken": theirs}}
    return value


def _short(value: Any) -> str:
    text = dump(value).decode("utf-8", "replace")
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def serve(
    replay: Replay, stdin: IO[bytes], stdout: IO[bytes], warn: Callable[[str], None], **options: Any
) -> MockStats:
    """Answer `stdin`'s requests on `stdout` until stdin ends (`options`: `fast`, `strict`). Raises
    `Unmatched` in strict mode."""

    def write(data: bytes) -> None:
        stdout.write(data)
        stdout.flush()

    server = MockServer(replay, write, warn, **options)
    for line in stdin:
        server.handle(line)
    return server.stats


__all__ = ["Message", "MockServer", "MockStats", "Unmatched", "dump", "request_matcher", "serve"]
