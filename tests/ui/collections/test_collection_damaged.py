"""A cut collection opens with its intact steps and says what was lost; a save into it is refused (the
file kept as it is) and the dialog says to save to a new file."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QSettings, Qt

from inspector.checks.collection import Collection
from inspector.ui.collections.save_dialog import SaveToCollectionDialog
from inspector.ui.collections.view import CollectionsView


def cut_collection(path: Path) -> bytes:
    collection = Collection("cut")
    for number in range(5):
        collection.add_step("tools/call", {"name": "echo", "arguments": {"message": f"m{number}"}}, server="Demo")
    data = collection.dumps().encode()
    cut = data[: data.index(b'"id": "s4"') + 20]  # three whole steps, then part of the fourth
    path.write_bytes(cut)
    return cut


def test_a_cut_collection_shows_its_intact_steps_and_is_not_saved_over(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    cut = cut_collection(path)
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    view = CollectionsView(settings, {})
    qtbot.addWidget(view)
    view.open(path)
    assert view.steps.count() == 3
    assert "3 intact steps shown" in view.running.text() and "what followed step s3 is lost" in view.running.text()
    dialog = SaveToCollectionDialog(settings, "tools/list", {}, "Demo", [{"kind": "success"}])
    qtbot.addWidget(dialog)
    dialog.file.setEditText(str(path))
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert "damaged" in dialog.message.text() and "new file" in dialog.message.text()
    assert path.read_bytes() == cut


def test_a_step_name_from_the_file_is_shown_visibly(qtbot, tmp_path: Path) -> None:
    """A collection file can come from anyone: a step named with a right-to-left override, NUL or a lone
    surrogate reads as written, escapes shown (the list read '…revres omeD no' before)."""
    collection = Collection("odd")
    collection.add_step(
        "tools/call", {"name": "echo", "arguments": {}}, server="Demo", name="echo <b>x</b>\u202e\x00 \ud800"
    )
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(json.loads(collection.dumps())), encoding="utf-8")  # ASCII: \ud800 as an escape
    view = CollectionsView(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), {})
    qtbot.addWidget(view)
    view.open(path)
    item = view.steps.item(0).text()
    assert "\\u202e" in item and "\\x00" in item and "\\ud800" in item and "\u202e" not in item
    assert "\\u202e" in view.step_label.text() and "\u202e" not in view.step_label.text()
