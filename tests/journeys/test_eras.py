"""Protocol eras as a user meets them: the era chosen per server, what was negotiated in the server panel,
the modern wire's HTTP headers in the traffic log, and a silent legacy server's probe remembered."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from journey_support import shown_text
from PySide6.QtWidgets import QAbstractItemView, QPlainTextEdit
from test_servers import SERVERS_FILE, choose, current_server, dialog, server_rows, type_here
from test_traffic import call, click_row, shown_rows

SILENT_LEGACY = Path(__file__).resolve().parents[1] / "servers" / "silent_legacy.py"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def keep_picture(lens, name: str) -> None:
    """A picture of the window, kept with the test artefacts (looked at when the panes change)."""
    ARTIFACTS.mkdir(exist_ok=True)
    lens.qtbot.wait(100)
    lens.window.grab().save(str(ARTIFACTS / name))


PANEL_FIELDS = ("Protocol era and version", "How the era was reached", "Supported versions")


def saved_extras(lens, name: str) -> dict:
    """Our own settings of a saved server (kept beside the mcp.json entries)."""
    return json.loads((lens.home / SERVERS_FILE).read_text())["x-mcp-lens"]["servers"][name]


def panel_text(lens) -> str:
    """What the Server panel says about the connection (protocol, how it was reached, discover)."""
    return "\n".join(shown_text(lens.find(name)) for name in PANEL_FIELDS)


def test_a_server_added_with_the_legacy_era_connects_with_initialize(lens) -> None:
    lens.start()
    lens.click("Add server")
    box = dialog(lens, "Add Server")
    lens.type(lens.find("Name", top=box), "demo legacy")
    lens.type(lens.find("Command", top=box), sys.executable)
    for arg in ("-m", "inspector.demo"):
        lens.click(lens.find("Add argument", top=box))
        type_here(box, arg)
    assert "Auto" in lens.find("Protocol era", top=box).currentText()  # the default
    choose(lens, "Protocol era", "Legacy (initialize, up to 2025-11-25)", top=box)
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Add Server dialog closes")
    assert "demo legacy" in server_rows(lens)
    count, probes = len(lens.sent("initialize")), len(lens.sent("server/discover"))
    lens.click_item("Servers", "demo legacy", double=True)
    lens.wait(lambda: current_server(lens) == "demo legacy" and len(lens.sent("initialize")) > count, what="init")
    lens.wait(lambda: "legacy 2025-11-25" in panel_text(lens), what="the panel shows the legacy era")
    assert len(lens.sent("server/discover")) == probes  # legacy never probes
    assert lens.quit() == 0
    assert saved_extras(lens, "demo legacy")["protocolEra"] == "legacy"

    lens.start()  # the era is kept with the server: the edit dialog shows it
    lens.click_item("Servers", "demo legacy")
    lens.click("Edit server")
    box = dialog(lens, "Edit Server")
    assert lens.find("Protocol era", top=box).currentText().startswith("Legacy")
    lens.click(lens.find("Cancel", top=box))
    assert lens.quit() == 0


def test_the_demo_connects_modern_and_the_panel_shows_the_discover_result(lens) -> None:
    lens.start()
    lens.wait(lambda: "modern 2026-07-28" in panel_text(lens), what="the panel shows the modern era")
    assert lens.sent("server/discover")
    text = panel_text(lens)
    if lens.sent("initialize"):  # a loaded machine: the demo's start outlasted the probe; the panel says so
        assert "slow start" in text, text
    assert "2026-07-28" in shown_text(lens.find("Supported versions")), text
    assert "server/discover answered" in shown_text(lens.find("How the era was reached")), text
    assert "tools" in shown_text(lens.find("Server capabilities"))
    assert lens.find("Server instructions", QPlainTextEdit).toPlainText().strip()
    # a tool with invalid header parameters is flagged in the list and its header, with the reason
    lens.click_item("Tool list", "route_request_bad_headers")
    lens.wait_text("invalid header parameters")
    keep_picture(lens, "journey_eras_modern_demo.png")
    assert lens.quit() == 0


def test_the_headers_view_shows_the_modern_http_headers_of_an_exchange(lens, demo_http) -> None:
    lens.start(demo_http)
    lens.wait(lambda: "modern 2026-07-28" in panel_text(lens), what="modern over HTTP")
    lens.tab("Traffic")
    lens.click_item(lens.find("Traffic log", QAbstractItemView), "tools/list")
    lens.tab("Headers")
    view = lens.find("HTTP headers", QPlainTextEdit)
    lens.wait(lambda: "Mcp-Method: tools/list" in view.toPlainText(), what="the Mcp-Method header is shown")
    lens.wait(lambda: "HTTP 200" in view.toPlainText(), what="the response's status line is filled in")
    text = view.toPlainText()
    assert "the JSON-RPC method of the body" in text, text
    assert "MCP-Protocol-Version" in text and "2026-07-28" in text, text
    assert "Response" in text and "HTTP 200" in text, text
    assert "stateless" in text and "mcp-session-id" not in text.lower(), text  # no session id either way
    # the response says what its cache hints mean
    table = lens.find("Traffic log", QAbstractItemView)

    def listing_response() -> int | None:
        rows = shown_rows(table)
        return next((i for i, r in enumerate(rows) if r["Kind"] == "response" and "tools/list" in str(r)), None)

    lens.wait(lambda: listing_response() is not None, what="the tools/list response is listed")
    click_row(lens, table, listing_response())
    lens.wait(lambda: "cache hint:" in shown_text(lens.find("Selected entry")), what="the cache hint in words")

    # a call's name and header parameters travel as Mcp-Name and Mcp-Param-*
    lens.tab("Tools")
    call(lens, "route_request", region="eu-west")
    lens.wait(lambda: [e for e in lens.wire() if e.method == "tools/call" and e.peer_seq], what="the call is answered")
    answer = [e for e in lens.wire() if e.direction == "in" and b"routed" in e.raw]
    assert answer and b"mcp-param-region: eu-west" in answer[-1].raw.lower()  # the demo echoes what it got
    lens.tab("Traffic")
    lens.click_item(lens.find("Traffic log", QAbstractItemView), "tools/call")
    lens.tab("Headers")
    lens.wait(lambda: "mcp-param-region: eu-west" in view.toPlainText().lower(), what="the header parameter is shown")
    assert "Mcp-Name: route_request" in view.toPlainText() and "x-mcp-header" in view.toPlainText()
    keep_picture(lens, "journey_eras_headers.png")
    assert lens.quit() == 0


def test_a_silent_legacy_server_costs_the_probe_once_and_is_remembered(lens) -> None:
    folder = lens.home / SERVERS_FILE.parent
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(SILENT_LEGACY)]}
    (folder / "servers.json").write_text(json.dumps({"mcpServers": {"silent": entry}}))
    lens.start()
    lens.click_item("Servers", "silent", double=True)
    lens.wait(lambda: "silent-legacy" in lens.status() and "connected to" in lens.status(), 20_000, "connected")
    # the probe waits 3 s; a loaded machine answers the rest a little later (3.1 s, say)
    lens.wait(lambda: re.search(r"unanswered for 3\.\d s", panel_text(lens)), what="the probe's cost is said")
    assert "remembered: next time auto starts with initialize" in panel_text(lens)
    assert "did not answer server/discover within 3 s" in lens.find("How the era was reached").toolTip()
    keep_picture(lens, "journey_eras_silent_legacy.png")
    assert "legacy 2025-11-25" in panel_text(lens)
    assert lens.quit() == 0
    assert saved_extras(lens, "silent")["learnedEra"] == "legacy"

    lens.start()  # the last server used opens again, without the probe
    lens.wait(lambda: "silent-legacy" in lens.status() and "connected to" in lens.status(), 20_000, "reconnected")
    lens.wait(lambda: "left server/discover unanswered before" in panel_text(lens), what="remembered")
    assert not lens.sent("server/discover")
    assert lens.quit() == 0


def test_the_command_line_picks_the_era_of_the_server_it_opens(lens) -> None:
    lens.start("--protocol-era", "legacy", sys.executable, "-m", "inspector.demo")
    lens.wait(lambda: "legacy 2025-11-25" in panel_text(lens), what="the panel shows the legacy era")
    assert lens.sent("initialize") and not lens.sent("server/discover")
    assert "no probe" in shown_text(lens.find("How the era was reached"))
    assert lens.quit() == 0


def test_a_modern_only_server_is_reached_by_auto_and_legacy_says_what_to_change(lens, modern_only) -> None:
    lens.start(*modern_only)
    lens.wait(lambda: "modern 2026-07-28" in panel_text(lens), what="auto reaches the modern-only server")
    assert not lens.sent("initialize")
    assert lens.quit() == 0

    lens.start("--protocol-era", "legacy", *modern_only, connected=False)
    lens.wait(
        lambda: "failed" in shown_text(lens.find("Connection state")).lower() or "32022" in lens.status(),
        what="the legacy handshake is refused",
    )
    lens.wait_text("set the protocol era to auto or modern")
    assert lens.sent("initialize") and not lens.sent("server/discover")
    lens.tab("Traffic")  # the refusal, in words, with the versions the server speaks
    lens.click_item(lens.find("Traffic log", QAbstractItemView), "error -32022")
    lens.wait(lambda: "-32022 means" in shown_text(lens.find("Selected entry")), what="the code explained")
    assert "it supports 2026-07-28" in shown_text(lens.find("Selected entry"))
    assert lens.quit() == 0
