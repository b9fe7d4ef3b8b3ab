"""Add or edit one server profile: name, transport, and the stdio or HTTP settings."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.config.eras import DEFAULT_ERA, ERAS, KNOWN_VERSIONS, MODERN_PROTOCOL_VERSIONS
from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.redact import is_secret_env, is_secret_header, redact_args, redact_url
from inspector.core.targets import TRANSPORT_KINDS
from inspector.ui.widgets.key_value_table import KeyValueTable, StringListEditor
from inspector.ui.widgets.plain_text import plain_label

TRANSPORT_LABELS = {name: kind.label for name, kind in TRANSPORT_KINDS.items()}  # the Transport choices
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
ERROR_STYLE = "color: #d1242f;"  # readable on light and dark backgrounds
ERA_LABELS = {
    "auto": "Auto (probe server/discover, else initialize)",
    "legacy": "Legacy (initialize, up to 2025-11-25)",
    "modern": "Modern (2026-07-28: server/discover, stateless)",
    **{version: f"Pinned: {version}" for version in reversed(KNOWN_VERSIONS)},
}
ERA_EXPLANATIONS = {
    "auto": "Asks server/discover first (2026-07-28) and falls back to the initialize handshake; a server "
    "that leaves the probe unanswered is remembered and not probed again.",
    "legacy": "The initialize handshake of 2025-11-25 and earlier: one session, server-to-client requests "
    "mid-call, ping and logging/setLevel.",
    "modern": "The 2026-07-28 revision: server/discover, no handshake, every request carries its own _meta "
    "(version, client info, capabilities) and HTTP requests carry Mcp-Method / Mcp-Name headers.",
}
assert set(ERAS) <= set(ERA_LABELS)


def era_explanation(setting: str) -> str:
    """A sentence under the era choice saying what it does on the wire."""
    if setting in ERA_EXPLANATIONS:
        return ERA_EXPLANATIONS[setting]
    era = "modern" if setting in MODERN_PROTOCOL_VERSIONS else "legacy"
    return f"Speaks exactly {setting}, no fallback. " + ERA_EXPLANATIONS[era]


def profile_summary(profile: ServerProfile) -> str:
    """One line describing how a profile connects, with secrets redacted: `stdio · npx -y …`."""
    if profile.transport == "stdio":
        return f"stdio · {shlex.join([profile.command, *redact_args(profile.args)])}"
    return f"{profile.transport} · {redact_url(profile.url)}"


def split_command_line(line: str) -> tuple[str, list[str], dict[str, str]]:
    """Split a pasted shell command line into (command, args, leading `VAR=value` env assignments).

    Raises `ValueError` for unbalanced quotes or an empty line.
    """
    words = shlex.split(line)
    env: dict[str, str] = {}
    while words and _ENV_ASSIGNMENT.match(words[0]):
        key, _, value = words.pop(0).partition("=")
        env[key] = value
    if not words:
        raise ValueError("no command found in the pasted line")
    return words[0], words[1:], env


class ProfileDialog(QDialog):
    """Edits a copy of `profile` (or a new one); `profile()` is the result once accepted."""

    def __init__(
        self,
        profile: ServerProfile | None = None,
        existing_names: Iterable[str] = (),
        parent: QWidget | None = None,
        *,
        title: str | None = None,
    ) -> None:
        super().__init__(parent)
        self._original = profile
        self._existing = set(existing_names) - ({profile.name} if profile else set())
        self._result: ServerProfile | None = None
        self.setWindowTitle(title or ("Edit Server" if profile else "Add Server"))
        self.setMinimumWidth(600)

        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("e.g. github")
        self.transport_combo = QComboBox(self)
        for key, label in TRANSPORT_LABELS.items():
            self.transport_combo.addItem(label, key)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self._build_stdio_page())
        self.pages.addWidget(self._build_http_page())
        self.transport_combo.currentIndexChanged.connect(self._on_transport_changed)
        self.era_combo = QComboBox(self)
        for key, label in ERA_LABELS.items():
            self.era_combo.addItem(label, key)
        self.era_note = plain_label(parent=self)
        self.era_note.setWordWrap(True)
        self.era_note.setEnabled(False)  # drawn dimmer, like the other hints
        self.era_combo.currentIndexChanged.connect(self._on_era_changed)

        self.error_label = plain_label(parent=self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(ERROR_STYLE)
        self.error_label.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        _add_row(form, "Name:", self.name_edit)
        _add_row(form, "Transport:", self.transport_combo)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.pages, 1)
        era_form = QFormLayout()
        _add_row(era_form, "Protocol era:", self.era_combo)
        _add_row(era_form, "", self.era_note)
        layout.addLayout(era_form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.buttons)
        self._load(profile or ServerProfile(name=""))
        labels = [label for label in self.findChildren(QLabel) if label.buddy() is not None]
        width = max(label.sizeHint().width() for label in labels)
        for label in labels:  # the outer form and both pages line up in one column
            label.setMinimumWidth(width)
        self._name_widgets()

    def _name_widgets(self) -> None:
        """Accessible names (screen readers, journey tests): fields by their label, buttons by what they act on."""
        for widget, name in (
            (self.name_edit, "Name"),
            (self.transport_combo, "Transport"),
            (self.era_combo, "Protocol era"),
            (self.command_edit, "Command"),
            (self.command_browse, "Browse for the command"),
            (self.args_editor.list, "Arguments"),
            (self.args_editor.add_button, "Add argument"),
            (self.args_editor.remove_button, "Remove argument"),
            (self.args_editor.up_button, "Move argument up"),
            (self.args_editor.down_button, "Move argument down"),
            (self.env_table.table, "Environment"),
            (self.env_table.add_button, "Add variable"),
            (self.env_table.remove_button, "Remove variable"),
            (self.env_table.reveal_check, "Show secret environment values"),
            (self.cwd_edit, "Working dir"),
            (self.cwd_browse, "Browse for the working dir"),
            (self.url_edit, "URL"),
            (self.token_edit, "Bearer token"),
            (self.token_reveal, "Show bearer token"),
            (self.headers_table.table, "Headers"),
            (self.headers_table.add_button, "Add header"),
            (self.headers_table.remove_button, "Remove header"),
            (self.headers_table.reveal_check, "Show secret header values"),
        ):
            widget.setAccessibleName(name)

    # -- pages ---------------------------------------------------------------------------
    def _build_stdio_page(self) -> QWidget:
        page = QWidget(self)
        self.command_edit = QLineEdit(page)
        self.command_edit.setPlaceholderText("e.g. npx, uvx, python, /path/to/server")
        self.command_browse = QPushButton("Browse…", page)
        self.command_browse.clicked.connect(self._browse_command)
        self.paste_button = QPushButton("Paste Command Line…", page)
        self.paste_button.setToolTip("Split a shell command line into command, arguments and environment")
        self.paste_button.clicked.connect(self._ask_command_line)
        self.args_editor = StringListEditor(page)
        self.env_table = KeyValueTable(page, key_header="Variable", value_header="Value", is_secret=is_secret_env)
        self.cwd_edit = QLineEdit(page)
        self.cwd_edit.setPlaceholderText("inherit from MCP Lens")
        self.cwd_browse = QPushButton("Browse…", page)
        self.cwd_browse.clicked.connect(self._browse_cwd)
        hint = plain_label(
            "Arguments are passed to the command as a list, one per row; no shell is involved.", parent=page
        )
        hint.setWordWrap(True)
        hint.setEnabled(False)  # drawn in the disabled (dimmer) colour of the current theme

        form = QFormLayout(page)
        form.setContentsMargins(0, 0, 0, 0)
        _add_row(form, "Command:", _row(self.command_edit, self.command_browse, self.paste_button))
        _add_row(form, "Arguments:", self.args_editor)
        _add_row(form, "", hint)
        _add_row(form, "Environment:", self.env_table)
        _add_row(form, "Working dir:", _row(self.cwd_edit, self.cwd_browse))
        return page

    def _build_http_page(self) -> QWidget:
        page = QWidget(self)
        self.url_edit = QLineEdit(page)
        self.url_edit.setPlaceholderText("https://example.com/mcp")
        self.headers_table = KeyValueTable(page, key_header="Header", value_header="Value")
        self.token_edit = QLineEdit(page)
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_edit.setPlaceholderText("optional; sent as Authorization: Bearer <token>")
        self.token_reveal = QToolButton(page)
        self.token_reveal.setText("Show")
        self.token_reveal.setCheckable(True)
        self.token_reveal.toggled.connect(self._reveal_token)
        form = QFormLayout(page)
        form.setContentsMargins(0, 0, 0, 0)
        _add_row(form, "URL:", self.url_edit)
        _add_row(form, "Bearer token:", _row(self.token_edit, self.token_reveal))
        _add_row(form, "Headers:", self.headers_table)
        return page

    # -- loading and building ------------------------------------------------------------
    def _load(self, profile: ServerProfile) -> None:
        self.name_edit.setText(profile.name)
        self.transport_combo.setCurrentIndex(max(0, self.transport_combo.findData(profile.transport)))
        self._on_transport_changed()
        self.command_edit.setText(profile.command)
        self.args_editor.set_values(list(profile.args))
        self.env_table.set_items(profile.env)
        self.cwd_edit.setText(profile.cwd or "")
        self.url_edit.setText(profile.url)
        secret_headers = list(profile.secret_headers)
        self.headers_table.set_secret_predicate(lambda key: is_secret_header(key, secret_headers))
        self.headers_table.set_items(profile.headers)
        self.token_edit.setText(profile.bearer_token or "")
        era = profile.protocol_era if profile.protocol_era in ERA_LABELS else DEFAULT_ERA
        self.era_combo.setCurrentIndex(self.era_combo.findData(era))
        self._on_era_changed()

    def transport(self) -> str:
        return self.transport_combo.currentData()

    def era(self) -> str:
        return self.era_combo.currentData()

    def set_transport(self, transport: str) -> None:
        self.transport_combo.setCurrentIndex(self.transport_combo.findData(transport))

    def build_profile(self) -> ServerProfile:
        """A profile from the current field values (not validated); untouched fields of the original are kept."""
        base = self._original.clone() if self._original else ServerProfile(name="")
        changes: dict[str, object] = {"name": self.name_edit.text().strip(), "transport": self.transport()}
        changes["protocol_era"] = self.era()
        if base.protocol_era != self.era():
            changes["learned_era"] = None  # what auto learned belongs to the old setting
        if self.transport() == "stdio":
            changes |= {
                "command": self.command_edit.text().strip(),
                "args": self.args_editor.values(),
                "env": self.env_table.items(),
                "cwd": self.cwd_edit.text().strip() or None,
                "url": "",
                "headers": {},
                "bearer_token": None,
            }
        else:
            changes |= {
                "url": self.url_edit.text().strip(),
                "headers": self.headers_table.items(),
                "bearer_token": self.token_edit.text().strip() or None,
                "command": "",
                "args": [],
                "env": {},
                "cwd": None,
            }
        return base.clone(**changes)

    def profile(self) -> ServerProfile | None:
        """The edited profile after a successful `accept()`, else None."""
        return self._result

    def error_text(self) -> str:
        return self.error_label.text() if self.error_label.isVisibleTo(self) else ""

    # -- validation ----------------------------------------------------------------------
    def accept(self) -> None:
        """Validate; on a problem show it below the fields and keep the dialog open."""
        table = self.env_table if self.transport() == "stdio" else self.headers_table
        if problems := table.problems():
            self._show_error(problems[0], table)
            return
        profile = self.build_profile()
        try:
            profile.validate()
        except ProfileError as exc:
            self._show_error(exc.reason, self._widget_for(exc.field))
            return
        if profile.name in self._existing:
            self._show_error(f"a server named {profile.name!r} already exists; choose another name", self.name_edit)
            return
        self.error_label.hide()
        self._result = profile
        super().accept()

    def _show_error(self, text: str, focus: QWidget | None = None) -> None:
        self.error_label.setText(text[:1].upper() + text[1:])
        self.error_label.show()
        if focus is not None:
            focus.setFocus()

    def _widget_for(self, field: str | None) -> QWidget | None:
        widgets: dict[str, QWidget] = {"name": self.name_edit, "command": self.command_edit, "url": self.url_edit}
        widgets |= {"type": self.transport_combo, "env": self.env_table, "headers": self.headers_table}
        return widgets.get((field or "").split(".")[0].split("[")[0])

    # -- helpers -------------------------------------------------------------------------
    def paste_command_line(self, line: str) -> bool:
        """Fill command, args and env from a shell command line (split with `shlex`, never run)."""
        try:
            command, args, env = split_command_line(line)
        except ValueError as exc:
            self._show_error(f"cannot split the command line: {exc}", self.command_edit)
            return False
        self.set_transport("stdio")
        self.command_edit.setText(command)
        self.args_editor.set_values(args)
        if env:
            self.env_table.set_items({**self.env_table.items(), **env})
        self.error_label.hide()
        return True

    def _ask_command_line(self) -> None:
        line, ok = QInputDialog.getText(
            self, "Paste Command Line", "Command line (split like a POSIX shell; nothing is run):"
        )
        if ok and line.strip():
            self.paste_command_line(line)

    def _browse_command(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose the Server Program", self.command_edit.text())
        if path:
            self.command_edit.setText(path)

    def _browse_cwd(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Choose the Working Directory", self.cwd_edit.text())
        if path:
            self.cwd_edit.setText(path)

    def _reveal_token(self, shown: bool) -> None:
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password)
        self.token_reveal.setText("Hide" if shown else "Show")

    def _on_era_changed(self, *_: object) -> None:
        self.era_note.setText(era_explanation(self.era()))

    def _on_transport_changed(self) -> None:
        self.pages.setCurrentIndex(0 if self.transport() == "stdio" else 1)

    @staticmethod
    def edit(
        parent: QWidget | None, profile: ServerProfile | None, existing_names: Iterable[str]
    ) -> ServerProfile | None:
        """Run the dialog modally; the new or edited profile, or None if cancelled."""
        dialog = ProfileDialog(profile, existing_names, parent)
        try:
            return dialog.profile() if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()


def _add_row(form: QFormLayout, text: str, field: QWidget) -> None:
    """A form row whose label is plain text too."""
    label = plain_label(text, parent=field.parentWidget())
    label.setBuddy(field)
    form.addRow(label, field)


def _row(*widgets: QWidget) -> QWidget:
    box = QWidget()
    layout = QHBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    for i, widget in enumerate(widgets):
        layout.addWidget(widget, 1 if i == 0 else 0)
    return box
