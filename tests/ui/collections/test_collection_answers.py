"""Run all on a collection whose ``${NAME}`` nothing fills asks for it (a masked field named after it),
then runs with the value typed, and sends it; the value is never written to the file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from inspector.checks.collection import Collection
from inspector.ui.collections.answers_dialog import AnswersDialog
from inspector.ui.collections.view import CollectionsView


def test_run_all_asks_for_a_reference_nothing_fills_and_sends_the_answer(
    qtbot, qloop, isolated_config: Path, tmp_path: Path, monkeypatch
) -> None:
    from test_collection_widgets import ClosedSpace
    from ui_support import DEMO_PROFILE

    monkeypatch.delenv("LENS_TEST_ANSWER", raising=False)
    path = tmp_path / "c.json"
    collection = Collection("c")
    expect = [{"kind": "equals", "path": "$.result.content[0].text", "value": "said typed-value-42"}]
    collection.add_step(
        "tools/call", {"name": "echo", "arguments": {"message": "said ${LENS_TEST_ANSWER}"}}, server="Demo server",
        expect=expect,
    )  # fmt: skip
    collection.save(path)
    before = path.read_bytes()
    view = CollectionsView(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat),
                           {"Demo server": ClosedSpace(DEMO_PROFILE)})  # fmt: skip
    qtbot.addWidget(view)
    view.open(path)
    qtbot.mouseClick(view.run_all_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any(isinstance(w, AnswersDialog) and w.isVisible() for w in QApplication.topLevelWidgets()))
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, AnswersDialog) and w.isVisible())
    field = next(f for f in dialog.findChildren(QLineEdit) if f.accessibleName() == "LENS_TEST_ANSWER")
    assert field.echoMode() == QLineEdit.EchoMode.Password
    qtbot.keyClicks(field, "typed-value-42")
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "passed in" in view.running.text(), timeout=30_000)
    assert view.running.text().startswith("1 of 1 passed"), view.step_label.text()
    assert path.read_bytes() == before
