"""Reading a damaged server config file (``servers.json``, an ``mcp.json``) for what is intact: a file with a
UTF-16 or UTF-32 byte-order mark is read in that encoding; a byte that is not UTF-8, or a cut, spoils only
the server entries it touches (`json_salvage.salvage_members`), each named with its line."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.config import jsonc
from inspector.config.json_salvage import salvage_members
from inspector.config.profile import ProfileError
from inspector.config.text_files import NotUtf8Error, decode_utf8, wide_text


@dataclass
class Damage:
    """What was wrong with a servers file that was read anyway, in sentences, and its bytes as they were."""

    raw: bytes
    said: list[str] = field(default_factory=list)  # each names its line
    encoding: str | None = None  # "UTF-16 LE" when the file was read in a byte-order mark's encoding
    lost: int = 0  # server entries (or stretches of them) that could not be read


def read_config(
    raw: bytes, source: str, tables: tuple[str, ...] = ("mcpServers",), *, lenient: bool = True
) -> tuple[Any, Damage | None]:
    """The JSON(C) data of a config file, and its `Damage` (None when it read as it is). A damaged file gives
    an object with only what is intact of the first of `tables` found (and of MCP Lens's own ``x-mcp-lens`` servers);
    `ProfileError` (the file's reason, as for an unreadable file) when none of them is found, or none of
    their entries is intact. `lenient`:
    comments and trailing commas are read (JSONC)."""
    text, encoding = wide_text(raw)
    damage = Damage(raw, [f"the file is {encoding}; it was read as such"], encoding) if encoding else None
    try:
        if text is None:
            text = decode_utf8(raw, source=source)
        return jsonc.loads(text, source=source, jsonc=lenient), damage
    except NotUtf8Error as exc:
        reason = exc.reason
    except ProfileError as exc:
        reason = exc.reason
    salvaged = _salvage(text if text is not None else raw.decode("utf-8", "surrogateescape"), tables)
    if salvaged is None or (salvaged[2] and not any(salvaged[0].get(key) for key in tables)):
        raise ProfileError(reason, source=source)
    data, said, lost = salvaged
    damage = damage or Damage(raw)
    damage.said += said or [reason]
    damage.lost += lost
    return data, damage


def _salvage(text: str, tables: tuple[str, ...]) -> tuple[dict[str, Any], list[str], int] | None:
    data: dict[str, Any] = {}
    said: list[str] = []
    lost = 0
    for key in tables:  # the first one found (a VS Code file's "servers", else "mcpServers")
        found = salvage_members(text, key, noun="server")
        if found is not None:
            data[key] = found.members
            said += [lost_part.said for lost_part in found.lost]
            lost += len(found.lost)
            break
    if not data:
        return None
    ours = text.find('"x-mcp-lens"')
    extras = salvage_members(text, "servers", noun="server's MCP Lens settings", start=ours) if ours >= 0 else None
    if extras is not None:
        data["x-mcp-lens"] = {"servers": extras.members}
        said += [lost_part.said for lost_part in extras.lost]
    return data, said, lost
