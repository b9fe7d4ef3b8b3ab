"""Qt's file dialog remembers the folders a person visited in its own settings file (QtProject.conf, in
the user's config folder). Issue 21: every file MCP Lens writes is user-only; the outside tester found
that one written 0644 after File › Open session (h11 point 3)."""

from __future__ import annotations

import stat
from pathlib import Path

from factories import exchange
from test_traffic import choose_file, file_dialog

from inspector.traffic import jsonl


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_file_dialogs_settings_are_user_only(lens, tmp_path: Path) -> None:
    qt_settings = lens.home / ".config" / "QtProject.conf"
    record = tmp_path / "record.jsonl"
    jsonl.save(record, exchange("ping", {}, {}))
    lens.start(connected=False)

    lens.menu("File", "Open session…")  # cancelled: Qt still saves the folder it showed
    dialog = file_dialog(lens)
    lens.key("Escape", dialog)
    lens.wait(qt_settings.exists, 30_000, "Qt's file dialog settings written")
    assert mode(qt_settings) == 0o600, f"{qt_settings} is {oct(mode(qt_settings))}"

    lens.menu("File", "Open session…")  # a file chosen: written again, still user-only
    choose_file(lens, record)
    before = qt_settings.stat().st_mtime_ns
    lens.wait(lambda: qt_settings.stat().st_mtime_ns != before or "record.jsonl" in qt_settings.read_text(), 30_000)
    assert mode(qt_settings) == 0o600, f"{qt_settings} is {oct(mode(qt_settings))}"
    assert lens.quit() == 0
    assert mode(qt_settings) == 0o600
