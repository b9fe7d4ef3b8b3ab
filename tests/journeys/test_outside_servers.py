"""Servers nobody here wrote, as a user meets them: server-everything over stdio and Streamable HTTP and the
2026-07-28 reference servers from PyPI (mcp-server-time, -git, -fetch; `scripts/test` installs them).
Connect, list, call a tool, disconnect, change the era in the server's settings and press Ctrl+R: the wire
shows the new era, and no error entry comes from a request MCP Lens sent on its own."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from lens_support import git_repo, pypi_server_argv
from test_servers import add_http_server, add_stdio_server, choose, dialog
from test_traffic import call

from inspector.traffic.entry import ERA_PROBE, Direction, Kind

LEGACY = "Legacy (initialize, up to 2025-11-25)"
TARGETS = ["everything-stdio", "everything-http", "time", "git", "fetch"]


def setup(target: str, request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Any, str, dict[str, str]]:
    """How to add the server (a function of the driver), its tool and the fields to call it with."""
    if target.startswith("everything"):
        everything = request.getfixturevalue("everything")
        if target == "everything-http":
            url = request.getfixturevalue("everything_http")
            return (lambda lens: add_http_server(lens, target, url)), "(echo)", {"message": "hello"}
        return (lambda lens: add_stdio_server(lens, target, "node", everything, "stdio")), "(echo)", {"message": "hi"}
    repo = git_repo(tmp_path / "repo") if target == "git" else None
    argv = pypi_server_argv(target, repo)
    tool, fields = {
        "time": ("get_current_time", {"timezone": "UTC"}),
        "git": ("git_status", {"repo_path": str(repo)}),
        "fetch": ("fetch", {"url": "http://127.0.0.1:9/"}),  # no internet here: the tool says it failed
    }[target]
    return (lambda lens: add_stdio_server(lens, target, *argv)), tool, fields


def ours(lens, name: str) -> list[Any]:
    """This server's entries in the traffic record."""
    return [e for e in lens.wire() if e.source == name]


def sent_since(lens, name: str, seq: int) -> list[str]:
    return [e.method for e in ours(lens, name) if e.seq >= seq and e.direction is Direction.OUT and e.method]


def caused_by_us(lens, name: str) -> list[str]:
    """Flagged entries (what Errors only shows) that answer a request MCP Lens sent on its own: every
    request but the user's tools/call."""
    return [
        f"#{e.seq} {e.method}: {e.status}: {e.text()[:200]}"
        for e in ours(lens, name)
        if e.flagged and e.method != "tools/call"
    ]


@pytest.mark.parametrize("target", TARGETS)
def test_an_outside_server_from_connect_to_reconnect_after_an_edit(
    lens, target: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    add, tool, fields = setup(target, request, tmp_path)
    lens.start()
    add(lens)
    lens.click_item("Servers", target, double=True)
    lens.wait_status(lambda text: f"{target}: connected to" in text, 45_000)

    call(lens, tool, **fields)  # listed: the tool is in the Tool list; called from its form
    lens.wait(
        lambda: any(e.method == "tools/call" and e.direction is Direction.IN for e in ours(lens, target)),
        30_000,
        "the tool call is answered",
    )
    for tab in ("Resources", "Prompts"):  # their lists, asked for only if the server declares them
        lens.tab(tab)
        lens.wait(lambda: re.search(r"listed at|does not declare", lens.texts()), 30_000, f"the {tab} tab listed")
    lens.tab("Tools")
    lens.qtbot.wait(1500)  # what the server says after it started (list_changed, logs) arrives meanwhile
    first_era = "legacy" if "legacy" in lens.status() else "modern"  # what auto found, as the status bar says

    lens.menu("Server", "Disconnect")
    lens.wait_status(lambda text: f"{target}: disconnected" in text, 30_000)

    lens.click_item("Servers", target)
    lens.click("Edit server")
    box = dialog(lens, "Edit Server")
    assert lens.find("Protocol era", top=box).currentText().startswith("Auto")
    choose(lens, "Protocol era", LEGACY, top=box)
    lens.click(lens.find("OK", top=box))
    lens.wait(lambda: not box.isVisible(), what="the Edit Server dialog closes")

    since = lens.wire()[-1].seq + 1
    lens.window.activateWindow()  # back in the main window, as a person is once the dialog closed
    lens.wait(lens.window.isActiveWindow, what="the main window is active")
    lens.key("Ctrl+R", lens.find("Servers"))  # where the keyboard is: the server list just clicked
    lens.wait_status(lambda text: f"{target}: connected to" in text and "legacy" in text, 45_000)
    sent = sent_since(lens, target, since)
    assert "initialize" in sent and "server/discover" not in sent, sent  # the era as saved now, not as before
    lens.qtbot.wait(1500)

    assert caused_by_us(lens, target) == []
    probes = [e for e in ours(lens, target) if e.probe is not None]
    if first_era == "legacy":  # auto's refused server/discover: our own probe, marked, out of Errors only
        assert any(e.method == "server/discover" and e.kind is Kind.REQUEST for e in probes), probes
        assert any(e.direction is Direction.IN and e.probe == ERA_PROBE for e in probes), probes  # its refusal
    assert lens.quit() == 0
