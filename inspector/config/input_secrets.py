"""Values the user chose to keep for a profile's `${input:ID}` references: the OS keyring, or nowhere.

Unlike OAuth records there is no file fallback: an input is often a password, so without a keyring a
value lives only as long as the window that asked for it.
"""

from __future__ import annotations

import contextlib
from typing import Any

SERVICE = "mcp-lens-inputs"


def _default_keyring() -> Any:
    """The `keyring` module when it has a real backend (`config/secret_keeping.real_keyring`), else None."""
    from inspector.config.secret_keeping import real_keyring

    return real_keyring()


class InputSecrets:
    """Kept input values, one keyring entry per (server, input id)."""

    def __init__(self, keyring_module: Any = None, *, detect: bool = True) -> None:
        self._keyring = keyring_module if keyring_module is not None or not detect else _default_keyring()

    @property
    def available(self) -> bool:
        return self._keyring is not None

    @staticmethod
    def key(server: str, input_id: str) -> str:
        return f"{server} / {input_id}"

    def get(self, server: str, input_id: str) -> str | None:
        if self._keyring is None:
            return None
        try:
            value = self._keyring.get_password(SERVICE, self.key(server, input_id))
        except Exception:
            return None
        return value if isinstance(value, str) else None

    def set(self, server: str, input_id: str, value: str) -> bool:
        """Keep `value`; False when there is no keyring or it refused."""
        if self._keyring is None:
            return False
        try:
            self._keyring.set_password(SERVICE, self.key(server, input_id), value)
        except Exception:
            return False
        return True

    def forget(self, server: str, input_id: str) -> None:
        if self._keyring is not None:
            with contextlib.suppress(Exception):
                self._keyring.delete_password(SERVICE, self.key(server, input_id))
