"""A record played back as a stdio MCP server (`mcp-lens replay RECORD`): each request a client sends is
answered with the recorded answer to the matching request (`matcher`), its id the client's, and the
server's notifications the record has after that request are sent as recorded (a progress token
rewritten to the client's), at their recorded pace or at once (`fast`). The server's own requests
(sampling, elicitation, roots) are not sent: a mock has no use for the answers.

A request with no recorded answer gets a JSON-RPC error naming its method and params and the nearest
recorded request, and a line on stderr; `strict` ends the server then instead (`Unmatched`). Two the mock
answers itself (`OWN_ANSWERS`, said on stderr as its own): `ping`, and `logging/setLevel` when the record's
server declared logging. A record keeps its era: the other era's handshake gets an error saying so
(`era_limit`), never a translation."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from inspector.replay.matcher import Matcher
from inspector.replay.record import LEGACY, MODERN, Message, Replay
from inspector.replay.volatile import HANDSHAKES

MAX_WAIT_S = 5.0  # the longest recorded pause kept between two messages (a record's idle minutes are not)
NO_ANSWER = -32601  # the method was never recorded
OTHER_PARAMS = -32602  # recorded, but never with these params
SHOWN = 300  # characters of params quoted in a message
# What the mock answers itself when the record has no answer: a receiver must answer ping, and a client
# sets the log level of a server that declared logging before anything else. Method → the capability the
# record's server must have declared (None: every server answers it).
OWN_ANSWERS: dict[str, str | None] = {"ping": None, "logging/setLevel": "logging"}


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
        self.declared = declared_capabilities(replay)
        self.said_own: set[str] = set()  # the methods the mock answered itself (said once each on stderr)

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
        if n is None and self._own_answer(message.get("method")):  # the record's answer first, if it has one
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
            return
        if n is None:
            self._unmatched(message)
            return
        self._answer(message, n)

    def _own_answer(self, method: Any) -> bool:
        """Whether the mock answers `method` itself (said on stderr the first time)."""
        if method not in OWN_ANSWERS:
            return False
        needed = OWN_ANSWERS[method]
        if needed is not None and needed not in self.declared:
            return False
        if method not in self.said_own:
            self.said_own.add(method)
            self.warn(f"mcp-lens replay: {method}: answered by the mock itself, not a recorded answer")
        return True

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
        if (limit := era_limit(self.replay, method)) is not None:
            said = f"no recorded answer to {method}: {limit}"
        elif near is not None:
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


def era_limit(replay: Replay, method: Any = "initialize") -> str | None:
    """Why the record cannot answer the other era's handshake `method` (None: it can, or it is not one):
    a record keeps its era, the mock never translates one into the other."""
    if (method, replay.era) not in (("initialize", MODERN), ("server/discover", LEGACY)):
        return None
    recorded = set(replay.methods())
    if method == "initialize" and "initialize" not in recorded:
        return (
            f"this record was recorded from a {MODERN} server (server/discover) and holds no answer to "
            f"initialize, which a {LEGACY} client sends (most hosts today); to serve one, record the server "
            "with such a client (mcp-lens --cli --protocol-era legacy …, or mcp-lens tap under the host)"
        )
    if method == "server/discover" and "server/discover" not in recorded:
        return (
            f"this record was recorded from a {LEGACY} server (initialize) and holds no answer to "
            f"server/discover; a {MODERN} client that falls back to initialize is served"
        )
    return None


def declared_capabilities(replay: Replay) -> dict[str, Any]:
    """The capabilities the record's server declared in its first answered handshake ({}: none found)."""
    for n in range(len(replay)):
        if replay.method(n) not in HANDSHAKES:
            continue
        answer = replay.response(n)
        result = answer.value.get("result") if answer is not None and isinstance(answer.value, dict) else None
        capabilities = result.get("capabilities") if isinstance(result, dict) else None
        if isinstance(capabilities, dict):
            return capabilities
    return {}


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
