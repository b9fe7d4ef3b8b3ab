"""Errors the core raises, each with a distinct CLI exit code and a one-line JSON form."""

from __future__ import annotations

from typing import Any


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
    """The server could not be started or reached, or it went away."""

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
    exit_code = 7
    kind = "timeout"
