"""The protocol-era setting of a server profile: ``auto``, ``legacy``, ``modern`` or a pinned version.

What each era means on the wire lives in `inspector.core.era`; this is only the settings vocabulary.
"""

from __future__ import annotations

# The spec's own names, kept here so the lean CLI client need not import the SDK (`mcp_types` alone
# costs 0.3 s); tests/core/test_era.py checks them against the SDK's.
HANDSHAKE_PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_PROTOCOL_VERSIONS = ("2026-07-28",)
LATEST_HANDSHAKE_VERSION = HANDSHAKE_PROTOCOL_VERSIONS[-1]
ERAS = ("auto", "legacy", "modern")
DEFAULT_ERA = "auto"
KNOWN_VERSIONS = (*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS)


class EraError(ValueError):
    """An era setting that is none of auto / legacy / modern / a known protocol version."""


def parse_era(value: str | None) -> str:
    """Normalise an era setting; raises `EraError` saying what is accepted."""
    text = (value or DEFAULT_ERA).strip().lower()
    if text in ERAS or text in KNOWN_VERSIONS:
        return text
    choices = ", ".join((*ERAS, *KNOWN_VERSIONS))
    raise EraError(f"unknown protocol era or version {value!r}: use one of {choices}")
