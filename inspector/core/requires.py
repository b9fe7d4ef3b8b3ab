"""Requests follow capabilities: the one table from each request MCP Lens sends on its own to what the
server must have declared for it (and the era it must speak), and the check every such sender asks first.

A request the user writes (a re-send, the CLI's `--method`) is sent as written; the requests MCP Lens
decides to send itself (the listen stream, re-listing after list_changed, Subscribe, the log level,
completion while typing, ping) go through `refusal` and are not sent when it names a reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.core.era import REMOVED_IN_MODERN


@dataclass(frozen=True, slots=True)
class Need:
    """Declared when any one of `paths` is: a one-part path needs that capability object, a two-part
    path needs the flag inside it set to true. No paths: nothing to declare (only the era counts)."""

    paths: tuple[tuple[str, ...], ...]
    words: str  # what the server must declare, as the refusal says it
    modern_only: bool = False


LIST_CHANGED = (("tools", "listChanged"), ("prompts", "listChanged"), ("resources", "listChanged"))

REQUIRES: dict[str, Need] = {
    "subscriptions/listen": Need(
        (*LIST_CHANGED, ("resources", "subscribe")),
        "listChanged for tools, prompts or resources, or resources.subscribe",
        modern_only=True,
    ),
    "resources/subscribe": Need((("resources", "subscribe"),), "resources.subscribe"),
    "resources/unsubscribe": Need((("resources", "subscribe"),), "resources.subscribe"),
    "logging/setLevel": Need((("logging",),), "logging capability"),
    "completion/complete": Need((("completions",),), "completions capability"),
    "tools/list": Need((("tools",),), "tools capability"),
    "prompts/list": Need((("prompts",),), "prompts capability"),
    "resources/list": Need((("resources",),), "resources capability"),
    "resources/templates/list": Need((("resources",),), "resources capability"),
    "ping": Need((), ""),  # every handshake-era server answers ping; 2026-07-28 removed it
}


def declares(capabilities: dict[str, Any], path: tuple[str, ...]) -> bool:
    """Whether `capabilities` declares `path` (see `Need`)."""
    node = capabilities.get(path[0]) if isinstance(capabilities, dict) else None
    if not isinstance(node, dict):
        return False
    return len(path) == 1 or node.get(path[1]) is True


def refusal(method: str, capabilities: dict[str, Any], era: str) -> str | None:
    """Why MCP Lens does not send `method` on its own to a server that declared `capabilities` and speaks
    `era` ("legacy" | "modern"); None when it may. A method not in the table needs nothing."""
    if era == "modern" and (why := REMOVED_IN_MODERN.get(method)):
        return why
    need = REQUIRES.get(method)
    if need is None:
        return None
    if need.modern_only and era != "modern":
        return f"{method} exists only in 2026-07-28"
    if need.paths and not any(declares(capabilities, path) for path in need.paths):
        return f"not sent: the server declares no {need.words}"
    return None


def declared_for(method: str, capabilities: dict[str, Any]) -> bool:
    """Whether the server declared what `method` needs (whatever the era)."""
    need = REQUIRES.get(method)
    return need is None or not need.paths or any(declares(capabilities, path) for path in need.paths)


def may_send(method: str, capabilities: dict[str, Any], era: str) -> bool:
    return refusal(method, capabilities, era) is None
