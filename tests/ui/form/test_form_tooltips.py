"""Server text in a form field's tooltips is shown literally: Qt must never take it for rich text."""

from __future__ import annotations

from PySide6.QtGui import Qt as QtGui
from test_form_support import make_form, row

HOSTILE = '<img src="file:///etc/passwd"><b>bold</b>'


def is_rich(text: object) -> bool:
    return isinstance(text, str) and QtGui.mightBeRichText(text)


def test_the_rich_text_check_catches_the_hostile_text() -> None:
    assert is_rich(HOSTILE), "the check itself must be able to fail"


def test_form_field_tooltips_are_plain(qtbot) -> None:  # type: ignore[no-untyped-def]
    schema = {"type": "object", "properties": {"x" * 45: {"type": "string", "title": HOSTILE, "description": HOSTILE}}}
    form = make_form(qtbot, schema)
    field = row(form, "x" * 45)
    tips = [field.header.toolTip(), field.toolTip()]
    assert any(HOSTILE in tip for tip in tips)
    assert not any(is_rich(tip) for tip in tips), tips
