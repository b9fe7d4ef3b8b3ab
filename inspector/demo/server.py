"""The embedded demo MCP server: ``build_server()`` and the ``python -m inspector.demo`` entry point."""

import argparse
import sys
import warnings
from functools import partial
from typing import Literal

import anyio
from mcp.server.caching import CacheHint
from mcp.server.mcpserver import MCPServer
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.exceptions import MCPDeprecationWarning

from inspector import __version__
from inspector.demo import (
    apps_demo,
    catalog,
    client_tools,
    dynamic,
    headers,
    icons,
    live_resources,
    round_trips,
    skills_demo,
    task_tools,
    tools,
)
from inspector.demo.protocol import HandshakeCapabilities
from inspector.demo.state import DemoState
from inspector.demo.task_board import TaskBoard

NAME = "mcp-lens-demo"

INSTRUCTIONS = """\
This is the MCP Lens demo server. Every tool exists to show one thing an MCP client must handle:
echo returns text; generate_image and generate_tone return PNG and WAV content; show_resources returns
resource links and embedded resources; get_weather and schedule_meeting return structured content
(schedule_meeting also has a deliberately rich input schema); simulate_error fails in three ways;
delete_note is marked destructive; slow_task reports progress and can be cancelled; emit_logs sends
log messages; toggle_extra_tool adds or removes roll_dice and announces the change.
ask_model, book_table, open_docs and list_roots ask the client: sampling, form and URL elicitation, roots.
Both protocol eras are served (initialize, or 2026-07-28 server/discover with per-request _meta):
order_coffee asks for input mid-call (input_required and a retry, or elicitation in older revisions);
research_topic runs as a task (2025-11-25 tasks or the 2026-07-28 tasks extension); route_request has
header parameters (x-mcp-header) and route_request_bad_headers invalid ones; demo://live/counter
updates over subscriptions/listen or resources/subscribe. show_dice has an MCP App (ui://demo/dice.html)
that rolls again through reroll_dice, a tool visible to apps only.
All data is made up and lives in memory only.
"""

CACHE_HINTS = {
    "prompts/list": CacheHint(ttl_ms=300_000, scope="public"),
    "resources/templates/list": CacheHint(ttl_ms=300_000, scope="public"),
    "resources/read": CacheHint(ttl_ms=1_000, scope="private"),
}
"""2026-07-28 cache hints (``ttlMs`` / ``cacheScope``): the prompts and templates never change (five
minutes, shareable); a read is fresh for a second (the live counter ticks each second). tools/list and
resources/list change at run time, so they keep the SDK's default (``ttlMs: 0``, private)."""

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


def build_server(*, log_level: LogLevel = "WARNING") -> MCPServer:
    """A fresh demo server with its own in-memory state."""
    # emit_logs uses the logging capability on purpose; the SDK flags it as deprecated for 2026-07-28.
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning, module=r"inspector\.demo\.")
    state = DemoState()
    bus = InMemorySubscriptionBus()  # subscriptions/listen (2026-07-28); live_resources publishes on it
    server = MCPServer(
        NAME,
        title="MCP Lens demo",
        description="A showcase server for MCP Lens: every content type, schema feature and notification.",
        instructions=INSTRUCTIONS,
        version=__version__,
        icons=[icons.svg(), icons.png(), icons.remote()],
        cache_hints=CACHE_HINTS,
        subscriptions=bus,
        log_level=log_level,
        middleware=[HandshakeCapabilities(state)],
        extensions=[apps_demo.build(), skills_demo.build()],  # MCP Apps (show_dice), Skills (two skills)
    )
    tools.register(server, state)
    dynamic.register(server, state)
    catalog.register(server, state)
    client_tools.register(server)
    round_trips.register(server)
    headers.register(server)
    task_tools.register(server, TaskBoard())
    live_resources.register(server, state, bus)
    return server


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m inspector.demo", description="Run the MCP Lens demo server (stdio by default)."
    )
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on this port at /mcp")
    parser.add_argument("--host", default="127.0.0.1", help="interface for --http (default: %(default)s)")
    parser.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
        help="server-side logging to stderr (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    if args.http is not None and not 1 <= args.http <= 65535:
        parser.error("--http PORT must be between 1 and 65535")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the demo server over stdio, or over Streamable HTTP with ``--http PORT``."""
    args = _parse_args(argv)
    server = build_server(log_level=args.log_level)
    if args.http is None:
        print(f"{NAME} {__version__}: serving MCP over stdio", file=sys.stderr, flush=True)
        run = server.run_stdio_async
    else:
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(f"{NAME} {__version__}: serving MCP at http://{host}:{args.http}/mcp", file=sys.stderr, flush=True)
        run = partial(server.run_streamable_http_async, host=args.host, port=args.http)
    try:
        anyio.run(run)
    except KeyboardInterrupt:
        return 130
    return 0
