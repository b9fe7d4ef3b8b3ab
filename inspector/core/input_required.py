"""Multi round-trip requests (2026-07-28, SEP-2322): answer a server's `input_required` result.

A modern server that needs input mid-call answers `tools/call`, `prompts/get` or `resources/read`
with ``resultType: "input_required"``: `inputRequests` (key → {method, params}: an elicitation, a
sampling request, a roots listing) and an opaque `requestState`. The client answers each request,
then sends the same method and params again, under a new JSON-RPC id, with `inputResponses`
(key → result) and `requestState` exactly as received; until a complete result, at most
`MAX_ROUNDS` times. `requestState` is never parsed.

Answers come from an `Answerer`: the app's human-in-the-loop `ClientHandlers` (the same dialogs
as the handshake era's server-to-client requests) or a file of responses (the CLI).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.core.client_handlers import ClientHandlers, Rejected, elicitation_mode
from inspector.core.errors import LensError, RequestTimeout
from inspector.core.url_policy import check_url

MAX_ROUNDS = 16
STATE_ONLY_BACKOFF_S = 0.05  # first pause before retrying a state-only answer (load shedding); doubles
STATE_ONLY_BACKOFF_MAX_S = 1.0
INPUT_REQUIRED = "input_required"
INPUT_NEEDED_EXIT = 12  # the CLI's exit code for a call that needs input nobody gave

ELICIT, SAMPLE, ROOTS = "elicitation/create", "sampling/createMessage", "roots/list"
KINDS = (ELICIT, SAMPLE, ROOTS)

# (key, method, params) → the result for that key (an ElicitResult, CreateMessageResult or ListRootsResult).
Answerer = Callable[[str, str, dict[str, Any]], Awaitable[dict[str, Any]]]
RoundListener = Callable[["Round"], None]

_groups = itertools.count(1)


class InputNeeded(LensError):
    """A call needs input that no one can give (no handler for the kind, a refusal, no file entry)."""

    exit_code = INPUT_NEEDED_EXIT
    kind = "input-required"


@dataclass
class Round:
    """One request of a logical call: round 1 is the original request, each later one a retry."""

    group: int
    number: int
    method: str
    label: str  # e.g. "tools/call order_coffee"
    input_requests: dict[str, Any] = field(default_factory=dict)  # what the previous result asked for
    waiting: bool = False  # True while the client gathers the answers for this round

    @property
    def title(self) -> str:
        return f"round {self.number} of {self.label}"


def is_input_required(result: Any) -> bool:
    return isinstance(result, dict) and result.get("resultType") == INPUT_REQUIRED


def new_group() -> int:
    """A fresh id for the rounds of one logical call."""
    return next(_groups)


def call_label(method: str, params: dict[str, Any] | None) -> str:
    """How the traffic log names a logical call: the method and its name or URI."""
    params = params or {}
    target = params.get("name") if method in ("tools/call", "prompts/get") else params.get("uri")
    return f"{method} {target}" if isinstance(target, str) and target else method


def describe_request(key: str, request: Any) -> str:
    """One line about an input request, for messages (server text, cut short)."""
    if not isinstance(request, dict):
        return f"{key!r}: not a request object"
    method = request.get("method")
    params = request.get("params") if isinstance(request.get("params"), dict) else {}
    if method == ELICIT:
        what = params.get("message") if isinstance(params.get("message"), str) else ""
        return f"{key!r}: {method} ({elicitation_mode(params)}) {what[:120]!r}"
    return f"{key!r}: {method}"


def template(requests: dict[str, Any]) -> dict[str, Any]:
    """A starting point for an input-responses file answering `requests`."""
    out: dict[str, Any] = {}
    for key, request in requests.items():
        method = request.get("method") if isinstance(request, dict) else None
        if method == ELICIT:
            out[key] = {"action": "accept", "content": {}}
        elif method == SAMPLE:
            out[key] = {"role": "assistant", "content": {"type": "text", "text": "…"}, "model": "mcp-lens-cli"}
        elif method == ROOTS:
            out[key] = {"roots": []}
    return out


# -- answerers -----------------------------------------------------------------------------------
def handlers_answerer(handlers: ClientHandlers) -> Answerer:
    """Answers through the app's handlers (the elicitation and sampling dialogs, the Roots panel)."""

    async def answer(key: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        try:
            if method == ELICIT and handlers.elicitation is not None:
                result = await handlers.elicitation(params)
                if elicitation_mode(params) == "url" and not check_url(params.get("url")).allowed:
                    result = {"action": "decline"}  # a refused URL is never accepted
                return result
            if method == SAMPLE and handlers.sampling is not None:
                return await handlers.sampling(params)
            if method == ROOTS and handlers.roots is not None:
                return {"roots": await handlers.roots()}
        except Rejected as exc:
            raise InputNeeded(
                f"the server asked for {method} (key {key!r}) and it was refused: {exc.message}",
                hint="2026-07-28 has no error answer for one input request: the call stops here.",
            ) from exc
        raise InputNeeded(f"the server asked for {method} (key {key!r}), which this client does not answer")

    return answer


def file_answerer(responses: dict[str, Any]) -> Answerer:
    """Answers from a mapping of input-request keys, or method names, to results (the CLI's file)."""

    async def answer(key: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        found = responses.get(key, responses.get(method))
        if not isinstance(found, dict):
            asked = {key: {"method": method, "params": params}}
            example = json.dumps(template(asked), ensure_ascii=False)
            raise InputNeeded(
                f"the server needs input: {describe_request(key, asked[key])}; no answer for it in the input responses",
                hint=f"Answer it in a JSON file passed with --input-responses FILE, keyed by {key!r} or {method!r}, "
                f"e.g. {example}",
                request=asked,
            )
        return found

    return answer


# -- the driver ----------------------------------------------------------------------------------
Send = Callable[[dict[str, Any], Round], Awaitable[dict[str, Any]]]


async def drive(
    method: str,
    params: dict[str, Any],
    send: Send,
    answerer: Answerer | None,
    *,
    on_round: RoundListener | None = None,
    max_rounds: int = MAX_ROUNDS,
) -> dict[str, Any]:
    """Send `method` with `params`; while the result is input_required, answer and send again.

    `send(params, round)` sends one request (a new id each time) and returns the raw result.
    `on_round` hears of each later round twice: while its answers are gathered (``waiting``), and
    as it is sent.
    """
    group, label = new_group(), call_label(method, params)
    current = Round(group, 1, method, label)
    result = await send(params, current)
    while is_input_required(result):
        requests = result.get("inputRequests")
        requests = requests if isinstance(requests, dict) else {}
        if current.number > max_rounds:
            raise InputNeeded(
                f"{label} still needs input after {max_rounds} rounds; stopped",
                hint="The server keeps answering input_required: check its requestState handling.",
            )
        if requests and answerer is None:
            asked = "; ".join(describe_request(k, v) for k, v in requests.items())
            raise InputNeeded(f"{label} needs input: {asked}", requests=requests)
        if not requests:  # requestState only: the server asks us to come back; do, after a pause
            await asyncio.sleep(min(STATE_ONLY_BACKOFF_S * 2 ** (current.number - 1), STATE_ONLY_BACKOFF_MAX_S))
        current = Round(group, current.number + 1, method, label, requests, waiting=True)
        if on_round is not None:
            on_round(current)
        responses = {}
        for key, request in requests.items():  # one at a time: each may be a dialog for the user
            if not isinstance(request, dict) or not isinstance(request.get("method"), str):
                raise InputNeeded(f"the server's input request {key!r} is not a {{method, params}} object")
            inner = request.get("params") if isinstance(request.get("params"), dict) else {}
            assert answerer is not None
            responses[key] = await answerer(str(key), request["method"], inner)
        retry: dict[str, Any] = {k: v for k, v in params.items() if k not in ("inputResponses", "requestState")}
        if responses:
            retry["inputResponses"] = responses
        if "requestState" in result:
            retry["requestState"] = result["requestState"]  # opaque: echoed exactly as received
        current.waiting = False
        if on_round is not None:
            on_round(current)
        result = await send(retry, current)
    return result


def file_handlers(responses: dict[str, Any]) -> ClientHandlers:
    """`ClientHandlers` answering from a mapping (the CLI's file): input_required requests by key or method
    name, a handshake-era server's requests during a call by method name."""

    def lookup(method: str) -> dict[str, Any]:
        found = responses.get(method)
        if not isinstance(found, dict):
            raise Rejected(f"no answer for {method} in the client's input responses")
        return found

    async def elicitation(params: dict[str, Any]) -> dict[str, Any]:
        return lookup(ELICIT)

    async def sampling(params: dict[str, Any]) -> dict[str, Any]:
        return lookup(SAMPLE)

    async def roots() -> list[dict[str, Any]]:
        listed = responses.get(ROOTS)
        found = listed.get("roots") if isinstance(listed, dict) else listed
        return list(found) if isinstance(found, list) else []

    # Declared only where the file can answer: by method name, or any kind when it answers by key (a key's
    # request may be of any kind). A server then offers, and asks, only what the CLI can answer.
    by_key = any(key not in (SAMPLE, ELICIT, ROOTS) for key in responses)
    return ClientHandlers(
        sampling=sampling if by_key or SAMPLE in responses else None,
        elicitation=elicitation if by_key or ELICIT in responses else None,
        roots=roots if by_key or ROOTS in responses else None,
        input=file_answerer(responses),
    )


def undeclared_capability(exc: Exception) -> InputNeeded | None:
    """A server's -32021 (a capability the request did not declare) as the input it needed, for the CLI:
    the capability is declared by answering its method in --input-responses."""
    data = getattr(exc, "data", None)
    if getattr(exc, "code", None) != -32021 or not isinstance(data, dict):
        return None
    required = data.get("requiredCapabilities")
    if not isinstance(required, dict) or not required:
        return None
    methods = {"sampling": SAMPLE, "elicitation": ELICIT, "roots": ROOTS}
    named = ", ".join(str(name) for name in required)
    answers = ", ".join(f'"{methods[name]}"' for name in required if name in methods) or "its method"
    return InputNeeded(
        f"{exc} — the server needs the client to declare {named}, which this run does not (it declares only "
        "what --input-responses answers)",
        hint=f"Answer it in --input-responses: a JSON object with the key {answers} mapping to its result.",
    )


async def request_answering(conn: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """`conn.request_rounds` when the connection has it (every `Operations` does), else `conn.request`."""
    rounds = getattr(conn, "request_rounds", None)
    return await (rounds or conn.request)(method, params)


def recording_answerer(
    base: Answerer | None, answers: dict[str, Any], replay: dict[str, Any] | None = None
) -> Answerer | None:
    """`base`, writing every answer into `answers`; a key found in `replay` is answered from it instead
    (a re-run with the answers given before). None when there is nothing to answer with."""
    if base is None and not replay:
        return None

    async def answer(key: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if replay and isinstance(replay.get(key), dict):
            result = replay[key]
        elif base is not None:
            result = await base(key, method, params)
        else:
            raise InputNeeded(f"no recorded answer for input request {key!r} ({method})")
        answers[key] = result
        return result

    return answer


def cancellable(answerer: Answerer | None, handle: Any, method: str) -> Answerer | None:
    """`answerer`, stopped by the call's Cancel while the user is being asked (`handle` is the call's
    `RequestHandle`): the dialog is withdrawn and the call ends as cancelled, with no further round."""
    if answerer is None or handle is None:
        return answerer

    async def answer(key: str, method_asked: str, params: dict[str, Any]) -> dict[str, Any]:
        task = asyncio.ensure_future(answerer(key, method_asked, params))
        handle.arm(lambda _when: None, task.cancel)  # no timeout while a person answers; Cancel stops it
        try:
            return await task
        except asyncio.CancelledError:
            if handle.cancelled and not _cancelling():
                raise RequestTimeout(f"{method} was cancelled", method=method, cancelled=True) from None
            raise

    return answer


def _cancelling() -> bool:
    """Whether the current task itself is being cancelled (not only the answer it waited for)."""
    task = asyncio.current_task()
    return bool(task is not None and task.cancelling())
