""" "Save to collection…": append a call as a step (method, params, the server's profile name and a
default assertion) to a collection file, new or existing; the file is remembered in QSettings.

Secret-looking values become ``${VAR}`` references (`Collection.add_step`) and the dialog says which.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.checks.collection import CollectionError, update
from inspector.ui.widgets.plain_text import PlainLabel

RECENT_KEY = "collections/recentFiles"  # most recent first
FILTER = "Collections (*.json);;All files (*)"


def recent_files(settings: QSettings) -> list[str]:
    value = settings.value(RECENT_KEY) or []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def remember(settings: QSettings, path: Path) -> None:
    files = [str(path)] + [f for f in recent_files(settings) if f != str(path)]
    settings.setValue(RECENT_KEY, files[:10])


def default_expect(method: str, result: dict[str, Any] | None, tool: dict[str, Any] | None) -> list[dict[str, Any]]:
    """`success`, and `output_schema` for a tool with an outputSchema that answered structuredContent."""
    expect: list[dict[str, Any]] = [{"kind": "success"}]
    structured = isinstance(result, dict) and "structuredContent" in result
    if method == "tools/call" and structured and isinstance(tool, dict) and tool.get("outputSchema"):
        expect.append({"kind": "output_schema"})
    return expect


def plain(label: QLabel) -> QLabel:
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


class SaveToCollectionDialog(QDialog):
    """Which collection and what step name; Save appends the step and writes the file."""

    def __init__(
        self,
        settings: QSettings,
        method: str,
        params: dict[str, Any],
        server: str | None,
        expect: list[dict[str, Any]],
        parent: QWidget | None = None,
        reach: dict[str, Any] | None = None,  # how `run` reaches the server: its entry, secrets as ${VAR}
        secrets: dict[str, str] | None = None,  # the server's secret values → their ${NAME} (`secret_references`)
    ) -> None:
        super().__init__(parent)
        self.reach, self.secrets = reach, secrets
        self.setWindowTitle("Save to collection")
        self.setAccessibleName("Save to collection")
        self.settings, self.method, self.params, self.server, self.expect = settings, method, params, server, expect
        self.saved_path: Path | None = None
        self.file = QComboBox(self)
        self.file.setEditable(True)
        self.file.setAccessibleName("Collection file")
        self.file.setMinimumContentsLength(40)  # a path reads whole (found narrow in the Xvfb walkthrough)
        self.file.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.file.addItems(recent_files(settings))
        choose = QPushButton("Choose…", self)
        choose.setAccessibleName("Choose a collection file")
        choose.clicked.connect(self._choose)
        row = QHBoxLayout()
        row.addWidget(self.file, 1)
        row.addWidget(choose)
        name = str(params.get("name")) if method == "tools/call" and params.get("name") else method
        self.step_name = QLineEdit(name, self)
        self.step_name.setAccessibleName("Step name")
        self.message = plain(PlainLabel(f"{method} on {server or 'the run’s one server'}", self))
        self.message.setAccessibleName("Save to collection message")
        self.save_button = QPushButton("Save", self)
        self.save_button.setAccessibleName("Save the step")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self._save)
        cancel = QPushButton("Cancel", self)
        cancel.setAccessibleName("Cancel saving")
        cancel.clicked.connect(self.reject)
        form = QFormLayout()
        form.addRow("Collection:", row)
        form.addRow("Step name:", self.step_name)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(cancel)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addLayout(buttons)

    def _choose(self) -> None:
        dialog = QFileDialog(self, "Collection file", self.file.currentText() or str(Path.home()), FILTER)
        dialog.setObjectName("collectionFileDialog")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)  # an existing file or a new one
        dialog.setOption(QFileDialog.Option.DontConfirmOverwrite)  # steps are appended, nothing overwritten
        dialog.setDefaultSuffix("json")
        dialog.fileSelected.connect(self.file.setEditText)
        dialog.open()

    def _save(self) -> None:
        if self.saved_path is not None:  # the notes were read: Done
            self.accept()
            return
        text = self.file.currentText().strip()
        if not text:
            self.message.setText("Choose a collection file first (an existing one, or a new name).")
            return
        path = Path(text).expanduser()
        try:
            _collection, (step, notes) = update(
                path,
                lambda collection: collection.add_step(
                    self.method,
                    self.params,
                    server=self.server,
                    name=self.step_name.text().strip(),
                    expect=self.expect,
                    reach=self.reach,
                    secrets=self.secrets,
                ),
            )
        except CollectionError as exc:
            self.message.setText(f"Cannot add to that file: {exc}")
            return
        except OSError as exc:
            self.message.setText(f"Cannot write {path}: {exc.strerror or exc}")
            return
        remember(self.settings, path)
        self.saved_path = path
        if not notes:
            self.accept()
            return
        said = "\n".join(f"• {note}" for note in notes)
        self.message.setText(f"Saved as step {step.id} in {path.name}. It needs these references to run:\n{said}")
        self.save_button.setText("Done")


def save_call(
    parent: QWidget,
    settings: QSettings,
    method: str,
    params: dict[str, Any],
    server: str | None,
    *,
    result: dict[str, Any] | None = None,
    tool: dict[str, Any] | None = None,
    reach: dict[str, Any] | None = None,
    secrets: dict[str, str] | None = None,
) -> SaveToCollectionDialog:
    """Open the dialog (not blocking) for one call; `reach` is how to reach `server` (`reach_of`),
    `secrets` its secret values' reference names (`secret_references`)."""
    expect = default_expect(method, result, tool)
    dialog = SaveToCollectionDialog(settings, method, params, server, expect, parent, reach=reach, secrets=secrets)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
