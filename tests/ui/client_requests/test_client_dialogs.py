"""Server-to-client requests in the real window against the demo server: sampling, elicitation, roots."""

from __future__ import annotations

import base64
import dataclasses
import json
from pathlib import Path

from ui_support import DEMO_PROFILE, connect, dark_palette, screenshot

from inspector.core.history import OK, TOOL_ERROR
from inspector.demo import media
from inspector.traffic.entry import Direction, Kind
from inspector.ui.client_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.client_requests.request_dialog import WITHDRAWN
from inspector.ui.client_requests.sampling_dialog import SamplingDialog
from inspector.ui.main_window import MainWindow

# These tools ask mid-call (elicitation/create, sampling/createMessage, roots/list): the handshake era. In
# 2026-07-28 a server asks through input_required instead (order_coffee; tests/ui/client_requests/
# test_deprecated_marks.py and the input_required tests).
LEGACY_DEMO = dataclasses.replace(DEMO_PROFILE, protocol_era="legacy")


def start(qtbot, win: MainWindow, tool: str, arguments: dict | None = None):
    """Call `tool` and return (record, the dialog the server's request opened)."""
    opened: list = []
    win.client_requests.dialogOpened.connect(opened.append)
    bench = win.workbench
    assert bench.tools.select(tool)
    if arguments is not None:
        assert not bench.form.set_arguments(arguments)
    record = bench.call_current()
    assert record is not None
    qtbot.waitUntil(lambda: bool(opened), timeout=20000)
    win.client_requests.dialogOpened.disconnect(opened.append)
    return record, opened[0]


def result_text(record) -> str:
    return "\n".join(block.get("text", "") for block in record.result["content"] if isinstance(block, dict))


def paired(win: MainWindow, method: str) -> tuple:
    """The last server→client request of `method` and our response, as the traffic log paired them."""
    request = next(e for e in reversed(list(win.store)) if e.method == method and e.kind is Kind.REQUEST)
    assert request.direction is Direction.IN and request.peer_seq is not None
    response = win.store.by_seq(request.peer_seq)
    assert response is not None and response.direction is Direction.OUT and response.peer_seq == request.seq
    return request, response


def test_sampling_reply_reaches_the_tool_and_reject_is_an_error(qtbot, window: MainWindow, tmp_path: Path) -> None:
    connect(qtbot, window, LEGACY_DEMO)
    record, dialog = start(qtbot, window, "ask_model", {"question": "Which colour is the sky?", "with_image": True})
    assert isinstance(dialog, SamplingDialog) and dialog.isVisible()
    assert not record.done, "nothing is answered before the user approves"
    assert dialog.system_prompt.toPlainText().startswith("You are the model behind an MCP Lens demo")
    assert [m.role_label.text() for m in dialog.messages] == ["#1 · user", "#2 · user"]
    assert dialog.parameter_rows["Max tokens"] == "200"
    assert dialog.parameter_rows["Model hints"] == "claude-sonnet, gpt-4o"
    assert dialog.parameter_rows["Intelligence priority"] == "0.8"
    assert dialog.parameter_rows["Stop sequences"] == json.dumps("\n\nUser:")
    assert not dialog.approve_button.isEnabled(), "an empty reply cannot be approved"
    dialog.reply_text.setPlainText("Blue, mostly.")
    dialog.model_name.setText("human-1")
    dialog.setPalette(dark_palette())
    qtbot.wait(100)
    screenshot(dialog, "sampling_dialog.png")
    qtbot.mouseClick(dialog.approve_button, qtbot_left())
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert record.outcome == OK, record.error
    assert "human-1 replied, stop reason endTurn:" in result_text(record)
    assert "Blue, mostly." in result_text(record)
    assert window.settings.value("dialogs/SamplingDialog/geometry") is not None, "the dialog's size is remembered"
    _, response = paired(window, "sampling/createMessage")
    assert json.loads(response.raw)["result"]["content"] == {"type": "text", "text": "Blue, mostly."}

    # An image reply from a file.
    record, dialog = start(qtbot, window, "ask_model", {"question": "Draw it"})
    png = tmp_path / "reply.png"
    png.write_bytes(media.render_png(32, "checker"))
    dialog.pick_image_file = lambda: str(png)
    dialog.choose_image.click()
    assert dialog.approve_button.isEnabled() and dialog.kind.currentText() == "Image"
    dialog.approve()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    images = [b for b in record.result["content"] if b.get("type") == "image"]
    assert images and base64.b64decode(images[0]["data"]) == png.read_bytes()

    # Reject: the server sees a JSON-RPC error with our message; the tool reports it.
    record, dialog = start(qtbot, window, "ask_model")
    dialog.reject_message.setText("Not today, thanks")
    dialog.reject_button.click()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert record.outcome == TOOL_ERROR
    assert "the client refused the sampling request: Not today, thanks" in result_text(record)
    _, response = paired(window, "sampling/createMessage")
    assert json.loads(response.raw)["error"]["message"] == "Not today, thanks"


