"""The Auth tab's "OAuth client" box: the grant, a pre-registered client id/secret (or a private key for
private_key_jwt) and extra scopes, saved in the profile.

Left empty, MCP Lens registers itself with the authorization server (dynamic client registration).
The secret is saved with the profile (whose file is then written 0600) and never shown in exports.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore
from inspector.ui.widgets.plain_text import PlainLabel

# (shown, profile.oauth_grant): the browser flow, or the client credentials grant (SEP-1046: a machine
# client with a secret, or a private_key_jwt assertion signed from a PEM key)
GRANTS = (("Authorization code (browser sign-in)", None), ("Client credentials (no browser)", "client_credentials"))


class ClientBox(QGroupBox):
    """Edits `oauth_grant`, `oauth_client_id`, `oauth_client_secret`, `oauth_private_key_file` and
    `oauth_scopes` of the shown profile."""

    def __init__(
        self,
        profiles: ProfileStore | None,
        on_saved: Callable[[ServerProfile], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__("OAuth client (optional: leave empty to register dynamically)", parent)
        self.setObjectName("authClientBox")
        self.profiles = profiles  # the saved servers, where a saved profile's client settings are written
        self.on_saved = on_saved
        self.profile: ServerProfile | None = None
        form = QFormLayout(self)
        self.registration_note = QLabel()  # dynamic client registration: deprecated in 2026-07-28 (modern server)
        self.registration_note.setObjectName("registrationDeprecated")
        self.registration_note.setTextFormat(Qt.TextFormat.PlainText)
        self.registration_note.setStyleSheet("QLabel { color: #9a6700; }")
        self.registration_note.setVisible(False)
        form.addRow(self.registration_note)
        self.client_id = QLineEdit()
        self.client_id.setPlaceholderText("pre-registered client id")
        self.client_secret = QLineEdit()
        self.client_secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.client_secret.setPlaceholderText("client secret (confidential clients only)")
        self.scopes = QLineEdit()
        self.scopes.setPlaceholderText("extra scopes to ask for, space-separated")
        self.client_id.setAccessibleName("OAuth client id")
        self.client_secret.setAccessibleName("OAuth client secret")
        self.scopes.setAccessibleName("Extra OAuth scopes")
        self.grant = QComboBox()
        self.grant.setAccessibleName("OAuth grant")
        for label, value in GRANTS:
            self.grant.addItem(label, value)
        self.private_key = QLineEdit()
        self.private_key.setAccessibleName("Private key file")
        self.private_key.setPlaceholderText("PEM file: private_key_jwt instead of a secret (client credentials)")
        form.addRow("Grant", self.grant)
        form.addRow("Client id", self.client_id)
        form.addRow("Client secret", self.client_secret)
        form.addRow("Private key", self.private_key)
        form.addRow("Scopes", self.scopes)
        row = QHBoxLayout()
        self.save_button = QPushButton("Save to profile")
        self.save_button.clicked.connect(self.save)
        self.status = PlainLabel()
        row.addWidget(self.save_button)
        row.addWidget(self.status, 1)
        form.addRow(row)

    def mark_registration_deprecated(self, note: str) -> None:
        """A modern server: say that registering dynamically is deprecated (empty: say nothing)."""
        self.registration_note.setText(f"Left empty: {note}" if note else "")
        self.registration_note.setVisible(bool(note))

    def show_profile(self, profile: ServerProfile | None) -> None:
        self.profile = profile
        self.client_id.setText(profile.oauth_client_id or "" if profile else "")
        self.client_secret.setText(profile.oauth_client_secret or "" if profile else "")
        self.scopes.setText(profile.oauth_scopes or "" if profile else "")
        self.grant.setCurrentIndex(max(0, self.grant.findData(profile.oauth_grant if profile else None)))
        self.private_key.setText(profile.oauth_private_key_file or "" if profile else "")
        self.status.clear()

    def save(self) -> None:
        profile = self.profile
        if profile is None:
            return
        profile.oauth_client_id = self.client_id.text().strip() or None
        profile.oauth_client_secret = self.client_secret.text().strip() or None
        profile.oauth_scopes = " ".join(self.scopes.text().split()) or None
        profile.oauth_grant = self.grant.currentData()
        profile.oauth_private_key_file = self.private_key.text().strip() or None
        self.status.setText(self._persist(profile))
        self.on_saved(profile)

    def _persist(self, profile: ServerProfile) -> str:
        store = self.profiles
        if store is None or profile.name not in store:
            return "used for this session (the profile is not in the saved list)"
        try:
            stored = store.get(profile.name)
            stored.oauth_client_id = profile.oauth_client_id
            stored.oauth_client_secret = profile.oauth_client_secret
            stored.oauth_scopes = profile.oauth_scopes
            stored.oauth_grant = profile.oauth_grant
            stored.oauth_private_key_file = profile.oauth_private_key_file
            store.save()
        except (ProfileError, OSError) as exc:
            return f"NOT saved: {exc}"
        return "saved"
