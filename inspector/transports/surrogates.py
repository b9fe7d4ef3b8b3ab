"""Lone UTF-16 surrogates in what MCP Lens sends over HTTP.

A server's `"\\ud800"` parses to a lone surrogate, which UTF-8 cannot carry; echoed back (an argument, a
prompt name) it must go as its JSON escape, as the stdio transport sends it. The SDK's HTTP clients encode
the body themselves and fail on it, killing the connection. So the outgoing message's lone surrogates are
swapped for a marker no text holds (a private-use character and this process's random token), and the
HTTP tap, which sees every request body first, writes each marker back as the escape (`\\ud800`).
"""

from __future__ import annotations

import re
import secrets
from typing import Any

_LONE = re.compile("[\ud800-\udfff]")
_TOKEN = secrets.token_hex(6)
_OPEN = "\U000f0000"  # plane 15 private use: in no protocol text, and 4 bytes in UTF-8
_MARK = re.compile(re.escape(f"{_OPEN}{_TOKEN}").encode() + rb"([0-9a-f]{4})")
_PREFIX = f"{_OPEN}{_TOKEN}".encode()


def has_lone(value: Any) -> bool:
    """True if any string in the JSON-like `value` (keys too) holds a lone surrogate."""
    if isinstance(value, str):
        return _LONE.search(value) is not None
    if isinstance(value, dict):
        return any(has_lone(k) or has_lone(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_lone(v) for v in value)
    return False


def hide(value: Any) -> Any:
    """`value` with each lone surrogate replaced by its marker (UTF-8 safe)."""
    if isinstance(value, str):
        return _LONE.sub(lambda m: f"{_OPEN}{_TOKEN}{ord(m.group()):04x}", value)
    if isinstance(value, dict):
        return {hide(k): hide(v) for k, v in value.items()}
    if isinstance(value, list):
        return [hide(v) for v in value]
    return value


def restore(body: bytes) -> bytes:
    """The body with each marker written as the JSON escape of the surrogate it stands for."""
    if _PREFIX not in body:
        return body
    return _MARK.sub(lambda m: b"\\u" + m.group(1), body)


class EscapingWriter:
    """The SDK's write stream, with each outgoing message's lone surrogates hidden for `restore`."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def send(self, item: Any) -> None:
        message = getattr(item, "message", None)
        if message is not None:
            data = message.model_dump(by_alias=True, mode="python", exclude_unset=True)
            if has_lone(data):
                item = type(item)(type(message).model_validate(hide(data)), metadata=item.metadata)
        await self._inner.send(item)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def __aenter__(self) -> EscapingWriter:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> Any:
        return await self._inner.__aexit__(*exc)
