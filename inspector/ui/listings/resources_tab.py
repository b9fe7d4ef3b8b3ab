"""The Resources tab: resources and templates (paginated, filtered), read, template form with completion,
subscribe with updates and auto re-read, re-list on `notifications/resources/list_changed`.

One Subscribe button for both eras: `resources/subscribe` in the handshake era, the URI added to the
`subscriptions/listen` stream in the 2026-07-28 era (`inspector.core.listen`)."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.core import prompts, resources
from inspector.core.errors import ProtocolError
from inspector.core.operations import Event
from inspector.core.uri_template import TemplateError, expand, form_values, variable_names, variables_schema
from inspector.traffic.commands import cli_line as cli_command
from inspector.ui.form.tool_form import ToolForm
from inspector.ui.listings import completion_hook
from inspector.ui.listings.listing_tab import ListingTab
from inspector.ui.removed_in_modern import is_modern
from inspector.ui.results.common import clip
from inspector.ui.results.resource_view import ResourceContentsView
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.widgets.async_tasks import error_text
from inspector.ui.widgets.item_list import ItemList
from inspector.ui.widgets.layout_parts import bare_column, named_splitter, scrolled, title_label
from inspector.ui.widgets.plain_text import plain_label
from inspector.ui.widgets.run_keys import RunKeyFilter
from inspector.ui.widgets.splitter_memory import remember
from inspector.words import counted

SUBSCRIBED_MARK = "●"


def _resource_row(item: dict[str, Any]) -> list[str]:
    return [str(item.get("title") or item.get("name") or ""), "", str(item.get("uri", ""))]


def _template_row(item: dict[str, Any]) -> list[str]:
    return [str(item.get("title") or item.get("name") or ""), str(item.get("uriTemplate", ""))]


class ResourcesTab(ListingTab):
    capability, noun = "resources", "resources"

    def __init__(self, session: SessionController, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(session, settings, parent)
        self.setObjectName("resourcesTab")
        self.kind: str | None = None  # "resource" | "template" | None
        self.item: dict[str, Any] | None = None
        self.form: ToolForm | None = None
        self.completers: dict[str, completion_hook.FieldCompleter] = {}
        self.subscribed: set[str] = set()
        self.updates: dict[str, tuple[int, float]] = {}  # uri -> (count, wall time of the last)
        self._pending = 0  # list requests of the current refresh still running
        self._reads = 0  # reads started; only the latest one's answer is shown
        self._build()
        self.show_icons(self.resources, self.templates)
        self.watch_session()
        self.session.core.listen_changed.connect(self._on_listen)

    # -- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        self.refresh_button = QPushButton("Refresh (F5)")
        self.refresh_button.setToolTip("List resources and templates again (every page)")
        self.refresh_button.clicked.connect(self.refresh)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by name or URI")
        self.filter.setAccessibleName("Filter resources")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        self.list_status = plain_label("", wrap=False, selectable=True)
        top = QHBoxLayout()
        top.addWidget(self.refresh_button)
        top.addWidget(self.filter, 1)
        top.addWidget(self.list_status)

        self.resources = ItemList("Resources", ("Name", SUBSCRIBED_MARK, "URI"))
        self.resources.tree.setColumnWidth(1, 24)
        self.resources.model.header_tips[1] = "Subscribed (resources/subscribe, or the listen stream when modern)"
        self.templates = ItemList("Templates", ("Name", "URI template"))
        self.resources.tree.setAccessibleName("Resource list")
        self.templates.tree.setAccessibleName("Template list")
        self.resources.chosen.connect(lambda item: self._choose("resource", item))
        self.templates.chosen.connect(lambda item: self._choose("template", item))
        lists = named_splitter("resourceLists", self.resources, self.templates, sizes=[420, 200], vertical=True)

        self.title = title_label()
        self.uri_label = plain_label(wrap=True, selectable=True)
        self.description = plain_label(wrap=True, selectable=True)
        self.meta = plain_label(wrap=True, selectable=True)
        self.meta.setStyleSheet("QLabel { color: #8b949e; }")
        self.form_box = QVBoxLayout()
        self.expanded = plain_label(wrap=True, selectable=True)
        self.expanded.setObjectName("expandedUri")
        self.read_button = QPushButton("Read  (Ctrl+Enter)")
        self.read_button.setObjectName("readButton")
        self.read_button.clicked.connect(self.read_current)
        self.subscribe_button = QPushButton("Subscribe")
        self.subscribe_button.setObjectName("subscribeButton")
        self.subscribe_button.setCheckable(True)
        self.subscribe_button.clicked.connect(self._subscribe_clicked)
        self.auto_reread = QCheckBox("Auto re-read on update")
        self.auto_reread.setChecked(settings_bool(self.settings, "resources/autoReread", True))
        self.auto_reread.toggled.connect(lambda on: self.settings.setValue("resources/autoReread", on))
        self.copy_button = QPushButton("Copy URI")
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.target_uri() or ""))
        self.copy_cli_button = QPushButton("Copy as command")
        self.copy_cli_button.setToolTip("Copy an mcp-lens --cli command that reads this URI")
        self.copy_cli_button.clicked.connect(self.copy_cli)
        self.updates_label = plain_label("", wrap=True, selectable=True)  # wraps: it may show a server's error message
        self.updates_label.setObjectName("updatesLabel")
        actions = QHBoxLayout()  # two rows, so that the tab stays narrow enough for a small window
        for widget in (self.read_button, self.subscribe_button, self.auto_reread):
            actions.addWidget(widget)
        actions.addStretch(1)
        copies = QHBoxLayout()
        copies.addStretch(1)
        copies.addWidget(self.copy_button)
        copies.addWidget(self.copy_cli_button)
        status_row = QHBoxLayout()
        status_row.addWidget(self.expanded, 1)
        status_row.addWidget(self.updates_label)

        detail, column = bare_column()
        for widget in (self.title, self.uri_label, self.description, self.meta):
            column.addWidget(widget)
        column.addLayout(self.form_box, 1)
        column.addLayout(status_row)
        column.addLayout(actions)
        column.addLayout(copies)
        self.view = ResourceContentsView()
        self.view.readResourceRequested.connect(self.read)
        # The detail scrolls: in a short window its wrapped labels and two rows of buttons would overflow it.
        # The result gets two thirds of the height and five sevenths of the width; the stretch factors keep those shares
        # when the window shrinks (with the lists at 0 a 1024 px window left the result a strip 90 px wide).
        right = named_splitter(
            "resourceDetail", scrolled(detail), self.view, sizes=[200, 400], vertical=True, stretch=(1, 2)
        )
        self.split = named_splitter("resourcesSplitter", lists, right, sizes=[300, 750], stretch=(2, 5))
        for key, splitter in (("lists", lists), ("detail", right), ("main", self.split)):
            remember(self.settings, f"resources/splitter/{key}", splitter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.split, 1)
        self.run_keys = RunKeyFilter(self, self.read_current, "Read the selected resource")  # Ctrl+Enter inside the tab
        within = Qt.ShortcutContext.WidgetWithChildrenShortcut
        refresh = QShortcut(QKeySequence("F5"), self, self.refresh, context=within)
        refresh.setWhatsThis("List resources and templates again")  # Help › Keyboard shortcuts
        self._choose(None, None)

    # -- connection --------------------------------------------------------------------------
    def _on_state(self, state: str, _detail: str) -> None:
        connected = state == CONNECTED
        if state in (CONNECTED, "connecting", "disconnected", "failed"):
            self.tasks.cancel_all()
            self.subscribed.clear()
            self.updates.clear()
        if connected:
            self.resources.set_items([], _resource_row)
            self.templates.set_items([], _template_row)
            self.view.clear()
            self.list_changed()
        self.refresh_button.setEnabled(connected)
        self._update_actions()

    def _on_event(self, event: Event) -> None:
        if event.kind != "notification":
            return
        method, params = event.data.get("method"), event.data.get("params") or {}
        if method == "notifications/resources/list_changed":
            self.list_changed()
        elif method == "notifications/resources/updated" and isinstance(params, dict):
            uri = str(params.get("uri", ""))
            count = self.updates.get(uri, (0, 0.0))[0] + 1
            self.updates[uri] = (count, time.time())
            self._update_actions()
            if self.auto_reread.isChecked() and uri == self.view.uri and uri in self.subscribed:
                self.read(uri, reason=f"update {count}")

    def _on_listen(self, stream: Any) -> None:
        """Modern era: a listen stream that ended took its resource subscriptions with it."""
        if stream is None or stream.state not in ("closed", "failed") or not self.subscribed:
            self._update_actions()
            return
        for uri in self.subscribed:
            self.resources.mark("uri", uri, 1, "")
        self.subscribed.clear()
        self._update_actions()
        self.updates_label.setText(f"Not subscribed any more: the listen stream ended ({stream.detail})")

    # -- listing -----------------------------------------------------------------------------
    def refresh(self) -> None:
        conn = self.begin_listing()
        if conn is None:
            return
        self._pending = 2
        self.tasks.start(
            resources.list_resources(conn, on_page=self._page_listed),
            lambda out: self._listed(self.resources, out, _resource_row, "uri"),
        )
        self.tasks.start(
            resources.list_templates(conn), lambda out: self._listed(self.templates, out, _template_row, "uriTemplate")
        )

    def _listed(self, target: ItemList, outcome: Any, row: Any, key: str) -> None:
        if isinstance(outcome, BaseException):
            target.set_items([], row)
            not_found = isinstance(outcome, ProtocolError) and outcome.code == -32601
            target.set_status("The server does not serve this list." if not_found else error_text(outcome))
        else:
            target.set_items(outcome.items, row, outcome.findings, keep=lambda item: item.get(key))
            self.note_icons(target)
            if outcome.pages > 1:
                target.heading.setText(f"{target.heading.text()} · {counted(outcome.pages, 'page')}")
        for uri in self.subscribed:
            self.resources.mark("uri", uri, 1, SUBSCRIBED_MARK)
        self._pending -= 1
        if self._pending <= 0:
            self.listings += 1
            self.list_status.setText(f"listed at {time.strftime('%H:%M:%S')}")
            self.end_listing()

    def _filter_changed(self, text: str) -> None:
        self.resources.apply_filter(text)
        self.templates.apply_filter(text)

    # -- the chosen item ---------------------------------------------------------------------
    def _choose(self, kind: str | None, item: Any) -> None:
        if item is not None:
            other = self.templates if kind == "resource" else self.resources
            other.clear_choice()
        if item is None and kind is not None and self.kind != kind:
            return  # the other list lost its selection: keep showing what is chosen
        self.kind, self.item = (kind, item) if item is not None else (None, None)
        self._clear_form()
        if self.item is None:
            self.title.setText("Select a resource or a template")
            for label in (self.uri_label, self.description, self.meta, self.expanded):
                label.setText("")
            self._update_actions()
            return
        item = self.item
        name = item.get("title") or item.get("name") or "(no name)"
        self.title.setText(clip(str(name), 300))
        self.description.setText(clip(str(item.get("description") or "")))
        meta = [f"name: {item.get('name')}"] if item.get("title") else []
        if item.get("mimeType"):
            meta.append(str(item["mimeType"]))
        if isinstance(item.get("size"), int):
            meta.append(f"{item['size']:,} bytes")
        annotations = item.get("annotations")
        if isinstance(annotations, dict):
            meta += [f"{key}: {_short(value)}" for key, value in annotations.items()]
        self.meta.setText(clip(" · ".join(meta), 500))
        if self.kind == "resource":
            self.uri_label.setText(clip(str(item.get("uri", ""))))
            self.expanded.setText("")
        else:
            template = str(item.get("uriTemplate", ""))
            self.uri_label.setText(clip(template))
            self._build_form(template)
        self._update_actions()

    def _clear_form(self) -> None:
        if self.form is not None:
            self.form_box.removeWidget(self.form)
            self.form.deleteLater()
            self.form = None
        self.completers = {}

    def _build_form(self, template: str) -> None:
        try:
            schema = variables_schema(template)
        except TemplateError as exc:
            self.expanded.setText(f"✖ {exc}")
            return
        self.form = ToolForm(schema)
        self.form.setObjectName("templateForm")
        self.form.setMinimumHeight(min(110 + 70 * len(schema["properties"]), 300))
        self.form.changed.connect(self._update_expanded)
        self.form_box.addWidget(self.form, 1)
        conn = self.requester
        if conn is not None and prompts.supports_completion(conn.capabilities):
            ref = prompts.template_ref(template)

            def fetch(name: str, value: str, context: dict[str, str]) -> Any:
                return prompts.complete(conn, ref, name, value, context)

            self.completers = completion_hook.attach(self.form, variable_names(template), fetch)
        self._update_expanded()

    def _update_expanded(self) -> None:
        uri, problem = self._expand()
        self.expanded.setText(f"URI: {uri}" if uri is not None else f"✖ {problem}")
        self.expanded.setStyleSheet("" if uri is not None else "QLabel { color: #c0392b; }")
        self._update_actions()

    def _expand(self) -> tuple[str | None, str]:
        if self.kind != "template" or self.item is None or self.form is None:
            return None, ""
        template = str(self.item.get("uriTemplate", ""))
        arguments = self.form.arguments()
        values = form_values(template, arguments if isinstance(arguments, dict) else {})
        try:
            return expand(template, values), ""
        except TemplateError as exc:
            return None, str(exc)

    def target_uri(self) -> str | None:
        """The URI that Read and Subscribe act on: the resource's, or the expanded template."""
        if self.kind == "resource" and self.item is not None:
            uri = self.item.get("uri")
            return uri if isinstance(uri, str) else None
        return self._expand()[0]

    def _update_actions(self) -> None:
        conn = self.requester
        uri = self.target_uri()
        self.read_button.setEnabled(conn is not None and bool(uri))
        can_subscribe = conn is not None and resources.supports(conn.capabilities, "subscribe")
        self.subscribe_button.setEnabled(can_subscribe and bool(uri))
        if not can_subscribe:
            tip = "The server does not declare resources.subscribe"
        elif is_modern(self.session):
            tip = "Add this URI to the subscriptions/listen stream: the server sends notifications/resources/updated"
            if (stream := self.session.core.listen) is not None:
                tip += f"\nNow: {stream.describe()}"
        else:
            tip = "Ask the server for notifications/resources/updated about this URI (resources/subscribe)"
        self.subscribe_button.setToolTip(tip)
        self.subscribe_button.blockSignals(True)
        self.subscribe_button.setChecked(uri in self.subscribed)
        self.subscribe_button.setText("Subscribed ✓" if uri in self.subscribed else "Subscribe")
        self.subscribe_button.blockSignals(False)
        self.copy_button.setEnabled(bool(uri))
        self.copy_cli_button.setEnabled(bool(uri))
        count, last = self.updates.get(uri or "", (0, 0.0))
        if count:
            last_at = time.strftime("%H:%M:%S", time.localtime(last))
            self.updates_label.setText(f"{counted(count, 'update')}, last at {last_at}")
        else:
            self.updates_label.setText("no updates yet" if uri in self.subscribed else "")

    # -- actions -----------------------------------------------------------------------------
    def cli_command(self) -> str | None:
        uri = self.target_uri()
        return cli_command(self.cli_target(), "resources/read", {"uri": uri}) if uri else None

    def copy_cli(self) -> None:
        command = self.cli_command()
        if command:
            QGuiApplication.clipboard().setText(command)
        else:
            self.updates_label.setText("No command: the server's target is unknown")

    def read_current(self) -> None:
        uri = self.target_uri()
        if uri:
            self.read(uri)

    def read(self, uri: str, *, reason: str = "") -> None:
        conn = self.requester
        if conn is None:
            return
        self._reads += 1
        generation = self._reads
        if not reason.startswith("update"):  # an auto re-read keeps showing the old contents meanwhile
            self.view.clear()
            self.view.status_label.setText("Reading…")
            self.view.detail_label.setText(uri)
        self.tasks.start(
            resources.read_resource(conn, uri), lambda outcome: self._read_done(generation, uri, outcome, reason)
        )

    def _read_done(self, generation: int, uri: str, outcome: Any, reason: str) -> None:
        if generation != self._reads:
            return  # a later read was started: its answer is the one to show
        if isinstance(outcome, BaseException):  # the server's JSON-RPC error, or a failure on our side
            self.view.show_error(outcome)
            self.view.uri = uri
        else:
            self.view.show_read(outcome, reason=reason)

    def _subscribe_clicked(self, checked: bool) -> None:
        uri, conn = self.target_uri(), self.requester
        if not uri or conn is None:
            self._update_actions()
            return
        core = self.session.core
        call = core.subscribe_resource(uri) if checked else core.unsubscribe_resource(uri)
        self.subscribe_button.setEnabled(False)
        self.tasks.start(call, lambda outcome: self._subscribed(uri, checked, outcome))

    def _subscribed(self, uri: str, on: bool, outcome: Any) -> None:
        if isinstance(outcome, BaseException):
            self.updates_label.setText(f"{'subscribe' if on else 'unsubscribe'} failed: {error_text(outcome)}")
            self.subscribe_button.setEnabled(True)
            self.subscribe_button.setChecked(not on)
            return
        if on:
            self.subscribed.add(uri)
        else:
            self.subscribed.discard(uri)
        self.resources.mark("uri", uri, 1, SUBSCRIBED_MARK if on else "")
        self._update_actions()
        if on and self.view.uri != uri:
            self.read(uri, reason="subscribed")


def _short(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def settings_bool(settings: QSettings, key: str, default: bool) -> bool:
    return bool(settings.value(key, default, type=bool))