def test_two_sampling_requests_get_two_dialogs_and_cancel_withdraws(qtbot, window: MainWindow) -> None:
    connect(qtbot, window, LEGACY_DEMO)
    first, one = start(qtbot, window, "ask_model", {"question": "first"})
    second, two = start(qtbot, window, "ask_model", {"question": "second"})
    assert one is not two and one.isVisible() and two.isVisible()
    two.reply_text.setPlainText("answer two")
    two.approve()
    qtbot.waitUntil(lambda: second.done, timeout=20000)
    assert "answer two" in result_text(second) and not first.done
    # Cancelling the tool call makes the server cancel its sampling request: the dialog says so.
    first.handle.cancel()
    qtbot.waitUntil(lambda: one.outcome == "withdrawn", timeout=20000)
    assert one.banner.isVisible() and one.banner.text() == WITHDRAWN
    assert not one.approve_button.isEnabled() and not one.reply_text.isEnabled()


def test_elicitation_form_with_defaults_filled_and_declined(qtbot, window: MainWindow) -> None:
    connect(qtbot, window, LEGACY_DEMO)
    record, dialog = start(qtbot, window, "book_table", {"restaurant": "Lens Bistro"})
    assert isinstance(dialog, ElicitationDialog) and dialog.mode == "form"
    assert dialog.message.text() == "Book a table at Lens Bistro: who, how many and when?"
    shown = dialog.form.arguments()
    assert shown == {"party_size": 2, "date": "2026-12-24", "seating": "indoor", "vegetarian": False}
    # "name" is required: accepting now shows the problem at the field and sends nothing.
    assert not dialog.accept_form()
    assert dialog.banner.isVisible() and not record.done
    dialog.setPalette(dark_palette())
    qtbot.wait(100)
    screenshot(dialog, "elicitation_form.png")
    dialog.form.set_arguments({**shown, "name": "Ada"})
    assert dialog.accept_form()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    booking = record.result["structuredContent"]
    assert booking["action"] == "accept"
    assert booking["booking"] == {"name": "Ada", **shown}, "defaults are sent as pre-filled"

    record, dialog = start(qtbot, window, "book_table")
    dialog.form.set_arguments({"name": "Grace", "party_size": 5, "date": "2027-01-02", "seating": "terrace"})
    dialog.accept_button.click()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert record.result["structuredContent"]["booking"] == {
        "name": "Grace",
        "party_size": 5,
        "date": "2027-01-02",
        "seating": "terrace",
    }

    record, dialog = start(qtbot, window, "book_table")
    dialog.decline_button.click()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert record.result["structuredContent"] == {"restaurant": "Lens Bistro", "action": "decline", "booking": None}
    record, dialog = start(qtbot, window, "book_table")
    dialog.close()  # closing the window is "cancel"
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert record.result["structuredContent"]["action"] == "cancel"
    paired(window, "elicitation/create")


def test_url_elicitation_confirmed_and_javascript_refused(qtbot, window: MainWindow) -> None:
    connect(qtbot, window, LEGACY_DEMO)
    opened: list[str] = []
    window.client_requests.opener = lambda url: opened.append(url) or True
    url = "https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation"
    record, dialog = start(qtbot, window, "open_docs")
    assert dialog.mode == "url" and dialog.url_view.toPlainText() == url
    assert dialog.host_label.text() == "Opens a page on: modelcontextprotocol.io"
    assert not dialog.open_button.isEnabled(), "nothing opens before the user confirms"
    assert not dialog.open_url() and opened == []
    dialog.setPalette(dark_palette())
    qtbot.wait(100)
    screenshot(dialog, "elicitation_url.png")
    dialog.confirm.setChecked(True)
    dialog.open_button.click()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert opened == [url]
    assert "the user chose accept" in result_text(record)

    record, dialog = start(qtbot, window, "open_docs", {"url": "javascript:alert(document.cookie)"})
    assert not dialog.verdict.allowed and not dialog.open_button.isVisibleTo(dialog)
    assert "'javascript:' links are never opened" in dialog.refusal.text()
    dialog.confirm.setChecked(True)
    assert not dialog.open_url()
    screenshot(dialog, "elicitation_url_refused.png")
    dialog.decline_button.click()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert opened == [url], "the javascript: URL was never opened"
    assert "the user chose decline" in result_text(record)
    assert any(e.kind is Kind.LIFECYCLE and b"refused to open the URL" in e.raw for e in window.store), (
        "the refusal is flagged in the traffic log"
    )


