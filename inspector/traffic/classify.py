"""Classify one wire message from its raw bytes: kind, id, method, error code."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.traffic.entry import Kind


@dataclass(slots=True)
class Classified:
    kind: Kind
    rpc_id: int | str | None = None
    method: str | None = None
    error_code: int | None = None
    is_tool_error: bool = False
    parse_error: str | None = None
    note: str | None = None
    result_keys: bool = False


def _id_of(message: dict[str, Any]) -> int | str | None:
    value = message.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, int | str):
        return value
    return None


def classify_value(message: Any) -> Classified:
    """Classify an already parsed JSON value as a JSON-RPC message."""
    if isinstance(message, list):
        if not message:
            return Classified(Kind.UNPARSABLE, parse_error="empty JSON-RPC batch")
        first = classify_value(message[0])
        first.note = f"batch of {len(message)}"
        return first
    if not isinstance(message, dict):
        return Classified(Kind.UNPARSABLE, parse_error=f"not a JSON-RPC object: JSON {type(message).__name__}")
    method = message.get("method")
    rpc_id = _id_of(message)
    note = None if message.get("jsonrpc") == "2.0" else 'missing or wrong "jsonrpc": "2.0"'
    if isinstance(method, str):
        kind = Kind.REQUEST if "id" in message else Kind.NOTIFICATION
        return Classified(kind, rpc_id=rpc_id, method=method, note=note)
    if "error" in message:
        error = message.get("error")
        code = error.get("code") if isinstance(error, dict) else None
        return Classified(
            Kind.ERROR,
            rpc_id=rpc_id,
            error_code=code if isinstance(code, int) and not isinstance(code, bool) else -1,
            note=note,
        )
    if "result" in message:
        result = message.get("result")
        tool_error = isinstance(result, dict) and result.get("isError") is True
        return Classified(Kind.RESPONSE, rpc_id=rpc_id, is_tool_error=tool_error, note=note)
    return Classified(Kind.UNPARSABLE, rpc_id=rpc_id, parse_error="JSON object is not a JSON-RPC message")


def parse(raw: bytes, loads: Callable[[bytes], Any] | None = None) -> tuple[Any, Classified]:
    """Parse and classify `raw`: its JSON value (None when it does not parse) and its classification.
    Never raises: broken input becomes an UNPARSABLE classification. `loads` may be
    `sliced_json.loads` (a huge message, on a worker thread)."""
    try:
        value = (loads or json.loads)(raw)
    except UnicodeDecodeError as exc:
        return None, Classified(Kind.UNPARSABLE, parse_error=f"not UTF-8: {exc}")
    except ValueError as exc:
        return None, Classified(Kind.UNPARSABLE, parse_error=f"invalid JSON: {exc}")
    except RecursionError:
        return None, Classified(Kind.UNPARSABLE, parse_error="JSON nested too deeply to parse")
    return value, classify_value(value)


def classify(raw: bytes) -> Classified:
    """Parse and classify `raw` (see `parse`)."""
    return parse(raw)[1]
