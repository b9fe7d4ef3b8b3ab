"""Builders for what tests otherwise write by hand: JSON-RPC bytes, recorded traffic, tools, call results."""

from __future__ import annotations

import json
from typing import Any

from inspector.traffic.entry import Direction, Entry
from inspector.traffic.store import TrafficStore

_OBJECT: dict[str, Any] = {"type": "object"}


def rpc(**fields: Any) -> bytes:
    """One JSON-RPC 2.0 message as compact bytes, its fields in the order given."""
    return json.dumps({"jsonrpc": "2.0", **fields}, separators=(",", ":")).encode()


def request(
    store: TrafficStore,
    rpc_id: int | str,
    method: str,
    params: Any = None,
    *,
    direction: Direction = Direction.OUT,
    transport: str = "stdio",
    **how: Any,
) -> Entry:
    """Record a request, the client's unless `direction` says otherwise (`how`: http, notes, source)."""
    fields = {"id": rpc_id, "method": method} | ({} if params is None else {"params": params})
    return store.record_message(direction, transport, rpc(**fields), **how)


def response(
    store: TrafficStore,
    rpc_id: int | str,
    result: Any = None,
    *,
    error: dict[str, Any] | None = None,
    direction: Direction = Direction.IN,
    transport: str = "stdio",
    **how: Any,
) -> Entry:
    """Record an answer, the server's unless `direction` says otherwise: `error` when given, else `result` ({})."""
    answer = {"error": error} if error is not None else {"result": {} if result is None else result}
    return store.record_message(direction, transport, rpc(id=rpc_id, **answer), **how)


def notification(
    store: TrafficStore,
    method: str,
    params: Any = None,
    *,
    direction: Direction = Direction.IN,
    transport: str = "stdio",
    **how: Any,
) -> Entry:
    """Record a notification, the server's unless `direction` says otherwise."""
    fields = {"method": method} | ({} if params is None else {"params": params})
    return store.record_message(direction, transport, rpc(**fields), **how)


def tool_call(store: TrafficStore, rpc_id: int | str, name: str = "echo", arguments: Any = None) -> Entry:
    """Record a tools/call request for `name` (arguments {} when None)."""
    return request(store, rpc_id, "tools/call", {"name": name, "arguments": {} if arguments is None else arguments})


def exchange(
    method: str = "tools/call",
    params: Any = None,
    result: Any = None,
    *,
    rpc_id: int | str = 1,
    transport: str = "stdio",
) -> TrafficStore:
    """A fresh TrafficStore holding one request and its response."""
    store = TrafficStore()
    request(store, rpc_id, method, params, transport=transport)
    response(store, rpc_id, result, transport=transport)
    return store


def tool(
    name: str = "echo", description: str | None = "Echoes its input.", input_schema: Any = _OBJECT, **extra: Any
) -> dict[str, Any]:
    """A tool as tools/list lists it: name, description, inputSchema ({"type": "object"}; None leaves either out)."""
    built: dict[str, Any] = {"name": name}
    if description is not None:
        built["description"] = description
    if input_schema is not None:
        built["inputSchema"] = dict(_OBJECT) if input_schema is _OBJECT else input_schema
    return built | extra


def call_result(*blocks: str | dict[str, Any], is_error: bool | None = None, **extra: Any) -> dict[str, Any]:
    """A tools/call result: each str a text block, each dict a block as given; isError only when given."""
    content = [{"type": "text", "text": b} if isinstance(b, str) else b for b in blocks]
    return {"content": content} | ({} if is_error is None else {"isError": is_error}) | extra
