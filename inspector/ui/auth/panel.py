"""The Auth tab: OAuth state of the current HTTP server, each step of the flow with its HTTP exchange,
and Sign in / Sign out / Refresh token.

Connections use stored tokens (refreshed when expired) through `ServerAuth.provider`. When a server
answers 401 and no stored token helps, the connect fails, this tab comes forward and a sign-in starts
once on its own: the full authorization URL is shown in a dialog and opens in the system browser only
after the user confirms (http/https only). After sign-in the session reconnects.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.auth.applies import wants_oauth
from inspector.auth.browser import open_in_browser
from inspector.auth.errors import AuthError
from inspector.auth.events import AuthEvent
from inspector.auth.flows import supported_flows_text
from inspector.config.profile import ServerProfile
from inspector.content.visible import visible
from inspector.ui.auth.authorize_dialog import ask_to_open
from inspector.ui.auth.client_box import ClientBox
from inspector.ui.auth.secrets_box import secrets_file_box, where_kept
from inspector.ui.widgets.layout_parts import scrolled
from inspector.ui.widgets.plain_text import PlainLabel, item_text, plain_tooltip

if TYPE_CHECKING:  # the auth modules import the SDK (~0.7 s): only once an HTTP server needs OAuth
    from inspector.auth.signin import ServerAuth
    from inspector.auth.storage import Backend
    from inspector.config.store import ProfileStore
    from inspector.traffic.store import TrafficStore
    from inspector.ui.session import SessionController

STEP_TITLES = {
    "discovery": "Discovery",
    "registration": "Registration",
    "authorize": "Authorize",
    "token": "Token exchange",
    "refresh": "Refresh",
    "dpop": "DPoP",
    "request": "Request",
    "info": "Info",
    "error": "Error",
}


def _open_backend() -> Backend:
    from inspector.auth.storage import open_backend

    return open_backend()


def _server_auth(profile: ServerProfile, backend: Backend, log: Any) -> ServerAuth:
    from inspector.auth.signin import ServerAuth

    return ServerAuth(profile, backend=backend, log=log)


class AuthPanel(QWidget):
    """The Auth tab. `provider_for` is what the session's `auth_for` calls; `on_state` follows its state.
    `statusMessage` carries a line for the status bar, `wantsAttention` asks to bring the tab forward."""

    statusMessage = Signal(str)
    wantsAttention = Signal()

    def __init__(
        self,
        session: SessionController,
        store: TrafficStore,
        profiles: ProfileStore | None,
        *,
        backend: Callable[[], Backend] | None = None,
    ) -> None:
        super().__init__()
        self.setObjectName("authPanel")
        self.session = session
        self.store = store
        self.profiles = profiles
        self._backend_factory = backend or _open_backend
        self._backend: Backend | None = None
        self.auths: dict[str, ServerAuth] = {}
        self.profile: ServerProfile | None = None
        self.confirm: Callable[[str], Awaitable[bool]] = self._ask
        self.opener: Callable[[str], Any] = open_in_browser  # replaceable: tests must not open a browser
        self.task: asyncio.Future[Any] | None = None
        self.busy: str | None = None  # "sign-in" | "refresh" while one runs
        self._auto_tried: set[str] = set()
        self._unsubscribe: Callable[[], None] | None = None
        self._build()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.refresh_state)
        self._timer.start(30_000)
        self.show_profile(None)

    # -- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.server_label = PlainLabel()
        self.server_label.setObjectName("authServer")
        self.server_label.setTextFormat(Qt.TextFormat.PlainText)
        self.server_label.setWordWrap(True)
        self.state_label = PlainLabel()
        self.state_label.setObjectName("authState")
        self.state_label.setAccessibleName("Auth state")
        self.state_label.setTextFormat(Qt.TextFormat.PlainText)
        self.state_label.setWordWrap(True)
        layout.addWidget(self.server_label)
        layout.addWidget(self.state_label)
        self.keep_in_file = secrets_file_box(self._keep_in_file, self)
        layout.addWidget(self.keep_in_file)

        row = QHBoxLayout()
        self.sign_in_button = QPushButton("&Sign in")
        self.sign_out_button = QPushButton("Sign &out")
        self.refresh_button = QPushButton("&Refresh token")
        self.cancel_button = QPushButton("Cancel sign-in")
        self.show_token_button = QPushButton("Show token")
        self.show_token_button.setCheckable(True)
        self.client_button = QPushButton("OAuth &client…")
        self.client_button.setCheckable(True)
        self.client_button.setToolTip("A pre-registered client id/secret and extra scopes for this server")
        for button in (self.sign_in_button, self.refresh_button, self.sign_out_button, self.cancel_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        self.flows_button = QPushButton("Supported flows")
        self.flows_button.setCheckable(True)
        self.flows_button.setToolTip("Which OAuth flows this build of MCP Lens supports")
        extras = QHBoxLayout()  # a second row keeps the tab narrow enough for a small window
        extras.addWidget(self.show_token_button)
        extras.addWidget(self.client_button)
        extras.addWidget(self.flows_button)
        extras.addStretch(1)
        layout.addLayout(extras)
        self.flows_view = QPlainTextEdit(supported_flows_text())
        self.flows_view.setObjectName("authFlows")
        self.flows_view.setAccessibleName("Supported OAuth flows")
        self.flows_view.setReadOnly(True)
        self.flows_view.setMaximumHeight(120)
        self.flows_view.setVisible(False)
        self.flows_button.toggled.connect(self.flows_view.setVisible)
        layout.addWidget(self.flows_view)
        self.sign_in_button.clicked.connect(lambda: self.start(self.sign_in()))
        self.sign_out_button.clicked.connect(self.sign_out)
        self.refresh_button.clicked.connect(lambda: self.start(self.refresh_token()))
        self.cancel_button.clicked.connect(self.cancel)
        self.show_token_button.toggled.connect(self._show_token)
        self.client_box = ClientBox(self.profiles, self._client_saved)
        # In a scroll area: a grant with many fields (Enterprise-managed: eleven rows) scrolls on a small
        # screen instead of raising the window past it.
        self.client_area = scrolled(self.client_box)
        self.client_area.setObjectName("authClientArea")
        self.client_area.setVisible(False)
        self.client_button.toggled.connect(self.client_area.setVisible)
        layout.addWidget(self.client_area)
        self.token_field = QLineEdit()
        self.token_field.setReadOnly(True)
        self.token_field.setObjectName("authToken")
        self.token_field.setAccessibleName("Access token")
        self.token_field.setVisible(False)
        layout.addWidget(self.token_field)

        split = QSplitter(Qt.Orientation.Vertical)
        self.steps = QTableWidget(0, 3)
        self.steps.setObjectName("authSteps")
        self.steps.setAccessibleName("Sign-in steps")
        self.steps.setHorizontalHeaderLabels(["Time", "Step", "What happened"])
        self.steps.verticalHeader().setVisible(False)
        self.steps.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.steps.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.steps.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.steps.setWordWrap(False)
        header = self.steps.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.steps.itemSelectionChanged.connect(self._show_selected)
        self.detail = QPlainTextEdit()
        self.detail.setObjectName("authExchange")
        self.detail.setAccessibleName("HTTP exchange of the selected step")
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText("Select a step to see its HTTP exchange (tokens and secrets are redacted).")
        for view in (self.steps, self.detail):
            view.setMinimumHeight(48)  # a few lines each: the tab stays short enough for a small window
        split.addWidget(self.steps)
        split.addWidget(self.detail)
        split.setSizes([260, 200])
        layout.addWidget(split, 1)
        self._events: list[AuthEvent] = []

    # -- profiles ----------------------------------------------------------------------------
    def auth_of(self, profile: ServerProfile) -> ServerAuth:
        auth = self.auths.get(profile.url)
        return auth if auth is not None and auth.profile is profile else self._new_auth(profile)

    def _new_auth(self, profile: ServerProfile) -> ServerAuth:
        """Fresh OAuth state for `profile` (the server's step log carries over)."""
        if self._backend is None:
            self._backend = self._backend_factory()
        old = self.auths.get(profile.url)
        auth = self.auths[profile.url] = _server_auth(profile, self._backend, old.log if old is not None else None)
        return auth

    def provider_for(self, profile: ServerProfile) -> Any:
        """The OAuth provider for a connection to `profile`, or None when OAuth does not apply."""
        self.show_profile(profile)
        if not wants_oauth(profile):
            return None
        return self.auth_of(profile).provider

    def _client_saved(self, profile: ServerProfile) -> None:
        """A new client id/secret/scopes: rebuild this server's OAuth state around them (the log stays)."""
        self._new_auth(profile).log.add("info", "OAuth client settings changed; they apply from the next sign-in")
        self.refresh_state()

    @property
    def current(self) -> ServerAuth | None:
        if self.profile is None or not wants_oauth(self.profile):
            return None
        return self.auth_of(self.profile)

    def show_profile(self, profile: ServerProfile | None) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self.profile = profile
        self.client_box.show_profile(profile)
        http = profile is not None and profile.transport in ("http", "sse")
        self.client_button.setEnabled(http)
        self.client_button.setChecked(
            http and bool(profile.oauth_client_id or profile.oauth_scopes or profile.oauth_grant or profile.oauth_dpop)
        )
        self.client_area.setVisible(self.client_button.isChecked())
        self.steps.setRowCount(0)
        self._events = []
        self.detail.clear()
        auth = self.current
        if auth is not None:
            for event in auth.log.events:
                self._add_row(event)
            self._unsubscribe = auth.log.subscribe(self._add_row)
        self.refresh_state()

    # -- state -------------------------------------------------------------------------------
    def refresh_state(self) -> None:
        auth = self.current
        busy = self.busy is not None
        if self.profile is None:
            self.server_label.setText("No server selected.")
        else:
            where = self.profile.url or self.profile.command
            self.server_label.setText(f"{item_text(self.profile.name)} — {item_text(where)}")
        if auth is None:
            why = "uses a static Authorization header" if self.profile is not None and self.profile.url else ""
            self.state_label.setText(
                f"OAuth does not apply: this server {why}."
                if why
                else "OAuth applies to HTTP and SSE servers; this one runs over stdio."
            )
        else:
            self.state_label.setText(self._describe(auth, busy))
        signed_in = auth is not None and auth.state().signed_in
        self.sign_in_button.setEnabled(auth is not None and not busy)
        self.sign_out_button.setEnabled(signed_in and not busy)
        self.refresh_button.setEnabled(signed_in and auth.state().has_refresh_token and not busy)
        self.cancel_button.setEnabled(self.busy == "sign-in")
        self.show_token_button.setEnabled(signed_in)
        if not signed_in and self.show_token_button.isChecked():
            self.show_token_button.setChecked(False)

    def _keep_in_file(self, ticked: bool) -> None:
        """The user ticked or unticked "Keep secrets in a file": saved, and the tokens follow now."""
        from inspector.auth.storage import FileBackend, SessionBackend, move_records
        from inspector.config.secret_keeping import save_files_ticked

        save_files_ticked(ticked)
        old, self._backend = self._backend, self._backend_factory()
        if isinstance(old, SessionBackend) and isinstance(self._backend, FileBackend):
            move_records(old, self._backend, list(old.records))
        elif isinstance(old, FileBackend) and isinstance(self._backend, SessionBackend):
            move_records(old, self._backend, [path.stem for path in old.folder.glob("*.json")])
        for auth in self.auths.values():
            auth.storage.backend = self._backend
        self.refresh_state()

    def _describe(self, auth: ServerAuth, busy: bool) -> str:
        state = auth.state()
        where = where_kept(auth.storage.backend)
        if self.busy == "sign-in":
            return "Signing in… confirm the authorization page, finish in the browser, or Cancel sign-in."
        if busy:
            return "Refreshing the access token…"
        failure = auth.failure
        if failure is not None:  # who refused, what they answered, what to check
            kept = (
                "\nA token is stored for this server; the refusal came after it was issued." if state.signed_in else ""
            )
            return f"Sign-in failed: {failure.message}" + (f"\n{failure.hint}" if failure.hint else "") + kept
        if not state.signed_in:
            if auth.needs_sign_in:
                return "Sign-in required: the server answered 401 and no stored token works. Click Sign in."
            return "Not signed in. A server that needs OAuth will ask (HTTP 401) when you connect."
        parts = ["Signed in"]
        expires = state.expires_in()
        if expires is not None:
            parts.append(f"token expires in {_duration(expires)}" if expires > 0 else "token expired (will refresh)")
        parts.append(f"scopes: {state.scopes}" if state.scopes else "no scopes granted")
        parts.append("refresh token stored" if state.has_refresh_token else "no refresh token")
        if state.dpop_bound:
            parts.append("DPoP-bound to this server's proof key")
        if state.client_id:
            parts.append(f"client id: {state.client_id}")
        parts.append(f"stored in {where}")
        return " · ".join(parts)

    def _show_token(self, shown: bool) -> None:
        auth = self.current
        tokens = auth.storage.tokens() if auth is not None and shown else None
        self.token_field.setText(tokens.access_token if tokens else "")
        self.token_field.setVisible(bool(tokens))
        self.show_token_button.setText("Hide token" if tokens else "Show token")

    # -- steps -------------------------------------------------------------------------------
    def _add_row(self, event: AuthEvent) -> None:
        self._events.append(event)
        row = self.steps.rowCount()
        self.steps.insertRow(row)
        cells = (
            time.strftime("%H:%M:%S", time.localtime(event.at)),
            STEP_TITLES.get(event.step, event.step) + ("" if event.ok else "  ✗"),
            event.summary,
        )
        for column, text in enumerate(cells):
            item = QTableWidgetItem(item_text(text))
            item.setToolTip(plain_tooltip("Step", event.summary) if column == 2 else "")
            if not event.ok:
                item.setForeground(Qt.GlobalColor.red)
            self.steps.setItem(row, column, item)
        self.steps.scrollToBottom()
        self.refresh_state()

    def _show_selected(self) -> None:
        rows = self.steps.selectionModel().selectedRows()
        if not rows:
            return
        event = self._events[rows[0].row()]
        exchange = event.exchange
        if exchange is None:
            self.detail.setPlainText(visible(event.summary))
            return
        status = exchange.status if exchange.status is not None else (exchange.error or "no answer")
        text = f"{exchange.method} {exchange.url}\n"
        if exchange.request_body:
            text += f"\n{exchange.request_body}\n"
        text += f"\n→ HTTP {status}\n"
        if exchange.response_body:
            text += f"\n{exchange.response_body}\n"
        self.detail.setPlainText(visible(text))

    # -- actions -----------------------------------------------------------------------------
    def start(self, coro: Awaitable[Any]) -> asyncio.Future[Any]:
        """Run one action (sign in / refresh) at a time; the buttons follow its state."""

        async def run() -> Any:
            try:
                return await coro
            finally:
                self.busy = None
                self.refresh_state()

        self.busy = "sign-in" if getattr(coro, "__name__", "") == "sign_in" else "refresh"
        self.task = asyncio.ensure_future(run())
        self.refresh_state()
        return self.task

    async def _ask(self, url: str) -> bool:
        name = self.profile.name if self.profile is not None else "The server"
        return await ask_to_open(self, url, name)

    async def sign_in(self) -> bool:
        auth = self.current
        if auth is None:
            return False
        try:
            await auth.sign_in(self.store, confirm=self.confirm, opener=self.opener)
        except AuthError as exc:
            self._status(f"Sign-in failed: {exc.message}")
            return False
        self._status("Signed in; reconnecting…")
        if self.session.profile is not None and self.session.profile.url == auth.server_url:
            self.session.reconnect()
        return True

    async def refresh_token(self) -> bool:
        auth = self.current
        if auth is None:
            return False
        try:
            await auth.refresh(self.store)
        except AuthError as exc:
            auth.log.add("error", f"refresh failed: {exc.message}", ok=False)
            self._status(f"Refresh failed: {exc.message}")
            return False
        self._status("Token refreshed")
        return True

    def sign_out(self) -> None:
        auth = self.current
        if auth is not None:
            auth.sign_out()
            self._status("Signed out: the stored token was deleted")
        self.refresh_state()

    def cancel(self) -> None:
        auth = self.current
        if auth is not None:
            auth.cancel()

    def on_state(self, state: str, _detail: str) -> None:
        """After a failed connect that needs a sign-in, bring this tab forward and start one (once per server)."""
        self.refresh_state()
        auth = self.current
        if state != "failed" or auth is None or not auth.needs_sign_in or auth.server_url in self._auto_tried:
            return
        self._auto_tried.add(auth.server_url)
        self._status("This server needs a sign-in: see the Auth tab")
        self.wantsAttention.emit()
        if self.busy is None:
            self.start(self.sign_in())

    def _status(self, text: str) -> None:
        self.statusMessage.emit(text)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600} h {seconds % 3600 // 60} min"
    if seconds >= 60:
        return f"{seconds // 60} min"
    return f"{seconds} s"
