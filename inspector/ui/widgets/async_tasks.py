"""Run a coroutine on the qasync loop and hand its outcome back to a widget, never raising into Qt."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import shiboken6
from PySide6.QtCore import QObject


class TaskSet:
    """Tasks started for one widget: referenced while they run, cancelled together (`cancel_all`)."""

    def __init__(self, owner: QObject) -> None:
        self.owner = owner
        self.tasks: set[asyncio.Task[Any]] = set()

    def start(self, coro: Coroutine[Any, Any, Any], done: Callable[[Any], None]) -> asyncio.Task[Any]:
        """Run `coro`; `done(result)` or `done(exception)` runs afterwards if the owner still exists.
        A cancelled task calls nothing."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)

        def finished(task: asyncio.Task[Any]) -> None:
            self.tasks.discard(task)
            if task.cancelled() or not shiboken6.isValid(self.owner):
                return
            exc = task.exception()
            done(exc if exc is not None else task.result())

        task.add_done_callback(finished)
        return task

    def cancel_all(self) -> None:
        for task in list(self.tasks):
            task.cancel()

    @property
    def busy(self) -> bool:
        return bool(self.tasks)


def error_text(exc: BaseException) -> str:
    """One line for the user: the core's message (and hint), or the exception's type and text."""
    message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
    hint = getattr(exc, "hint", None)
    return f"{message}\n{hint}" if hint else str(message)
