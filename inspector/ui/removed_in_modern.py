"""What the 2026-07-28 revision removes or deprecates, as the window shows it.

Removed (`ping`, `logging/setLevel`, stream resumption): the control is offered only in the legacy era;
when the server is modern it is disabled and its tooltip and status tip say why. Deprecated (roots,
sampling, logging, dynamic client registration): still offered, marked "deprecated in 2026-07-28".
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction

from inspector.core.era import DEPRECATED_IN_MODERN, REMOVED_IN_MODERN
from inspector.ui.session import CONNECTED, SessionController

DEPRECATED_MARK = "deprecated in 2026-07-28"


def is_modern(session: SessionController) -> bool:
    """Connected in the 2026-07-28 era."""
    negotiation = session.core.negotiation
    return session.live and negotiation is not None and negotiation.era == "modern"


def removed_reason(session: SessionController, method: str) -> str | None:
    """Why `method` is not offered on this connection (None: it is)."""
    return REMOVED_IN_MODERN.get(method) if is_modern(session) else None


def deprecated_note(session: SessionController, feature: str) -> str:
    """``"roots are deprecated in 2026-07-28"`` when the server is modern, else ``""``."""
    return DEPRECATED_IN_MODERN.get(feature, f"{feature} is {DEPRECATED_MARK}") if is_modern(session) else ""


def follow_era(session: SessionController, mark: Callable[[str], None], feature: str) -> None:
    """Call ``mark(note)`` on every state change: the deprecation note for `feature` when the server is modern,
    ``""`` otherwise (the widget hides its mark)."""
    session.stateChanged.connect(lambda *_: mark(deprecated_note(session, feature)))
    mark(deprecated_note(session, feature))


class RemovedAction:
    """Keeps a menu action for a method the modern era removed enabled only in the legacy era, saying why."""

    def __init__(self, session: SessionController, action: QAction, method: str) -> None:
        self.session, self.action, self.method = session, action, method
        self.tip = action.toolTip()
        session.stateChanged.connect(self._on_state)
        self._on_state(session.state, "")

    def bind(self, session: SessionController) -> None:
        """Follow another session (the window now shows that server)."""
        if session is self.session:
            return
        self.session.stateChanged.disconnect(self._on_state)
        self.session = session
        session.stateChanged.connect(self._on_state)
        self._on_state(session.state, "")

    def _on_state(self, state: str, _detail: str) -> None:
        why = removed_reason(self.session, self.method) if state == CONNECTED else None
        self.action.setEnabled(why is None)
        self.action.setToolTip(why or self.tip)
        self.action.setStatusTip(why or "")
