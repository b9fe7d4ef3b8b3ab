"""The start-up filter of Qt's known harmless output: rules only when the user set none; real warnings pass."""

from __future__ import annotations

from PySide6.QtCore import qWarning

from inspector.ui.qt_noise import QUIET_RULES, MessageFilter, quiet_qt_logging


def test_rules_are_set_only_when_the_user_set_none() -> None:
    environ: dict[str, str] = {}
    assert quiet_qt_logging(environ) is True
    assert environ["QT_LOGGING_RULES"] == ";".join(QUIET_RULES)
    mine = {"QT_LOGGING_RULES": "qt.multimedia.*=true"}
    assert quiet_qt_logging(mine) is False
    assert mine == {"QT_LOGGING_RULES": "qt.multimedia.*=true"}


def test_harmless_lines_are_dropped_and_the_rest_reach_the_previous_handler(qtlog) -> None:
    handler = MessageFilter()
    handler.install()
    try:
        qWarning("This plugin does not support propagateSizeHints()")
        qWarning("PulseAudioService: pa_context_connect() failed")
        qWarning("QFile::open: a real warning")
    finally:
        handler.uninstall()
    messages = [record.message for record in qtlog.records]
    assert messages == ["QFile::open: a real warning"]
