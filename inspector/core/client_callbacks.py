"""Adapts `ClientHandlers` (raw dicts) to the SDK's typed `ClientSession` callbacks.

The SDK parses a server's request into pydantic params; the handler sees them dumped back to wire
JSON. The handler's raw result is validated into the SDK's result type here, so a handler that
returns a malformed result answers the server with a clear JSON-RPC error instead of a vague one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import mcp_types as types
from pydantic import BaseModel, ValidationError

from inspector.core.client_handlers import ClientHandlers, Rejected, elicitation_mode
from inspector.core.url_policy import check_url

INTERNAL_ERROR = -32603


Turn = Callable[[], AbstractAsyncContextManager[None]]


@asynccontextmanager
async def _no_turn() -> AsyncIterator[None]:
    yield


def _dump(params: BaseModel) -> dict[str, Any]:
    return params.model_dump(by_alias=True, mode="json", exclude_none=True)


def _error(exc: Rejected) -> types.ErrorData:
    return types.ErrorData(code=exc.code, message=exc.message)


def _invalid(what: str, exc: ValidationError) -> types.ErrorData:
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": str(exc)}
    where = ".".join(str(part) for part in first.get("loc", ())) or "result"
    return types.ErrorData(code=INTERNAL_ERROR, message=f"the client built an invalid {what}: {where}: {first['msg']}")


def _sampling_result(raw: dict[str, Any]) -> types.CreateMessageResult | types.CreateMessageResultWithTools:
    if isinstance(raw.get("content"), list):  # several blocks (tool use) need the with-tools shape
        return types.CreateMessageResultWithTools.model_validate(raw)
    return types.CreateMessageResult.model_validate(raw)


def session_callbacks(handlers: ClientHandlers | None, turn: Turn = _no_turn) -> dict[str, Any]:
    """Keyword arguments for `ClientSession(...)`: one callback per handler that is set.

    The SDK advertises a capability exactly when its callback is given, so leaving one out keeps
    the capability out of `initialize`. Each handler runs inside `turn()` (the connection holds
    its own requests' timeouts meanwhile: the server is waiting on us, not hanging).
    """
    if handlers is None:
        return {}
    callbacks: dict[str, Any] = {}
    if (sampling := handlers.sampling) is not None:

        async def sampling_callback(context: Any, params: types.CreateMessageRequestParams) -> Any:
            try:
                async with turn():
                    raw = await sampling(_dump(params))
                return _sampling_result(raw)
            except Rejected as exc:
                return _error(exc)
            except ValidationError as exc:
                return _invalid("sampling result", exc)

        callbacks["sampling_callback"] = sampling_callback
    if (elicitation := handlers.elicitation) is not None:

        async def elicitation_callback(context: Any, params: Any) -> Any:
            try:
                dumped = _dump(params)
                async with turn():
                    raw = await elicitation(dumped)
                if elicitation_mode(dumped) == "url" and not check_url(dumped.get("url")).allowed:
                    raw = {"action": "decline"}  # a refused URL is never accepted, whatever the handler said
                return types.ElicitResult.model_validate(raw)
            except Rejected as exc:
                return _error(exc)
            except ValidationError as exc:
                return _invalid("elicitation result", exc)

        callbacks["elicitation_callback"] = elicitation_callback
    if (roots := handlers.roots) is not None:

        async def list_roots_callback(context: Any) -> Any:
            try:
                async with turn():
                    listed = await roots()
                return types.ListRootsResult.model_validate({"roots": listed})
            except Rejected as exc:
                return _error(exc)
            except ValidationError as exc:
                return _invalid("roots list", exc)

        callbacks["list_roots_callback"] = list_roots_callback
    return callbacks
