"""What the app says, said once and right (issue 22): a killed stdio server, counted nouns."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel
from test_connection import config_file, demo_pid
from test_history import call_echo, history, rows


def test_a_killed_stdio_server_is_said_once_and_how_the_app_starts_it_again(lens) -> None:
    lens.start()
    os.kill(demo_pid(lens), signal.SIGKILL)
    state = lens.find("Connection state", QLabel)
    lens.wait(lambda: "Not connected" in state.text(), 15_000, "the server panel says not connected")
    text = state.text()
    assert text.count("exited with code -9") == 1, text
    assert "once it is back" not in text, text  # the app starts a stdio server itself: nothing to wait for
    assert "Reconnect (Ctrl+R) starts it again" in text, text


def test_the_selected_entry_line_never_names_an_entry_the_filter_hides(lens) -> None:
    lens.start()
    lens.click_item("Traffic log", "tools/list")
    selected = lens.find("Selected entry", QLabel)
    lens.wait(lambda: "tools/list" in selected.text(), what="the selected entry described")
    lens.type("Traffic filter", "server/discover")
    lens.wait(lambda: "tools/list" not in selected.text(), what=f"the line follows the filter: {selected.text()!r}")
    assert "hidden by the filter" in selected.text(), selected.text()


def test_a_killed_server_says_on_whose_side_it_ended_and_what_to_do(lens) -> None:
    """An established connection whose server process is killed: the status bar says it was disconnected,
    that the server process exited (with its code) and what to do, not "Connection failed"."""
    lens.start()
    os.kill(demo_pid(lens), signal.SIGKILL)
    bar = lens.window.statusBar()
    name = lens.window.current.name
    ended = ("Connection failed", f"{name}: ")  # a request in flight may say it failed first
    lens.wait(lambda: bar.currentMessage().startswith(ended), 30_000, "the status bar's message")
    said = bar.currentMessage()
    assert "Connection failed" not in said, said
    # the server's name first (several may be connected), in the Server panel's words for a signal
    assert said.startswith(f"{name}: disconnected: the server process exited with code -9 (killed by SIGKILL)"), said
    assert "(code -9)" not in said, said
    assert said.endswith("Reconnect with Ctrl+R."), said


def test_copy_as_cli_names_exactly_what_it_redacted(lens, demo_http: str, tmp_path: Path) -> None:
    """History › Copy as mcp-lens --cli for an HTTP server with a bearer token and a token in its URL: the
    status says, in a sentence, that the Authorization header and the URL's token are redacted (it read
    "Authorization, http: the value is redacted", taking the URL for something named "http")."""
    entry = {
        "type": "http",
        "url": f"{demo_http}?token=abcdef123456",
        "headers": {"Authorization": "Bearer sk-9876543210"},
    }
    lens.start("--config", config_file(tmp_path, "secret demo", entry), "--server", "secret demo")
    call_echo(lens, "hello")
    table = history(lens)
    lens.wait(lambda: rows(table) and rows(table)[0][4] == "ok", 30_000, "the call finished")
    lens.click_item(table, "echo")
    QGuiApplication.clipboard().setText("")
    lens.click("Copy as mcp-lens --cli")
    lens.wait(lambda: QGuiApplication.clipboard().text() != "", what="the command copied")
    said = lens.window.statusBar().currentMessage()
    assert said == (
        "Copied an mcp-lens --cli command. The URL's token and the Authorization header are redacted: "
        "put your values back before running it."
    ), said


def test_the_redaction_note_names_a_stdio_servers_variable_and_flags() -> None:
    from inspector.ui.tools.call_panels import redacted_parts, redaction_note

    words = ["-e", "GITHUB_TOKEN=<redacted>", "--", "srv", "--api-key", "<redacted>", "--token=<redacted>"]
    assert redaction_note(redacted_parts(words)) == (
        " The GITHUB_TOKEN variable, the --api-key argument and the --token argument are redacted: "
        "put your values back before running it."
    )
    assert redaction_note(redacted_parts(["-e", "DEBUG=1", "--", "srv"])) == ""
