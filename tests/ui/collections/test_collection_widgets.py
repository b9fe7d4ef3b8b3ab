"""The save dialog says which values became references; the assertion editor says what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt

from inspector.checks.collection import Collection
from inspector.ui.collections.save_dialog import SaveToCollectionDialog, default_expect
from inspector.ui.collections.view import CollectionsView


def test_a_secret_argument_is_saved_as_a_reference_and_the_dialog_says_so(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    params = {"name": "login", "arguments": {"user": "ann", "apiKey": "sk-live-1234567890"}}
    dialog = SaveToCollectionDialog(
        QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
        "tools/call",
        params,
        "Prod",
        default_expect("tools/call", {}, None),
    )
    qtbot.addWidget(dialog)
    dialog.file.setEditText(str(path))
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert "arguments.apiKey" in dialog.message.text() and "${API_KEY}" in dialog.message.text()
    saved = json.loads(path.read_text())["steps"][0]
    assert saved["params"]["arguments"] == {"user": "ann", "apiKey": "${API_KEY}"}
    assert (saved["server"], saved["expect"]) == ("Prod", [{"kind": "success"}])
    assert "sk-live" not in path.read_text()


def test_a_malformed_assertion_is_refused_in_words_and_the_file_kept(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    collection = Collection("c")
    collection.add_step("tools/list", {}, server="Demo server")
    collection.save(path)
    before = path.read_text()
    view = CollectionsView(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), {})
    qtbot.addWidget(view)
    view.open(path)
    view.assertions.setPlainText('[{"kind": "equals", "value": 1}]')
    view.save_assertions()
    assert "path" in view.assertion_message.text()
    view.assertions.setPlainText("[{")
    view.save_assertions()
    assert view.assertion_message.text().startswith("Not JSON")
    assert path.read_text() == before


class ClosedSpace:
    """A workspace entry whose session is not connected: the run connects its profile itself."""

    def __init__(self, profile: object) -> None:
        self.profile = profile
        self.session = type("Session", (), {"live": False})()


def test_a_server_not_connected_is_connected_for_the_run_and_an_unknown_one_said(
    qtbot, qloop, isolated_config: Path, tmp_path: Path
) -> None:
    from ui_support import DEMO_PROFILE

    path = tmp_path / "c.json"
    collection = Collection("c")
    collection.add_step("tools/call", {"name": "echo", "arguments": {"message": "hi"}}, server="Demo server")
    collection.add_step("tools/list", {}, server="Nowhere")
    collection.save(path)
    spaces = {"Demo server": ClosedSpace(DEMO_PROFILE)}
    view = CollectionsView(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), spaces)
    qtbot.addWidget(view)
    view.open(path)
    qtbot.mouseClick(view.run_all_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "passed in" in view.running.text(), timeout=15_000)
    assert view.running.text().startswith("1 of 2 passed")
    view.steps.setCurrentRow(1)
    assert (
        "unreachable" in view.step_label.text() and "no saved server profile named 'Nowhere'" in view.step_label.text()
    )


def test_save_assertions_keeps_a_step_saved_to_the_collection_meanwhile(qtbot, tmp_path: Path) -> None:
    """Save assertions is read-merge-write: the step "Save to collection…" appended after the tab opened
    the file stays (it was deleted, and "Saved." said, before)."""
    from PySide6.QtWidgets import QPushButton

    path = tmp_path / "c.json"
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    collection = Collection("c")
    collection.add_step("tools/list", {}, server="Demo server")
    collection.save(path)
    view = CollectionsView(settings, {})
    qtbot.addWidget(view)
    view.open(path)
    view.steps.setCurrentRow(0)

    dialog = SaveToCollectionDialog(settings, "tools/call", {"name": "echo"}, "Demo server", [{"kind": "success"}])
    qtbot.addWidget(dialog)
    dialog.file.setEditText(str(path))
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert [s["method"] for s in json.loads(path.read_text())["steps"]] == ["tools/list", "tools/call"]

    view.assertions.setPlainText('[{"kind": "success"}]')
    [button] = [b for b in view.findChildren(QPushButton) if b.text() == "Save assertions"]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert view.assertion_message.text() == "Saved."
    steps = json.loads(path.read_text())["steps"]
    assert [(s["method"], s["expect"]) for s in steps] == [
        ("tools/list", [{"kind": "success"}]),
        ("tools/call", [{"kind": "success"}]),
    ]
    assert view.steps.count() == 2  # the tab shows the file as it is now