def test_a_tool_reads_the_roots_we_set(qtbot, window: MainWindow, tmp_path: Path) -> None:
    panel = window.client_requests.roots_panel
    first = tmp_path / "project one"
    first.mkdir()
    panel.pick_folder = lambda: str(first)
    panel.add_button.click()
    assert panel.uris() == [first.as_uri()]
    demo = window.servers.demo  # the window's own demo entry (its roots are saved as the demo's)
    demo.protocol_era = "legacy"
    connect(qtbot, window, demo)
    record = window.workbench.call_current() if window.workbench.tools.select("list_roots") else None
    assert record is not None
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert record.result["structuredContent"]["roots"] == [{"uri": first.as_uri(), "name": "project one"}]

    # A change is sent as notifications/roots/list_changed and saved for the profile.
    assert panel.add("/srv/data")
    qtbot.waitUntil(lambda: "list_changed" in panel.status.text(), timeout=10000)
    qtbot.waitUntil(
        lambda: any(
            e.method == "notifications/roots/list_changed" and e.direction is Direction.OUT for e in window.store
        )
    )
    assert window.settings.value("roots/demo") == [first.as_uri(), "file:///srv/data"]
    assert not panel.add("relative/path") and "absolute" in panel.status.text()
    assert not panel.add("https://example.com") and "file://" in panel.status.text()
    window.workbench.tools.select("list_roots")
    record = window.workbench.call_current()
    qtbot.waitUntil(lambda: record.done, timeout=20000)
    assert [r["uri"] for r in record.result["structuredContent"]["roots"]] == [first.as_uri(), "file:///srv/data"]
    window.sidebar.setCurrentWidget(panel)
    assert window.sidebar.tabText(1) == "Roots (2)"
    window.left.setPalette(dark_palette())
    qtbot.wait(100)
    screenshot(window.left, "roots.png")


def qtbot_left():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_disconnect_withdraws_open_dialogs(qtbot, window: MainWindow) -> None:
    connect(qtbot, window, LEGACY_DEMO)
    _, sampling = start(qtbot, window, "ask_model")
    _, form = start(qtbot, window, "book_table")
    sampling.reply_text.setPlainText("half-written")
    window.session.disconnect()
    qtbot.waitUntil(lambda: sampling.outcome == "withdrawn" and form.outcome == "withdrawn", timeout=20000)
    assert sampling.reply_text.toPlainText() == "half-written", "what the user typed stays on screen"
    assert sampling.close_button.isVisible() and not sampling.approve_button.isEnabled()
    assert not form.accept_button.isEnabled() and form.banner.text() == WITHDRAWN
    assert window.client_requests.pending() == []
    sampling.close()
    assert not sampling.isVisible()


def test_hostile_sampling_and_elicitation_params_render_as_plain_text(qtbot, qloop, tmp_path: Path) -> None:
    html = "<b>bold</b><img src=x onerror=alert(1)>"
    params = {
        "messages": [
            {"role": html, "content": {"type": "text", "text": html}},
            {"role": "user", "content": [{"type": "image", "data": "not base64!", "mimeType": "image/png"}]},
            {"role": "assistant", "content": {"type": "tool_use", "id": "t1", "name": "x", "input": {}}},
            "not a message",
        ],
        "systemPrompt": html,
        "maxTokens": "many",
        "modelPreferences": {"hints": [{"name": html}, 7], "costPriority": "high"},
    }
    dialog = SamplingDialog(params)
    qtbot.addWidget(dialog)
    dialog.show()
    assert len(dialog.messages) == 4
    assert dialog.messages[0].role_label.text() == f"#1 · {html}"
    assert dialog.parameter_rows["Model hints"] == f"{html}, 7"
    assert dialog.parameter_rows["Max tokens"] == "many"
    for label in dialog.findChildren(type(dialog.intro)):
        assert label.textFormat() == label.textFormat().PlainText, label.text()
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage" * 10)
    assert not dialog.load_image(bad) and "could not be decoded" in dialog.image_info.text()
    assert not dialog.load_image(tmp_path / "missing.png") and "Could not read" in dialog.image_info.text()
    dialog.reject_request()
    assert dialog.future.done() and dialog.future.exception().message == "The user rejected the sampling request"

    form = ElicitationDialog({"message": html, "requestedSchema": {"type": "object", "properties": "nope"}})
    qtbot.addWidget(form)
    assert form.message.text() == html and form.form is not None
    url = ElicitationDialog({"mode": "url", "message": html, "url": "file:///etc/passwd", "elicitationId": "1"})
    qtbot.addWidget(url)
    url.show()
    assert "'file:' links are never opened" in url.refusal.text()
    url.close()
    assert url.future.result() == {"action": "cancel"}


def test_roots_are_saved_with_a_saved_profile(qtbot, window: MainWindow, tmp_path: Path) -> None:
    from inspector.config.profile import ServerProfile
    from inspector.config.store import ProfileStore

    store = window.servers.store
    store.add(ServerProfile(name="work", transport="stdio", command="true"))
    store.save()
    window.servers.refresh("work")
    requests = window.client_requests
    requests.show_profile(store.get("work"))
    assert requests.roots_panel.title.text() == "Roots for work" and requests.roots_panel.uris() == []
    assert requests.roots_panel.add(str(tmp_path))
    assert "not connected" not in requests.roots_panel.status.text()
    assert "saved" in requests.roots_panel.status.text()
    assert ProfileStore(store.path).load()[0].roots == [tmp_path.as_uri()], "written to the profiles file"
    requests.roots_panel.list.setCurrentRow(0)
    requests.roots_panel.remove_selected()
    assert ProfileStore(store.path).load()[0].roots == []
    requests.show_profile(window.servers.demo)
    assert requests.roots_panel.title.text() == "Roots for Demo server"
