"""Transport kinds, one table (`inspector.transports.kinds`): every reader offers exactly its entries, the
factory builds each kind, and the transports take OAuth from their caller instead of importing it."""

from __future__ import annotations

import ast

import httpx2
import pytest
from lens_support import REPO

from inspector.app import parse_args
from inspector.auth.provider import LensOAuthProvider
from inspector.cli import args as cli_args
from inspector.cli import tokens_args
from inspector.config.profile import TRANSPORTS, ServerProfile
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore
from inspector.transports.http import HttpTransport, RoutesOwnRequests
from inspector.transports.http_tap import TapTransport
from inspector.transports.kinds import TRANSPORT_KINDS, URL_KINDS, transport_kind
from inspector.transports.stdio import StdioTransport


def test_the_command_lines_offer_exactly_the_table() -> None:
    for parser in (cli_args._parser(), tokens_args._parser()):
        assert list(parser._option_string_actions["--transport"].choices) == list(TRANSPORT_KINDS)
    assert tuple(name for name, kind in TRANSPORT_KINDS.items() if kind.needs == "url") == URL_KINDS
    for name in URL_KINDS:  # the app's own --transport is for a URL
        assert parse_args(["--transport", name, "https://example.com/mcp"]).transport == name
    for name in set(TRANSPORT_KINDS) - set(URL_KINDS):
        with pytest.raises(SystemExit):
            parse_args(["--transport", name, "https://example.com/mcp"])


def test_the_profile_dialog_offers_exactly_the_table(qtbot) -> None:
    from inspector.ui.servers.profile_dialog import ProfileDialog

    dialog = ProfileDialog(None, [])
    qtbot.addWidget(dialog)
    combo = dialog.transport_combo
    offered = [(combo.itemData(i), combo.itemText(i)) for i in range(combo.count())]
    assert offered == [(name, kind.label) for name, kind in TRANSPORT_KINDS.items()]


def test_profiles_accept_exactly_the_table() -> None:
    """config sits below transports (transports use its redaction), so it keeps its own list: the same one."""
    assert tuple(TRANSPORT_KINDS) == TRANSPORTS


def test_the_factory_builds_each_kind() -> None:
    store = TrafficStore()
    for name, kind in TRANSPORT_KINDS.items():
        if kind.needs == "command":
            profile = ServerProfile(name=name, transport=name, command="true")
            assert isinstance(make_transport(profile, store), StdioTransport)
        else:
            profile = ServerProfile(name=name, transport=name, url="http://127.0.0.1:9/mcp", headers={"X-A": "1"})
            transport = make_transport(profile, store)
            assert isinstance(transport, HttpTransport) and transport.kind == name
            assert transport.headers == {"X-A": "1"} and transport.wire is transport.tap
    with pytest.raises(ValueError, match="unknown transport 'ws'"):
        transport_kind("ws")


class _RoutingAuth(httpx2.Auth):
    def __init__(self) -> None:
        self.routed: list[tuple[TapTransport, TrafficStore]] = []

    def route_wire(self, mcp_tap: TapTransport, store: TrafficStore) -> httpx2.AsyncBaseTransport:
        self.routed.append((mcp_tap, store))
        return mcp_tap.inner


def test_the_caller_brings_the_oauth_wire() -> None:
    store = TrafficStore()
    profile = ServerProfile(name="h", transport="http", url="http://127.0.0.1:9/mcp")
    auth = _RoutingAuth()
    transport = make_transport(profile, store, auth=auth)
    assert auth.routed == [(transport.tap, store)] and transport.wire is transport.tap.inner
    assert transport.auth is auth
    plain = make_transport(profile, store, auth=httpx2.BasicAuth("u", "p"))
    assert plain.wire is plain.tap  # an Auth that sends no requests of its own needs no router
    assert issubclass(LensOAuthProvider, RoutesOwnRequests)


def test_transports_never_import_auth() -> None:
    for path in sorted((REPO / "inspector/transports").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        modules |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
        assert not {m for m in modules if m.startswith("inspector.auth")}, path.name
