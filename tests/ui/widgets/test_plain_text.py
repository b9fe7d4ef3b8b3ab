"""The one way server text reaches the screen (`ui/widgets/plain_text.py`): literal, cut, invisible characters shown."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as QtGui
from PySide6.QtWidgets import QLabel, QMessageBox

from inspector.ui.widgets.plain_text import (
    TOOLTIP_CHARS,
    PlainLabel,
    item_text,
    plain_label,
    plain_message_box,
    plain_tooltip,
    safe_title,
    safe_tooltip,
    window_title,
)

IMG = '<img src="file:///nonexistent/fifo"><b>bold</b>'


def test_the_check_can_fail() -> None:
    assert QtGui.mightBeRichText(IMG) and QtGui.mightBeRichText("x &lt; y")


def test_a_tooltip_that_looks_rich_is_escaped_into_our_own_paragraph() -> None:
    tip = safe_tooltip(f"{IMG}\nrtl\u202eloot")
    assert tip.startswith("<p style='white-space:pre-wrap'>") and "<img" not in tip and "<b>" not in tip
    assert '&lt;img src="file:///nonexistent/fifo"&gt;' in tip and "rtl\\u202eloot" in tip
    plain = safe_tooltip("plain words, rtl\u202eloot")
    assert plain == "plain words, rtl\\u202eloot" and not QtGui.mightBeRichText(plain)


def test_an_entity_on_the_first_line_counts_as_rich_too() -> None:
    tip = safe_tooltip("a &lt; b")
    assert "&amp;lt;" in tip, "shown as typed, not as '<'"


def test_a_titled_tooltip_stays_plain_text() -> None:
    tip = plain_tooltip("Description", IMG)
    assert tip == f"Description:\n{IMG}" and not QtGui.mightBeRichText(tip)


def test_a_megabyte_tooltip_is_cut() -> None:
    tip = safe_tooltip("x" * 1_000_000)
    assert len(tip) < TOOLTIP_CHARS + 100 and tip.endswith("more characters]")


def test_a_plain_label_stays_plain_after_every_set_text(qapp) -> None:  # type: ignore[no-untyped-def]
    label = plain_label(IMG)
    assert isinstance(label, PlainLabel) and label.textFormat() == Qt.TextFormat.PlainText
    label.setText("rtl\u202eloot\x1b[2J")
    assert label.text() == "rtl\\u202eloot\\x1b[2J"
    label.setTextFormat(Qt.TextFormat.RichText)
    assert label.textFormat() == Qt.TextFormat.PlainText
    label.setText("y" * 1_000_000)
    assert len(label.text()) < 2100
    assert isinstance(label, QLabel)


def test_titles_are_one_visible_line_without_a_shortcut_key() -> None:
    assert safe_title("&Delete\nall\u202e") == "&&Delete\\nall\\u202e"
    assert item_text("a\nb") == "a\\nb"
    assert window_title("name[*]") == "name[\u2217]"


def test_a_message_box_shows_its_text_and_informative_text_literally(qapp) -> None:  # type: ignore[no-untyped-def]
    box = plain_message_box(QMessageBox.Icon.Warning, "Title", IMG, informative=f"{IMG}\u202e")
    assert box.textFormat() == Qt.TextFormat.PlainText and box.text() == IMG
    informative = box.findChild(QLabel, "qt_msgbox_informativelabel")
    assert informative is not None and informative.textFormat() == Qt.TextFormat.PlainText
    assert box.informativeText() == f"{IMG}\\u202e"


def test_a_plain_label_takes_a_style_and_can_be_dimmed(qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QPalette

    styled = plain_label(IMG, style="color:#6e6e6e;")
    assert styled.styleSheet() == "QLabel { color:#6e6e6e; }" and styled.textFormat() == Qt.TextFormat.PlainText
    assert plain_label("plain").styleSheet() == ""
    dimmed, normal = plain_label("dim", dim=True), plain_label("normal")
    role = QPalette.ColorRole.WindowText
    assert dimmed.palette().color(role).alpha() == 150 and normal.palette().color(role).alpha() == 255
