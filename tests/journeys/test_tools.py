"""The Tools tab as a person uses it: fill a form, call, read results (issue 11, points 6 and 10).

Layout journeys run at the window's first-start size (1280×860) and assert on what is on screen.
`tests/servers/tools_server.py` serves tools made for these checks; the rest use the demo server.
"""

from __future__ import annotations

import sys

from journey_support import accessible_name
from lens_support import REPO
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QLineEdit, QListView, QMessageBox, QWidget

TOOLS_SERVER = [sys.executable, str(REPO / "tests/servers/tools_server.py")]
CONNECTION_EXAMPLE = "postgresql://reporting_user@db.internal.example.com:5432/analytics?sslmode=require"


def top(widget: QWidget) -> int:
    """Where a widget is, vertically, in its window."""
    return widget.mapTo(widget.window(), QPoint(0, 0)).y()


def question(lens) -> QMessageBox:
    """The question dialog that is open now."""
    lens.qtbot.waitUntil(lambda: any(isinstance(w, QMessageBox) and w.isVisible() for w in lens.qapp.topLevelWidgets()))
    return next(w for w in lens.qapp.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())


def answer(lens, dialog: QMessageBox, button: str) -> None:
    lens.click(lens.find(button, top=dialog))
    lens.qtbot.waitUntil(lambda: not dialog.isVisible())


def header_text(lens, field: str) -> str:
    """A form field's header line (name and type summary) as a screen reader reads it."""

    def found() -> list[str]:
        return [name for name in map(accessible_name, lens.widgets()) if name.startswith(f"{field}: ")]

    lens.qtbot.waitUntil(lambda: bool(found()))
    return found()[0]


# -- point 6: input that does not parse is never dropped silently --------------------------------


def test_a_field_that_does_not_parse_is_listed_and_asked_about(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "run_query")
    lens.type("sql", "select 2")
    lens.type("timeout_s", "abc")
    assert lens.shows("not a number")

    lens.click("Call  (Ctrl+Enter)")
    dialog = question(lens)
    text = dialog.text()
    assert "timeout_s" in text and "not a number" in text and '"abc"' in text, text
    answer(lens, dialog, "Go back")
    lens.qtbot.wait(300)
    assert lens.sent("tools/call") == [], "going back sends nothing"

    lens.click("Call  (Ctrl+Enter)")
    dialog = question(lens)
    assert '{"sql": "select 2"}' in dialog.text(), "the dialog says what 'Send anyway' sends"
    answer(lens, dialog, "Send anyway")
    lens.qtbot.waitUntil(lambda: len(lens.sent("tools/call")) == 1)
    assert lens.sent("tools/call")[0]["params"]["arguments"] == {"sql": "select 2"}


def test_a_missing_required_field_is_asked_about_in_a_dialog_a_person_can_answer(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "run_query")
    lens.click("Call  (Ctrl+Enter)")
    dialog = question(lens)
    assert "sql" in dialog.text() and "required" in dialog.text()
    answer(lens, dialog, "Go back")
    lens.qtbot.wait(200)
    assert lens.sent("tools/call") == []


# -- point 10: layout and wording ------------------------------------------------------------------


def test_the_form_gets_the_room_at_the_default_size(lens) -> None:
    lens.start()
    assert lens.window.size().width() == 1280 and lens.window.size().height() == 860
    lens.click_item("Tool list", "Schedule a meeting")
    form = lens.find("Arguments form", QAbstractScrollArea)
    result = lens.find("Result", QWidget)
    lens.qtbot.wait(100)
    viewport = form.viewport()
    height = viewport.height()
    assert height >= 180, f"the form shows {height} px"  # it was 110: two fields
    assert height > result.height(), "an empty result pane does not take more room than the form"
    for name in ("title", "day", "starts_at"):  # three whole fields, each with its help line and editor
        field = lens.find(name)
        bottom = field.mapTo(viewport, QPoint(0, field.height())).y()
        assert 0 <= bottom <= height, f"{name} is not wholly in view (bottom at {bottom} of {height})"


def test_the_result_names_the_tool_it_belongs_to(lens) -> None:
    lens.start()
    lens.click_item("Tool list", "Echo")
    lens.type("message", "first result")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait_text("Result of echo")
    lens.wait_text("plain text · 12 characters")  # the text block too (a loaded machine draws it a turn later)
    lens.click_item("Tool list", "Generate image")
    assert lens.shows("first result"), "the last result stays readable"
    caption = next(line for line in lens.texts().splitlines() if line.startswith("Result of echo"))
    assert "not the selected tool" in caption, caption


