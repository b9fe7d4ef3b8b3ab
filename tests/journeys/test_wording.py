"""What the app says, said once and right (issue 22): a killed stdio server, counted nouns."""

from __future__ import annotations

import os
import signal

from PySide6.QtWidgets import QLabel
from test_connection import demo_pid


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
    lens.wait(lambda: bar.currentMessage() != "", 15_000, "the status bar's message")
    said = bar.currentMessage()
    assert "Connection failed" not in said, said
    assert said.startswith("Disconnected: the server process exited (code -9"), said
    assert said.endswith("Reconnect with Ctrl+R."), said
