"""The Prompts tab: the prompt list (paginated, filtered), an arguments form (required marked) with
`completion/complete` suggestions, Get, and the messages rendered by role."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPushButton, QVBoxLayout, QWidget

from inspector.core import prompts
from inspector.core.errors import ProtocolError
from inspector.core.operations import Event
from inspector.traffic.commands import cli_line as cli_command
from inspector.ui.form.tool_form import ToolForm
from inspector.ui.listings import completion_hook
from inspector.ui.listings.listing_tab import ListingTab
from inspector.ui.listings.prompt_messages import PromptMessagesView
from inspector.ui.results.common import clip
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.widgets.async_tasks import error_text
from inspector.ui.widgets.item_list import ItemList
from inspector.ui.widgets.layout_parts import bare_column, named_splitter, title_label
from inspector.ui.widgets.plain_text import plain_label, set_message
from inspector.ui.widgets.run_keys import RunKeyFilter
from inspector.ui.widgets.splitter_memory import remember
from inspector.words import counted


def _prompt_row(item: dict[str, Any]) -> list[str]:
    arguments = prompts.prompt_arguments(item)
    names = ", ".join(a["name"] + ("*" if a.get("required") is True else "") for a in arguments)
    return [str(item.get("name", "")), names, str(item.get("title") or item.get("description") or "")]


class PromptsTab(ListingTab):
    capability, noun = "prompts", "prompts"

    def __init__(self, session: SessionController, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(session, settings, parent)
        self.setObjectName("promptsTab")
        self.prompt: dict[str, Any] | None = None
        self.form: ToolForm | None = None
        self.completers: dict[str, completion_hook.FieldCompleter] = {}
        self.confirm_missing = self._send_anyway  # replaceable, so tests can answer for the user
        self._build()
        self.show_icons(self.prompts)
        self.watch_session()

    def _build(self) -> None:
        self.refresh_button = QPushButton("Refresh (F5)")
        self.refresh_button.clicked.connect(self.refresh)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter prompts")
        self.filter.setAccessibleName("Filter prompts")
        self.filter.setClearButtonEnabled(True)
        self.list_status = QLabel()
        self.list_status.setTextFormat(Qt.TextFormat.PlainText)
        self.prompts = ItemList("Prompts", ("Name", "Arguments", "Title"))
        self.prompts.tree.setAccessibleName("Prompt list")
        self.prompts.chosen.connect(self.show_prompt)
        self.filter.textChanged.connect(self.prompts.apply_filter)
        left, left_layout = bare_column()
        bar = QHBoxLayout()
        bar.addWidget(self.refresh_button)
        bar.addWidget(self.filter, 1)
        left_layout.addLayout(bar)
        left_layout.addWidget(self.list_status)
        left_layout.addWidget(self.prompts, 1)

        self.title = title_label()
        self.description = plain_label(wrap=True, selectable=True)
        self.args_note = plain_label(wrap=True, selectable=True)
        self.args_note.setStyleSheet("QLabel { color: #8b949e; }")
        self.form_box = QVBoxLayout()
        self.get_button = QPushButton("Get prompt  (Ctrl+Enter)")
        self.get_button.setObjectName("getPromptButton")
        self.get_button.clicked.connect(self.get_current)
        actions = QHBoxLayout()
        actions.addWidget(self.get_button)
        self.copy_cli_button = QPushButton("Copy as command")
        self.copy_cli_button.setToolTip("Copy an mcp-lens --cli command that gets this prompt with these arguments")
        self.copy_cli_button.clicked.connect(self.copy_cli)
        actions.addWidget(self.copy_cli_button)
        actions.addStretch(1)
        top, column = bare_column()
        for widget in (self.title, self.description, self.args_note):
            column.addWidget(widget)
        column.addLayout(self.form_box, 1)
        column.addLayout(actions)
        self.view = PromptMessagesView()
        right = named_splitter("promptDetail", top, self.view, sizes=[420, 480], vertical=True)
        self.split = named_splitter("promptsSplitter", left, right, sizes=[380, 820], stretch=(0, 1))
        for key, splitter in (("detail", right), ("main", self.split)):
            remember(self.settings, f"prompts/splitter/{key}", splitter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.split)
        self.run_keys = RunKeyFilter(self, self.get_current, "Get the selected prompt")  # Ctrl+Enter inside the tab
        within = Qt.ShortcutContext.WidgetWithChildrenShortcut
        refresh = QShortcut(QKeySequence("F5"), self, self.refresh, context=within)
        refresh.setWhatsThis("List prompts again")  # Help › Keyboard shortcuts
        self.show_prompt(None)

    # -- connection --------------------------------------------------------------------------
    def _on_state(self, state: str, _detail: str) -> None:
        self.tasks.cancel_all()
        if state == CONNECTED:
            self.prompts.set_items([], _prompt_row)
            self.view.clear()
            self.list_changed()
        self.refresh_button.setEnabled(state == CONNECTED)
        self._update_actions()

    def _on_event(self, event: Event) -> None:
        if event.kind == "notification" and event.data.get("method") == "notifications/prompts/list_changed":
            self.list_changed()

    def refresh(self) -> None:
        conn = self.begin_listing()
        if conn is None:
            return
        self.tasks.start(prompts.list_prompts(conn, on_page=self._page_listed), self._listed)

    def _listed(self, outcome: Any) -> None:
        if isinstance(outcome, BaseException):
            self.prompts.set_items([], _prompt_row)
            self.prompts.set_status(error_text(outcome))
            self.list_status.setText("")
            self.end_listing()
            return
        self.prompts.set_items(outcome.items, _prompt_row, outcome.findings, keep=lambda item: item.get("name"))
        self.note_icons(self.prompts)
        pages = f" · {counted(outcome.pages, 'page')}" if outcome.pages > 1 else ""
        self.list_status.setText(f"listed at {time.strftime('%H:%M:%S')}{pages}")
        self.listings += 1
        self.end_listing()

    # -- the chosen prompt -------------------------------------------------------------------
    def show_prompt(self, prompt: Any) -> None:
        if self.form is not None:
            self.form_box.removeWidget(self.form)
            self.form.deleteLater()
            self.form = None
        self.completers = {}
        self.prompt = prompt if isinstance(prompt, dict) else None
        if self.prompt is None:
            self.title.setText("Select a prompt")
            self.description.setText("")
            self.args_note.setText("")
            self._update_actions()
            return
        name = str(self.prompt.get("name", ""))
        title = self.prompt.get("title")
        self.title.setText(
            clip(f"{title} ({name})" if isinstance(title, str) and title and title != name else name, 300)
        )
        self.description.setText(clip(str(self.prompt.get("description") or "(no description)")))
        arguments = prompts.prompt_arguments(self.prompt)
        required = sum(1 for a in arguments if a.get("required") is True)
        self.args_note.setText(
            f"{counted(len(arguments), 'argument')}, {required} required (marked *). Values are sent as strings."
            if arguments
            else "This prompt takes no arguments."
        )
        self.form = ToolForm(prompts.arguments_schema(self.prompt))
        self.form.setObjectName("promptForm")
        self.form.setMinimumHeight(min(110 + 70 * len(arguments), 300))
        self.form_box.addWidget(self.form, 1)
        conn = self.requester
        if arguments and conn is not None and prompts.supports_completion(conn.capabilities):
            ref = prompts.prompt_ref(name)

            def fetch(arg: str, value: str, context: dict[str, str]) -> Any:
                return prompts.complete(conn, ref, arg, value, context)

            self.completers = completion_hook.attach(self.form, [a["name"] for a in arguments], fetch)
        self._update_actions()

    def _update_actions(self) -> None:
        self.get_button.setEnabled(self.requester is not None and self.prompt is not None)
        self.copy_cli_button.setEnabled(self.prompt is not None)

    def cli_command(self) -> str | None:
        if self.prompt is None or self.form is None:
            return None
        arguments = self.form.arguments()
        arguments = {k: v for k, v in arguments.items() if v != ""} if isinstance(arguments, dict) else {}
        params = {"name": self.prompt.get("name"), "arguments": arguments}
        return cli_command(self.cli_target(), "prompts/get", params)

    def copy_cli(self) -> None:
        command = self.cli_command()
        if command:
            QGuiApplication.clipboard().setText(command)
        else:
            self.list_status.setText("No command: the target is unknown or an argument is not a string")

    def get_current(self) -> None:
        conn = self.requester
        if conn is None or self.prompt is None or self.form is None:
            return
        arguments = self.form.arguments()
        arguments = arguments if isinstance(arguments, dict) else {}
        required = [a["name"] for a in prompts.prompt_arguments(self.prompt) if a.get("required") is True]
        missing = [name for name in required if not arguments.get(name)]
        if missing and not self.confirm_missing(missing):
            return
        name = str(self.prompt.get("name", ""))
        self.view.clear()
        self.view.status_label.setText("Getting…")
        self.get_button.setEnabled(False)
        self.tasks.start(prompts.get_prompt(conn, name, arguments), self._got)

    def _send_anyway(self, missing: list[str]) -> bool:
        box = QMessageBox(QMessageBox.Icon.Warning, "Required arguments are empty", "", parent=self)
        set_message(box, f"Required: {', '.join(missing)}.\n\nGet the prompt anyway?")
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        return box.exec() == QMessageBox.StandardButton.Yes

    def _got(self, outcome: Any) -> None:
        self._update_actions()
        if isinstance(outcome, ProtocolError):
            self.view.show_error(outcome.code, outcome.message, outcome.data)
        elif isinstance(outcome, BaseException):  # on our side or the connection's: the server sent no error
            self.view.show_failure(outcome)
        else:
            self.view.show_prompt(outcome)
