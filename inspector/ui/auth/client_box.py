"""The Auth tab's "OAuth client" box: the grant, a pre-registered client id/secret (or a private key for
private_key_jwt), the auth extensions' fields (a workload JWT or ID token by file or environment variable,
the enterprise IdP, a fixed authorization server), DPoP-bound tokens and extra scopes, saved in the profile.

Only the rows the chosen grant uses are shown and saved (`inspector/auth/extensions.GRANTS`). Left empty,
MCP Lens registers itself with the authorization server (dynamic client registration). Secrets are saved
with the profile (whose file is then written 0600) and never shown in exports.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from inspector.auth.extensions import GRANTS, grant_of
from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore
from inspector.ui.widgets.plain_text import PlainLabel

# row key → (the profile field, its label, accessible name, placeholder, a secret?); the keys are the
# `fields` of a grant in `GRANTS`
ROWS: dict[str, tuple[str, str, str, str, bool]] = {
    "client_id": ("oauth_client_id", "Client id", "OAuth client id", "pre-registered client id", False),
    "client_secret": (
        "oauth_client_secret",
        "Client secret",
        "OAuth client secret",
        "client secret (confidential clients only)",
        True,
    ),
    "private_key": (
        "oauth_private_key_file",
        "Private key",
        "Private key file",
        "PEM file: private_key_jwt instead of a secret (client credentials)",
        False,
    ),
    "idp_token_endpoint": (
        "oauth_idp_token_endpoint",
        "IdP token endpoint",
        "Identity provider token endpoint",
        "https://idp.example.com/oauth2/token (RFC 8693 token exchange)",
        False,
    ),
    "idp_issuer": (
        "oauth_idp_issuer",
        "IdP issuer",
        "Identity provider issuer",
        "https://idp.example.com: sign in there in the browser for the ID token (no file or variable)",
        False,
    ),
    "idp_client_id": ("oauth_idp_client_id", "IdP client id", "Identity provider client id", "id at the IdP", False),
    "idp_client_secret": (
        "oauth_idp_client_secret",
        "IdP client secret",
        "Identity provider client secret",
        "client secret at the IdP (if it has one)",
        True,
    ),
    "assertion_file": ("oauth_assertion_file", "JWT file", "JWT file path", "the JWT's file (read at each use)", False),
    "assertion_env": ("oauth_assertion_env", "JWT variable", "JWT environment variable", "… or its variable", False),
    "issuer": (
        "oauth_issuer",
        "Authorization server",
        "Authorization server issuer",
        "issuer to use instead of the one the MCP server names (optional)",
        False,
    ),
}
# what the JWT rows hold, per grant
JWT_LABELS = {"workload": "Workload JWT", "enterprise": "ID token"}


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
        self.registration_note.setWordWrap(True)  # the Auth tab keeps the README's 800 px window
        self.registration_note.setVisible(False)
        form.addRow(self.registration_note)
        self.grant = QComboBox()
        self.grant.setAccessibleName("OAuth grant")
        for grant in GRANTS:
            self.grant.addItem(grant.title, grant.value)
        form.addRow("Grant", self.grant)
        self.form = form
        self.fields: dict[str, QLineEdit] = {}
        self.labels: dict[str, QLabel] = {}
        for key, (_attr, label, accessible, placeholder, secret) in ROWS.items():
            edit = QLineEdit()
            edit.setAccessibleName(accessible)
            edit.setPlaceholderText(placeholder)
            if secret:
                edit.setEchoMode(QLineEdit.EchoMode.Password)
            self.fields[key] = edit
            self.labels[key] = QLabel(label)
            form.addRow(self.labels[key], edit)
        self.client_id = self.fields["client_id"]
        self.client_secret = self.fields["client_secret"]
        self.private_key = self.fields["private_key"]
        self.scopes = QLineEdit()
        self.scopes.setPlaceholderText("extra scopes to ask for, space-separated")
        self.scopes.setAccessibleName("Extra OAuth scopes")
        form.addRow("Scopes", self.scopes)
        self.dpop = QCheckBox("DPoP-bound tokens (RFC 9449)")  # short: a check box does not wrap
        self.dpop.setAccessibleName("DPoP-bound tokens")
        self.dpop.setToolTip("A proof key for this server signs each request; tokens are bound to that key")
        form.addRow(self.dpop)
        self._registration = ""  # what a modern server says of dynamic registration ("" for none)
        self.client_id.textChanged.connect(lambda _text: self._show_registration_note())
        self.grant.currentIndexChanged.connect(self._follow_grant)
        self._follow_grant()
        row = QHBoxLayout()
        self.save_button = QPushButton("Save to profile")
        self.save_button.clicked.connect(self.save)
        self.status = PlainLabel()
        row.addWidget(self.save_button)
        row.addWidget(self.status, 1)
        form.addRow(row)

    def mark_registration_deprecated(self, note: str) -> None:
        """A modern server: say that registering dynamically is deprecated (empty: say nothing)."""
        self._registration = note
        self.registration_note.setText(f"Left empty: {note}" if note else "")
        self._show_registration_note()

    def _show_registration_note(self) -> None:
        """Only where registration would happen: the browser grant, no client id."""
        browser = GRANTS[max(0, self.grant.currentIndex())].value is None
        self.registration_note.setVisible(bool(self._registration) and browser and not self.client_id.text().strip())

    def _follow_grant(self) -> None:
        """Show the rows the chosen grant uses; name what its JWT is."""
        grant = GRANTS[max(0, self.grant.currentIndex())]
        for key in ROWS:
            self.form.setRowVisible(self.fields[key], key in grant.fields)
        what = JWT_LABELS.get(grant.value or "", "JWT")
        self.labels["assertion_file"].setText(f"{what} file")
        self.labels["assertion_env"].setText(f"{what} variable")
        self.fields["assertion_file"].setAccessibleName(f"{what} file path")
        self.fields["assertion_env"].setAccessibleName(f"{what} environment variable")
        self._show_registration_note()

    def show_profile(self, profile: ServerProfile | None) -> None:
        self.profile = profile
        for key, (attr, *_rest) in ROWS.items():
            self.fields[key].setText((getattr(profile, attr, None) or "") if profile else "")
        self.scopes.setText(profile.oauth_scopes or "" if profile else "")
        self.grant.setCurrentIndex(max(0, self.grant.findData(grant_of(profile).value if profile else None)))
        self.dpop.setChecked(bool(profile and profile.oauth_dpop))
        self.status.clear()

    def save(self) -> None:
        """The chosen grant's fields into the profile; the rows it does not use are cleared."""
        profile = self.profile
        if profile is None:
            return
        grant = GRANTS[max(0, self.grant.currentIndex())]
        for key, (attr, *_rest) in ROWS.items():
            setattr(profile, attr, (self.fields[key].text().strip() or None) if key in grant.fields else None)
        profile.oauth_scopes = " ".join(self.scopes.text().split()) or None
        profile.oauth_grant = grant.value
        profile.oauth_dpop = self.dpop.isChecked()
        self.status.setText(self._persist(profile))
        self.on_saved(profile)

    def _persist(self, profile: ServerProfile) -> str:
        store = self.profiles
        if store is None or profile.name not in store:
            return "used for this session (the profile is not in the saved list)"
        try:
            stored = store.get(profile.name)
            for attr in (*(row[0] for row in ROWS.values()), "oauth_scopes", "oauth_grant", "oauth_dpop"):
                setattr(stored, attr, getattr(profile, attr))
            store.save()
        except (ProfileError, OSError) as exc:
            return f"NOT saved: {exc}"
        return "saved"
