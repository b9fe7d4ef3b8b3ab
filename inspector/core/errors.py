"""Errors the core raises, each with a distinct CLI exit code and a one-line JSON form."""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass
from typing import Any

from inspector.words import first_line


class LensError(Exception):
    """Base error: `kind` names what failed, `hint` says what to check."""

    exit_code = 1
    kind = "error"

    def __init__(self, message: str, *, hint: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details = details

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.kind, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        out.update({k: v for k, v in self.details.items() if v is not None})
        return out


class ConnectFailed(LensError):
    """The server could not be started or reached, or it went away.

    Details: ``lost=True`` when an open connection ended, ``reason`` what ended it, ``server_exit`` (the code)
    when the stdio server's process exited.
    """

    exit_code = 3
    kind = "connection"


class ProtocolError(LensError):
    """The server answered with a JSON-RPC error."""

    exit_code = 4
    kind = "protocol"

    def __init__(self, message: str, *, code: int, data: Any = None, method: str | None = None) -> None:
        super().__init__(message, code=code, data=data, method=method)
        self.code = code
        self.data = data


class ToolFailed(LensError):
    """The tool ran and returned ``isError: true``."""

    exit_code = 5
    kind = "tool-error"


class UnknownTool(LensError):
    exit_code = 6
    kind = "unknown-tool"


class RequestTimeout(LensError):
    """We stopped waiting: details ``cancelled=True`` (the user), or ``timeout`` seconds and ``limit``
    ("progress": no response or progress in time; "max": the hard maximum)."""

    exit_code = 7
    kind = "timeout"


def unknown_id_text(stray_ids: list[Any], sent_id: Any) -> str:
    """ "the server answered with id X, which MCP Lens never sent (it sent id Y)"."""
    shown = ", ".join(json.dumps(i) for i in stray_ids[:3])
    if len(stray_ids) > 3:
        shown += f" and {len(stray_ids) - 3} more"
    sent = f" (it sent id {json.dumps(sent_id)})" if sent_id is not None else ""
    return f"the server answered with id{'s' if len(stray_ids) > 1 else ''} {shown}, which MCP Lens never sent{sent}"


def with_unknown_ids(error: RequestTimeout, stray_ids: list[Any], sent_id: Any) -> RequestTimeout:
    """`error` (a timeout) saying that answers with ids we never sent arrived meanwhile; as it was if none did."""
    if not stray_ids or error.details.get("cancelled"):
        return error
    message = f"{error.message}; {unknown_id_text(stray_ids, sent_id)}"
    hint = "The server must answer with the id of the request it answers; check how it reads and echoes ids."
    details = {k: v for k, v in error.details.items() if k not in ("unknown_ids", "sent_id")}
    return RequestTimeout(message, hint=hint, **details, unknown_ids=list(stray_ids), sent_id=sent_id)


@dataclass(frozen=True, slots=True)
class Failure:
    """How a failed request reads to a person: what happened (`title`), more (`detail`), and on whose side.

    `server_sent` is True only for a JSON-RPC error the server answered with: everything else
    (cancel, timeout, a lost connection, a crash) happened on our side or to the connection, and
    has no raw error to show.
    """

    title: str
    detail: str
    side: str  # "server" | "client" | "connection"
    server_sent: bool = False


def describe_failure(error: BaseException) -> Failure:
    """The words for `error` (a `LensError`, or anything else a request raised)."""
    if isinstance(error, ProtocolError):
        detail = error.message + describe_code(error.code, error.data)
        return Failure(f"JSON-RPC error {error.code}", detail, "server", server_sent=True)
    if isinstance(error, RequestTimeout):
        return _timeout_failure(error)
    if isinstance(error, ConnectFailed):
        return _connection_failure(error)
    if isinstance(error, ToolFailed):
        return Failure("Tool error (isError: true)", error.message, "server")
    if isinstance(error, LensError):
        return Failure(first_line(error.message), _with_hint(error.message, error.hint), "client")
    return Failure(f"Failed on the client side: {type(error).__name__}", str(error), "client")


# Error codes the 2026-07-28 revision defines, in words.
_MODERN_CODES = {
    -32020: "the request's HTTP headers (Mcp-Method, Mcp-Name, Mcp-Param-*, MCP-Protocol-Version) "
    "do not match its body, or one is missing or malformed",
    -32021: "the server needs a client capability this request did not declare in its _meta",
    -32022: "the server does not speak the protocol version this request declared",
}


def describe_code(code: int | None, data: Any = None) -> str:
    """A sentence after an error message for the codes the spec defines in words; '' for others."""
    words = _MODERN_CODES.get(code) if isinstance(code, int) else None
    if words is None:
        return ""
    text = f"\n{code} means {words}"
    if code == -32022 and isinstance(data, dict) and isinstance(data.get("supported"), list):
        text += f"; it supports {', '.join(str(v) for v in data['supported'])}"
        if isinstance(data.get("requested"), str):
            text += f" (requested {data['requested']})"
    elif code == -32021 and isinstance(data, dict) and isinstance(data.get("requiredCapabilities"), dict):
        text += f": {', '.join(sorted(data['requiredCapabilities']))}"
    return text + "."


def era_hint(setting: str, code: int | None) -> str | None:
    """What to try when a connection in era `setting` was refused with `code`."""
    if code not in (-32022, -32601, -32600):
        return None
    if setting == "legacy" or setting < "2026":
        return "The server may speak only the 2026-07-28 revision: set the protocol era to auto or modern."
    if setting != "auto":
        return "The server may speak only the handshake era (initialize): set the protocol era to auto or legacy."
    return None


def _with_hint(text: str, hint: str | None) -> str:
    return f"{text}\n{hint}" if hint else text


def _timeout_failure(error: RequestTimeout) -> Failure:
    method = error.details.get("method") or "the request"
    if error.details.get("cancelled"):
        detail = f"{method} was cancelled before the server answered (notifications/cancelled sent)."
        detail += " The server sent no error."
        return Failure("Cancelled by you", detail, "client")
    seconds = error.details.get("timeout")
    limit = error.details.get("limit")
    strays = error.details.get("unknown_ids")
    if isinstance(strays, list) and strays:
        waited = f" after {seconds:g} s" if isinstance(seconds, int | float) else ""
        said = unknown_id_text(strays, error.details.get("sent_id"))
        detail = f"{said[0].upper()}{said[1:]}; MCP Lens stopped waiting for {method}{waited} and cancelled it."
        return Failure("Answered with an id MCP Lens never sent", _with_hint(detail, error.hint), "server")
    if isinstance(seconds, int | float) and limit == "max":
        title = f"Still running after {seconds:g} s (maximum, client side)"
    elif isinstance(seconds, int | float):
        title = f"No response within {seconds:g} s (timeout, client side)"
    else:
        title = "No response in time (timeout, client side)"
    detail = f"MCP Lens stopped waiting for {method} and cancelled it; the server sent no error."
    return Failure(title, _with_hint(detail, error.hint), "client")


def _connection_failure(error: ConnectFailed) -> Failure:
    code = error.details.get("server_exit")
    if isinstance(code, int):
        return Failure(exit_title(code), error.message, "connection")
    if error.details.get("lost"):
        reason = error.details.get("reason") or error.message
        return Failure("Connection lost", _with_hint(str(reason), error.hint), "connection")
    return Failure("Not connected", _with_hint(error.message, error.hint), "connection")


def exit_title(code: int) -> str:
    """Title: "Server process exited with code N" (with the signal's name when a signal ended it)."""
    text = f"Server process exited with code {code}"
    if code < 0:
        try:
            text += f" (killed by {signal.Signals(-code).name})"
        except ValueError:
            text += f" (killed by signal {-code})"
    return text
