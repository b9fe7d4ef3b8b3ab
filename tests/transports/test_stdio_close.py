"""What a stdio server writes on stdout while the connection closes (after its stdin ended, before it
exits) is still recorded: the log keeps a server's last words."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lens_support import REPO

from inspector.core.connection import Connection
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio import StdioTransport

LAST_WORDS = f"""
import sys
sys.path.insert(0, {str(REPO / "tests/servers")!r})
from stdio_rpc import send, serve
serve(lambda method, params: None, name="last-words", capabilities={{}})
send({{"jsonrpc": "2.0", "method": "notifications/message", "params": {{"level": "info", "data": "bye"}}}})
"""


def test_a_line_written_while_closing_is_recorded(tmp_path: Path) -> None:
    script = tmp_path / "last_words.py"
    script.write_text(LAST_WORDS)
    store = TrafficStore()

    async def main() -> None:
        async with Connection(StdioTransport(StdioCommand(sys.executable, [str(script)]), store), era="legacy"):
            pass

    asyncio.run(main())
    said = [e.raw for e in store if e.direction is Direction.IN and e.kind is Kind.NOTIFICATION]
    assert any(b'"bye"' in raw for raw in said), f"the server's last line is not in the record: {said}"
