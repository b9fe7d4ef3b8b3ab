"""The one connection seam (`core/open_connection.py`): every place that reaches a server from a profile
goes through it, it alone builds transports, and it chooses the lean client or the SDK's connection by its
`lean` argument. The transport interface is written down (`transports/interface.py`), not probed."""

from __future__ import annotations

import ast
import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from lens_support import DEMO, REPO, lens_env

from inspector.config.profile import ServerProfile
from inspector.traffic.store import TrafficStore

PACKAGE = REPO / "inspector"
SEAM = PACKAGE / "core/open_connection.py"
# What builds a transport or a connection on one; only the seam (and the transports themselves) may.
BUILDERS = {
    "make_transport",
    "StdioTransport",
    "HttpTransport",
    "StdioPipes",
    "HttpPipes",
    "Connection",
    "LiteConnection",
    "LeanHttpConnection",
}


def _calls(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in BUILDERS:
                found.append((node.lineno, name))
    return found


def test_only_the_seam_builds_transports_and_connections() -> None:
    outside = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == SEAM or path.is_relative_to(PACKAGE / "transports"):
            continue
        outside += [f"{path.relative_to(REPO)}:{line} {name}(…)" for line, name in _calls(path)]
    assert outside == []
    assert {name for _line, name in _calls(SEAM)} >= {"make_transport", "Connection", "LiteConnection"}


def test_the_connection_asks_its_transport_and_probes_nothing() -> None:
    """The optional parts of a transport are defaulted in its interface, so the connection asks them plainly."""
    source = (PACKAGE / "core/connection.py").read_text(encoding="utf-8")
    assert "getattr(self.transport" not in source
    assert "hasattr(self.transport" not in source
    from inspector.transports.http import HttpTransport
    from inspector.transports.interface import Transport
    from inspector.transports.stdio import StdioTransport

    assert Transport in StdioTransport.__mro__ and Transport in HttpTransport.__mro__  # the defaults inherited


def test_the_sign_in_probe_uses_the_transports_public_client() -> None:
    source = (PACKAGE / "auth/signin.py").read_text(encoding="utf-8")
    assert "._client(" not in source


def _demo(**fields: object) -> ServerProfile:
    return ServerProfile(name="demo", transport="stdio", command=DEMO[0], args=DEMO[1:], **fields)  # type: ignore[arg-type]


async def _tools(conn: object) -> list[str]:
    async with conn as opened:  # type: ignore[attr-defined]
        listing = await opened.list_tools()
        return sorted(tool["name"] for tool in listing.tools)


def test_lean_or_not_is_the_seams_argument_over_stdio() -> None:
    from inspector.core.connection import Connection
    from inspector.core.lite import LiteConnection
    from inspector.core.open_connection import open_connection

    lean = open_connection(_demo(), TrafficStore(), lean=True, grace=0.05)
    sdk = open_connection(_demo(), TrafficStore(), lean=False)
    assert type(lean) is LiteConnection and type(sdk) is Connection
    assert asyncio.run(_tools(lean)) == asyncio.run(_tools(sdk)) != []


def test_lean_or_not_is_the_seams_argument_over_http(demo_http: str) -> None:
    from inspector.core.connection import Connection
    from inspector.core.lite_http import LeanHttpConnection
    from inspector.core.open_connection import open_connection

    profile = ServerProfile(name="demo", transport="http", url=demo_http)
    lean = open_connection(profile, TrafficStore(), lean=True)
    sdk = open_connection(profile, TrafficStore(), lean=False)
    assert type(lean) is LeanHttpConnection and type(sdk) is Connection
    assert asyncio.run(_tools(lean)) == asyncio.run(_tools(sdk)) != []


def test_the_seam_hands_on_what_the_caller_gives() -> None:
    from inspector.core.open_connection import open_connection

    handlers = object()
    conn = open_connection(
        _demo(protocol_era="legacy"),
        TrafficStore(),
        lean=True,
        handlers=handlers,  # type: ignore[arg-type]
        connect_timeout=7.0,
        request_timeout=9.0,
        relist_on_change=False,
    )
    assert conn.handlers is handlers
    assert (conn.connect_timeout, conn.request_timeout, conn.era_setting) == (7.0, 9.0, "legacy")
    assert conn.relist_on_change is False
    sdk = open_connection(_demo(), TrafficStore(), era="legacy", remembered_era="modern")
    assert (sdk.era_setting, sdk.remembered_era, sdk.relist_on_change) == ("legacy", "modern", True)


LEAN_IMPORTS = """
import asyncio, json, sys
from inspector.config.profile import ServerProfile
from inspector.core.open_connection import open_connection
from inspector.traffic.store import TrafficStore

async def main():
    profile = ServerProfile(name="demo", transport="stdio", command=sys.argv[1], args=sys.argv[2:])
    async with open_connection(profile, TrafficStore(), lean=True, grace=0.05) as conn:
        await conn.list_tools()
asyncio.run(main())
print(json.dumps(sorted(name for name in ("mcp", "httpx2", "pydantic") if name in sys.modules)))
"""


def test_a_lean_connection_loads_no_sdk() -> None:
    done = subprocess.run(
        [sys.executable, "-c", LEAN_IMPORTS, *DEMO], capture_output=True, text=True, env=lens_env(), timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []


@pytest.mark.parametrize("layer", ["ui"])
def test_the_ui_never_imports_a_transport(layer: str) -> None:
    bad = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            bad += [f"{path.relative_to(REPO)}: {n}" for n in names if n.startswith("inspector.transports")]
    assert bad == []
