"""Notices on stderr after a headless run (``--cli``, ``doctor``, ``tokens``), one JSON line each as the
CLI's errors and findings: what the record holds that the result does not show, such as lines on the
server's stdout that are not JSON-RPC.

A notice quotes the start of what the server wrote with control, invisible and bidi characters written
as escapes (``\\x1b``, ``\\u202e``): a terminal shows them, never obeys them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from itertools import chain

from inspector.content.visible import visible
from inspector.traffic.entry import Direction, Entry, Kind

EXCERPT_CHARS = 60


def print_stray_output(*stores: Iterable[Entry]) -> None:
    """Say on stderr how many lines the server wrote that are not JSON-RPC (nothing when there were none)."""
    notice = not_jsonrpc_notice(chain.from_iterable(stores))
    if notice:
        sys.stderr.write(json.dumps({"notice": notice}, ensure_ascii=False) + "\n")
        sys.stderr.flush()


def not_jsonrpc_notice(entries: Iterable[Entry]) -> str | None:
    """``server wrote 3 lines that are not JSON-RPC on stdout (first: …)``, or None when every line was."""
    stray = [e for e in entries if e.direction is Direction.IN and e.kind is Kind.UNPARSABLE]
    if not stray:
        return None
    where = "on stdout" if all(e.transport == "stdio" for e in stray) else "in its answers"
    count = "1 line that is" if len(stray) == 1 else f"{len(stray)} lines that are"
    first = stray[0].raw
    head = first[: EXCERPT_CHARS * 4].decode("utf-8", errors="replace")
    excerpt = visible(head[:EXCERPT_CHARS], one_line=True)
    if len(head) > EXCERPT_CHARS or len(first) > EXCERPT_CHARS * 4:
        excerpt += f"… ({len(first):,} bytes)"
    return f"server wrote {count} not JSON-RPC {where} (first: {excerpt})"
