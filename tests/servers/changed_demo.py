"""The demo server as a "new build" for a regression run: with ``DEMO_CHANGED_ECHO=1`` in its environment,
its echo tool answers ``<message> (changed)``; everything else (the tool list included) is the demo's."""

from __future__ import annotations

import os
import sys
from typing import Annotated

from pydantic import Field

from inspector.demo import server, tools

_original = tools.echo


async def echo(message: Annotated[str, Field(description="Text to send back.")]) -> str:
    """Return the message unchanged. Cheap: handy for latency benchmarks."""
    return f"{message} (changed)"


if os.environ.get("DEMO_CHANGED_ECHO") == "1":
    tools.echo = echo

if __name__ == "__main__":
    sys.exit(server.main(sys.argv[1:]))
