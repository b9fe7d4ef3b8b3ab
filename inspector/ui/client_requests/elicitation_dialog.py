"""The answer to `elicitation/create`: a form built from `requestedSchema`, or a URL to open.

Form mode reuses the tools form engine; the schema's defaults are pre-filled (and sent), and
validation problems are shown at their field before anything is sent. URL mode shows the whole
URL and the server's message as plain text; only http/https URLs can be opened, and only after the
user ticks the confirmation. Anything else is refused, flagged and can only be declined.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QPlainTextEdit, QPushButton, QWidget

from inspector.content.visible import visible
from inspector.core.client_handlers import elicitation_mode
from inspector.core.url_policy import UrlVerdict, check_url
from inspector.ui.client_requests.request_dialog import RequestDialog, section_title
from inspector.ui.form import ToolForm
from inspector.ui.results.common import STYLES
from inspector.ui.widgets.plain_text import plain_label
from inspector.words import counted

UrlOpener = Callable[[str], bool]


def open_in_browser(url: str) -> bool:
    """The real opener: the system browser through Qt."""
    return QDesktopServices.openUrl(QUrl(url, QUrl.ParsingMode.StrictMode))


def schema_defaults(schema: Any) -> dict[str, Any]:
    """The top-level `default` of each property (elicitation schemas are flat)."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    return {name: spec["default"] for name, spec in properties.items() if isinstance(spec, dict) and "default" in spec}


class ElicitationDialog(RequestDialog):
    """Answer one `elicitation/create`; `answer()` returns the ElicitResult dict."""

    def __init__(
        self,
        params: dict[str, Any],
        *,
        server: str = "the server",
        opener: UrlOpener = open_in_browser,
        parent: QWidget | None = None,
        via: str = "elicitation/create",
    ) -> None:
        """`via` says how the server asked (a request, or error -32042 answering a call)."""
        self.mode = elicitation_mode(params)
        what = "asks you to open a web page" if self.mode == "url" else "asks you for information"
        super().__init__("Elicitation request — MCP Lens", f"{server} {what} ({via}).", params, parent)
        self.opener = opener
        self.opened_url: str | None = None
        message = params.get("message")
        self.message = plain_label(
            message if isinstance(message, str) else "(the server sent no message)", self, wrap=True, selectable=True
        )
        self.message.setStyleSheet(f"QLabel {{ {STYLES['flag']} }}")
        self.body.addWidget(section_title("The server's message", self))
        self.body.addWidget(self.message)
        self.decline_button = QPushButton("Decline")
        self.cancel_button = QPushButton("Cancel")
        for button in (self.decline_button, self.cancel_button):
            button.setAutoDefault(False)
        self.decline_button.setToolTip('Say no: the server receives action "decline"')
        self.cancel_button.setToolTip('Dismiss without choosing: the server receives action "cancel"')
        self.decline_button.clicked.connect(lambda: self.resolve({"action": "decline"}))
        self.cancel_button.clicked.connect(lambda: self.resolve({"action": "cancel"}))
        self.buttons.addWidget(self.decline_button)
        self.buttons.addWidget(self.cancel_button)
        self.form: ToolForm | None = None
        self.verdict: UrlVerdict | None = None
        if self.mode == "url":
            self._build_url(params)
        else:
            self._build_form(params)

    # -- form mode ----------------------------------------------------------------------------
    def _build_form(self, params: dict[str, Any]) -> None:
        schema = params.get("requestedSchema")
        self.form = ToolForm(schema if isinstance(schema, dict) else {"type": "object"})
        if defaults := schema_defaults(schema):
            self.form.set_arguments(defaults)
        self.body.addWidget(section_title("Your answer", self))
        self.body.addWidget(self.form, 1)
        self.accept_button = QPushButton("Accept and send  (Ctrl+Enter)")
        self.accept_button.setDefault(True)
        self.accept_button.clicked.connect(self.accept_form)
        self.buttons.addWidget(self.accept_button)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.accept_form)
        if fields := self.form.fields():
            fields[0].setFocus()  # the dialog opens with the cursor in its first field
        self.resize(620, 640)

    def accept_form(self) -> bool:
        """Validate and send the form; on problems, show them at their fields and send nothing."""
        if self.outcome != "pending" or self.form is None:
            return False
        issues = self.form.validate()
        if issues:
            problems = counted(len(issues), "problem")
            self.show_banner(f"Fix {problems} before accepting (shown at the fields).", "tool_error")
            return False
        content = self.form.arguments()
        self.resolve({"action": "accept", "content": content if isinstance(content, dict) else {}})
        return True

    # -- URL mode -----------------------------------------------------------------------------
    def _build_url(self, params: dict[str, Any]) -> None:
        url = params.get("url")
        self.verdict = verdict = check_url(url)
        self.body.addWidget(section_title("The full address", self))
        self.url_view = QPlainTextEdit(visible(url if isinstance(url, str) else repr(url)))
        self.url_view.setReadOnly(True)
        self.url_view.setMaximumHeight(70)
        self.url_view.setObjectName("elicitationUrl")
        self.body.addWidget(self.url_view)
        row = QHBoxLayout()
        self.copy_url = QPushButton("Copy URL")
        self.copy_url.setAutoDefault(False)
        self.copy_url.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.url_view.toPlainText()))
        row.addWidget(self.copy_url)
        row.addStretch(1)
        self.body.addLayout(row)
        self.open_button = QPushButton("Open in browser")
        self.confirm = QCheckBox()
        if verdict.allowed:
            self.host_label = plain_label(f"Opens a page on: {verdict.host}", self, wrap=True, selectable=True)
            font = self.host_label.font()
            font.setBold(True)
            self.host_label.setFont(font)
            self.body.addWidget(self.host_label)
            self.warning_labels = [
                plain_label(f"⚠ {text}", self, style=STYLES["tool_error"], wrap=True, selectable=True)
                for text in verdict.warnings
            ]
            for label in self.warning_labels:
                self.body.addWidget(label)
            self.confirm.setText(f"I checked the address and want to open it on {verdict.host}")
            self.body.addWidget(self.confirm)
            self.open_button.setEnabled(False)
            self.confirm.toggled.connect(self.open_button.setEnabled)
            self.open_button.clicked.connect(self.open_url)
            self.buttons.addWidget(self.open_button)
        else:
            self.refusal = plain_label(
                f"✖ Refused: {verdict.reason}. MCP Lens will not open it.", self, wrap=True, selectable=True
            )
            self.refusal.setStyleSheet(f"QLabel {{ {STYLES['protocol_error']} }}")
            self.body.addWidget(self.refusal)
            self.confirm.setVisible(False)
            self.open_button.setVisible(False)
            self.decline_button.setDefault(True)
        self.body.addStretch(1)
        self.resize(620, 360)

    def open_url(self) -> bool:
        """Open the URL (only when allowed and confirmed) and accept."""
        verdict = self.verdict
        if self.outcome != "pending" or verdict is None or not verdict.allowed or not self.confirm.isChecked():
            return False
        if not self.opener(verdict.url):
            self.show_banner("The system could not open the browser. Copy the URL and open it yourself.", "tool_error")
            return False
        self.opened_url = verdict.url
        self.resolve({"action": "accept"})
        return True

    # -- common -------------------------------------------------------------------------------
    def dismissed(self) -> None:
        self.resolve({"action": "cancel"})

    def set_inputs_enabled(self, enabled: bool) -> None:
        for widget in (self.form, self.confirm):
            if widget is not None:
                widget.setEnabled(enabled)
