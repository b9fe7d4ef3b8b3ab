"""Error -32042 (URL elicitation required, 2025-11-25): a request the server will not process until the
user completes one or more URL-mode elicitations, carried in the error's data. The client shows each (the
same confirm-then-open dialog as an `elicitation/create` in URL mode) and the user calls again once done."""

from __future__ import annotations

from typing import Any

from inspector.core.errors import ProtocolError

URL_ELICITATION_REQUIRED = -32042


def required_elicitations(error: BaseException | None) -> list[dict[str, Any]]:
    """The URL elicitations a -32042 error asks for, each as `elicitation/create` params in URL mode
    (``mode`` set to "url" when missing); [] for any other error or data that carries none."""
    if not isinstance(error, ProtocolError) or error.code != URL_ELICITATION_REQUIRED:
        return []
    data = error.data
    items = data.get("elicitations") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [{**item, "mode": "url"} for item in items if isinstance(item, dict) and item.get("mode", "url") == "url"]