def test_reading_a_resource_link_keeps_the_tool_result(lens) -> None:
    lens.start()
    lens.click_item("Tool list", "Resource links")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait_text("Demo server guide")
    lens.click("Read resource")
    lens.wait_text("# MCP Lens demo server")
    params = dict(lens.sent("resources/read")[0]["params"])
    assert params.pop("_meta")["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"  # the modern envelope
    assert params == {"uri": "demo://docs/guide"}
    lens.tab("Result")
    assert lens.shows("Demo server guide") and lens.shows("demo://images/gradient.png"), "the tool result is kept"
    assert not lens.shows("# MCP Lens demo server")
    lens.tab("Resource")
    assert lens.shows("# MCP Lens demo server")


def test_tool_rows_fit_and_have_no_empty_second_line(lens) -> None:
    lens.start()
    view = lens.find("Tool list", QListView)
    lens.qtbot.waitUntil(lambda: view.model().rowCount() >= 10)
    lens.qtbot.wait(100)
    metrics = QFontMetrics(view.font())
    room = view.viewport().width() - 2 * view.style().pixelMetric(view.style().PixelMetric.PM_FocusFrameHMargin) - 8
    for row in range(view.model().rowCount()):
        lines = str(view.model().index(row, 0).data()).split("\n")
        assert all(line.strip() for line in lines), f"row {row} has an empty line: {lines}"
        assert metrics.horizontalAdvance(lines[0]) <= room, f"{lines[0]!r} is clipped in {room} px"


def test_a_schema_without_type_is_reported_in_words(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "untyped_schema")
    lens.wait_text("inputSchema")
    assert not lens.shows("is None")
    assert lens.shows('$.tools[1].inputSchema: the schema has no "type" (expected "type": "object")')


def test_a_long_example_is_shown_whole_in_a_wide_field(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "run_query")
    field = lens.find("connection", QLineEdit)
    assert field.placeholderText() == f"e.g. {CONNECTION_EXAMPLE}"
    assert field.fontMetrics().horizontalAdvance(field.placeholderText()) < field.width(), "it fits"


def test_exclusive_bounds_are_labelled_as_exclusive(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "run_query")
    header = header_text(lens, "timeout_s")
    assert "0–300" not in header and "> 0" in header and "≤ 300" in header, header


def test_an_inline_error_does_not_move_the_fields_below(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "run_query")
    field = lens.find("timeout_s", QLineEdit)
    below = lens.find("connection", QLineEdit)
    lens.type(field, "1")  # focused (the form scrolls the field into view), a valid value
    before = (top(field), top(below))
    for key in "abc":
        QTest.keyClick(field, key)
        lens.qtbot.wait(50)
        assert (top(field), top(below)) == before, f"after typing {key!r} the fields moved"
    assert lens.shows("not a number")


def test_tab_from_a_map_key_goes_to_its_value(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "run_query")
    lens.type("sql", "select 1")
    lens.click("Show options")
    lens.click("+ Add entry")
    lens.qtbot.wait(50)  # the new entry's widgets show on the next turn of the event loop
    key = QApplication.focusWidget()
    assert isinstance(key, QLineEdit) and key.placeholderText() == "key"
    QTest.keyClicks(key, "mode")
    QTest.keyClick(key, Qt.Key.Key_Tab)
    value = QApplication.focusWidget()
    assert isinstance(value, QLineEdit) and value is not key, f"Tab went to {accessible_name(value)!r}"
    QTest.keyClicks(value, "fast")
    lens.click("Call  (Ctrl+Enter)")
    lens.qtbot.waitUntil(lambda: len(lens.sent("tools/call")) == 1)
    assert lens.sent("tools/call")[0]["params"]["arguments"] == {"sql": "select 1", "options": {"mode": "fast"}}


def test_a_text_plain_blob_is_shown_as_text(lens) -> None:
    lens.start("--", *TOOLS_SERVER)
    lens.click_item("Tool list", "fetch_report")
    lens.click("Call  (Ctrl+Enter)")
    lens.wait_text("test://report.txt")
    lens.wait_text("Quarterly report: every dashboard is green.")


def test_calls_in_flight_never_squeeze_the_traffic_dock(lens) -> None:
    """Several calls at once (each a progress row) and their results leave the dock its height."""
    window = lens.start()
    log = lens.find("Traffic log")
    height = log.height()
    lens.click_item("Tool list", "Slow task with progress")
    call = lens.find("Call  (Ctrl+Enter)")
    for _ in range(6):
        lens.click(call)
    lens.wait(lambda: len(lens.sent("tools/call")) == 6, what="six calls sent")
    lens.qtbot.wait(300)
    assert log.height() >= height - 2, (height, log.height())
    lens.click_item("Tool list", "Echo (echo)")
    lens.type("message", "a longer result " * 8)
    for _ in range(3):
        lens.click(call)
    lens.wait(lambda: len(lens.sent("tools/call")) == 9, what="three more calls")
    lens.qtbot.wait(500)
    assert log.height() >= height - 2, (height, log.height())
    assert window.size().height() == 860


def test_call_without_a_tool_or_a_connection_says_why(lens) -> None:
    """Call is disabled until a tool is picked; Ctrl+Enter without one, or after Disconnect, says why."""
    lens.start()
    call = lens.find("Call  (Ctrl+Enter)")
    assert not call.isEnabled()
    lens.key("Ctrl+Return", lens.find("Tool list"))
    lens.wait_status(lambda text: "Select a tool to call first" in text)
    lens.click_item("Tool list", "Echo (echo)")
    assert call.isEnabled()
    lens.menu("Server", "Disconnect")
    lens.wait(lambda: not call.isEnabled(), what="Call disabled once disconnected")
    lens.key("Ctrl+Return", lens.find("message"))
    lens.wait_status(lambda text: "Not connected" in text)
    assert lens.sent("tools/call") == []
