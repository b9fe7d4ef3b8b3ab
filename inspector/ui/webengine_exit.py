"""Quit cleanly after Qt WebEngine has run: its teardown must hear `aboutToQuit` once, not again.

WebEngine (Qt 6.12) tears itself down on the first `aboutToQuit`. `qasync.run` (asyncio.run) runs the Qt
loop again after the main coroutine, to shut down async generators and the executor, and each stop calls
`QCoreApplication.exit`, which emits `aboutToQuit` again: WebEngine's slot then calls into what it freed
and the process dies with SIGSEGV at quit (seen here once an App view or the self-test had run a page).
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any


def quit_webengine_once(app: Any) -> None:
    """Connect, after WebEngine's own slot, one that disconnects every receiver of `aboutToQuit` once it ran."""

    def disconnect_all() -> None:
        app.aboutToQuit.disconnect()

    app.aboutToQuit.connect(disconnect_all)


async def hearing_quit_once[T](app: Any, work: Awaitable[T]) -> T:
    """Await `work` (the app's or the self-test's main coroutine), then `quit_webengine_once`: by then
    WebEngine, if anything used it, has connected its slot, and the first quit is still to come."""
    try:
        return await work
    finally:
        quit_webengine_once(app)
