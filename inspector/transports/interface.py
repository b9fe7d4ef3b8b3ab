"""What a transport gives the SDK-based connection (`core/connection.py`), written down once.

`open()` and `describe_exit()` every transport has; the rest is optional and defaulted here, so a
transport that subclasses `Transport` (stdio and HTTP do) states only what it has, and the connection
asks every member plainly instead of probing for it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from inspector.traffic.store import TrafficStore


class Transport(Protocol):
    """A tapped transport: ``async with transport.open() as (read, write)`` gives the SDK's stream pair."""

    store: TrafficStore  # what it records into

    # Notifications it delivers past the SDK, as (method, params); set by the connection before `open()`.
    notification_sink: Callable[[str, dict[str, Any]], None] | None = None
    # Why its server stopped answering (an HTTP server found refusing connections), once it has.
    gone_reason: str | None = None
    # A process behind it: its exit status comes a moment after its stream ends (see `wait_exit`).
    has_process: ClassVar[bool] = False

    def open(self) -> AbstractAsyncContextManager[tuple[Any, Any]]: ...

    def describe_exit(self) -> str:
        """How the server ended or the connection failed, in words."""
        ...

    @property
    def exit_code(self) -> int | None:
        """The server process's exit code, once it has exited; None without a process."""
        return None

    @property
    def last_status(self) -> int | None:
        """The HTTP status of the last answer; None without HTTP."""
        return None

    async def wait_exit(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the server process to exit; whether it has (no process: at once)."""
        return True

    async def wait_closed(self) -> None:
        """Returns when the transport itself sees its server gone; by default it never does."""
        await asyncio.Event().wait()

    async def check_gone(self) -> None:
        """Look now whether the server is gone (sets `gone_reason`); by default there is no way to look."""
        return None
