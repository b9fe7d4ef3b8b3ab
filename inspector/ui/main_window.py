"""The main window: servers on the left, tabs in the middle, traffic / output / notifications below.

Its panels come from one list (`MainWindow.panels`): each is built with what it needs (the session,
the settings, the profiles, the traffic store) and placed in its area; the window then connects them.
No panel reaches into the window.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QWidget,
)

from inspector.config.eras import ERAS
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.core.errors import LensError
from inspector.traffic import jsonl
from inspector.traffic.store import TrafficStore
from inspector.ui.about import show_about
from inspector.ui.auth.panel import AuthPanel
from inspector.ui.budget import budget_menu, budget_panel
from inspector.ui.client_requests.handlers import ClientRequests
from inspector.ui.listings.prompts_tab import PromptsTab
from inspector.ui.listings.resources_tab import ResourcesTab
from inspector.ui.removed_in_modern import RemovedAction, follow_era
from inspector.ui.servers.panel import ServersPanel
from inspector.ui.servers.status_panel import StatusPanel, ping_text
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.tasks.pane import TasksPane
from inspector.ui.tools.workbench import ToolWorkbench
from inspector.ui.traffic.log_level import LogLevelControl
from inspector.ui.traffic.output_panes import NotificationsPane, ServerOutputPane
from inspector.ui.traffic.session_files import ask_session_path, show_error, suggested_name
from inspector.ui.traffic.view import TrafficView
from inspector.ui.traffic.viewer_window import ViewerWindow
from inspector.ui.widgets.layout_parts import scrolled

# The bottom dock's first height in the 1280×860 first window: a dozen whole traffic rows beside a detail
# pane of a dozen lines; the workbench keeps the rest.
FIRST_RUN_DOCK_HEIGHT = 340

SIDEBAR, TABS, BOTTOM = "sidebar", "tabs", "bottom"  # under the server list, the middle, the bottom dock


@dataclass(frozen=True)
class Panel:
    area: str  # SIDEBAR, TABS or BOTTOM
    title: str
    widget: QWidget


class MainWindow(QMainWindow):
    closed = Signal()  # the window was closed: the app shuts the session down and ends

    def __init__(
        self,
        profiles: ProfileStore,
        demo: ServerProfile,
        settings: QSettings,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("MCP Lens")
        self.settings = settings
        self.store = TrafficStore()
        self.session = SessionController(self.store, self, profiles=profiles)  # saves what auto learns
        self.viewers: list[ViewerWindow] = []
        self.servers = ServersPanel(profiles, demo)
        self.panels = self._build_panels(profiles)
        self._lay_out()
        self._build_menus()
        self._connect_panels()
        self._restore()

    # -- panels ------------------------------------------------------------------------------
    def _build_panels(self, profiles: ProfileStore) -> list[Panel]:
        """Every panel, built with what it needs, in the order of its area's tabs."""
        session, settings, store = self.session, self.settings, self.store
        self.status_panel = StatusPanel(profiles)  # remembers a server's "load remote icons" permission
        self.client_requests = ClientRequests(session, self.servers, settings, self)  # sampling, elicitation, roots
        self.workbench = ToolWorkbench(session, settings)
        self.resources_tab = ResourcesTab(session, settings)
        self.prompts_tab = PromptsTab(session, settings)
        self.tasks_pane = TasksPane(session)  # tool calls run as tasks (both task forms)
        self.traffic = TrafficView(store, find_key=False)  # the window's View › Find in traffic owns Ctrl+F
        self.output = ServerOutputPane(store)
        self.notifications = NotificationsPane(store)
        self.log_level = LogLevelControl(session)  # logging/setLevel, in the Notifications pane's bar
        self.budget = budget_panel(session, settings, self.servers.profiles)
        self.auth_panel = AuthPanel(session, store, profiles)  # OAuth for HTTP servers
        return [
            Panel(SIDEBAR, "Server", scrolled(self.status_panel)),
            Panel(SIDEBAR, "Roots", self.client_requests.roots_panel),
            Panel(TABS, "Tools", self.workbench),
            Panel(TABS, "Resources", self.resources_tab),
            Panel(TABS, "Prompts", self.prompts_tab),
            Panel(TABS, "Tasks", self.tasks_pane),
            Panel(TABS, "Budget", self.budget),
            Panel(TABS, "Auth", self.auth_panel),
            Panel(BOTTOM, "Traffic", self.traffic),
            Panel(BOTTOM, "Server output", self.output),
            Panel(BOTTOM, "Notifications", self.notifications),
        ]

    def _lay_out(self) -> None:
        self.sidebar = QTabWidget()
        self.sidebar.setObjectName("sidebarTabs")
        self.sidebar.setDocumentMode(True)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("centralTabs")
        self.bottom = QTabWidget()
        self.bottom.setObjectName("bottomTabs")
        areas = {SIDEBAR: self.sidebar, TABS: self.tabs, BOTTOM: self.bottom}
        for panel in self.panels:
            areas[panel.area].addTab(panel.widget, panel.title)
        bar = self.notifications.bar
        bar.insertWidget(bar.count() - 1, self.log_level)  # before its Clear button

        self.left = QSplitter(Qt.Orientation.Vertical)
        self.left.setObjectName("leftSplitter")
        self.left.addWidget(self.servers)
        self.left.addWidget(self.sidebar)
        self.main_split = QSplitter()
        self.main_split.setObjectName("mainSplitter")
        self.main_split.addWidget(self.left)
        self.main_split.addWidget(self.tabs)
        self.main_split.setStretchFactor(1, 1)
        self.main_split.setSizes([300, 900])
        self.setCentralWidget(self.main_split)
        self.dock = QDockWidget("Traffic, output and notifications", self)
        self.dock.setObjectName("bottomDock")
        self.dock.setWidget(self.bottom)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        self.state_label = QLabel()
        self.state_label.setTextFormat(Qt.TextFormat.PlainText)
        self.statusBar().addWidget(self.state_label, 1)

    def _connect_panels(self) -> None:
        """What one panel does for another, and what the window shows of them."""
        session, requests = self.session, self.client_requests
        session.handlers = requests.handlers()
        requests.statusMessage.connect(lambda text: self.statusBar().showMessage(text, 8000))
        roots = self.sidebar.indexOf(requests.roots_panel)
        requests.rootsCounted.connect(lambda count: self.sidebar.setTabText(roots, f"Roots ({count})"))
        selected = self.servers.selected_profile()
        requests.show_profile(selected if selected is not None else self.servers.demo)
        self.prompts_tab.view.readResourceRequested.connect(self._read_in_resources)
        for tab in (self.resources_tab, self.prompts_tab):
            tab.cli_target = lambda: self.workbench.history.cli_target  # set on each connect
        session.auth_for = self.auth_panel.provider_for
        follow_era(session, self.auth_panel.client_box.mark_registration_deprecated, "dynamic client registration")
        session.stateChanged.connect(self.auth_panel.on_state)
        self.auth_panel.statusMessage.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.workbench.statusMessage.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.workbench.task_form, self.workbench.run_task = self.tasks_pane.form, self.tasks_pane.start
        self.tasks_pane.statusMessage.connect(lambda text: self.statusBar().showMessage(text, 8000))
        tasks_tab = self.tabs.indexOf(self.tasks_pane)
        self.tasks_pane.countChanged.connect(
            lambda n: self.tabs.setTabText(tasks_tab, f"Tasks ({n} running)" if n else "Tasks")
        )
        self.auth_panel.wantsAttention.connect(lambda: self.tabs.setCurrentWidget(self.auth_panel))
        self.servers.connectRequested.connect(self.connect_profile)
        session.stateChanged.connect(self._on_state)
        session.connected.connect(self.status_panel.show_connection)
        session.requestFinished.connect(self._on_request_finished)
        session.pingFinished.connect(lambda outcome: self.statusBar().showMessage(ping_text(outcome), 10000))
        self.traffic.resendRequested.connect(self._resend)

    def _read_in_resources(self, uri: str) -> None:
        """A resource link in a prompt message: read it in the Resources tab."""
        self.tabs.setCurrentWidget(self.resources_tab)
        self.resources_tab.read(uri)

    # -- menus and shortcuts -----------------------------------------------------------------
    def _action(self, menu: Any, text: str, slot: Any, shortcut: QKeySequence | str | None = None) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(file, "&Open session…", self.open_session, QKeySequence.StandardKey.Open)
        self._action(file, "&Export session…", self.export_session, QKeySequence.StandardKey.Save)
        file.addSeparator()
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        server = bar.addMenu("&Server")
        # Ctrl+Enter is each tab's run key (Call, Read, Get prompt): Connect takes Ctrl+Shift+Enter.
        self._action(server, "&Connect", self._connect_selected, "Ctrl+Shift+Return")
        self._action(server, "&Disconnect", self.session.disconnect, "Ctrl+Shift+D")
        self._action(server, "&Reconnect", self.session.reconnect, "Ctrl+R")
        ping = self._action(server, "&Ping", self.session.ping, "Ctrl+Shift+P")
        self.ping_gate = RemovedAction(self.session, ping, "ping")  # legacy era only: disabled with the reason
        view = bar.addMenu("&View")
        view.addAction(self.dock.toggleViewAction())
        for index, name in enumerate(("Traffic", "Server output", "Notifications")):
            self._action(view, name, lambda _=False, i=index: self._show_bottom(i), f"Alt+{index + 1}")
        self._action(view, "&Find in traffic", self._find_in_traffic, QKeySequence.StandardKey.Find)
        if (budget := budget_menu(self.budget, self, lambda: self.tabs.setCurrentWidget(self.budget))) is not None:
            bar.addMenu(budget)
        help_menu = bar.addMenu("&Help")
        self._action(help_menu, "&About MCP Lens", lambda: show_about(self))

    def _show_bottom(self, index: int) -> None:
        self.dock.show()
        self.bottom.setCurrentIndex(index)

    def _find_in_traffic(self) -> None:
        """Ctrl+F from anywhere in the window: show the traffic log and put the cursor in its filter."""
        self._show_bottom(0)
        self.traffic.focus_filter()

    # -- connecting --------------------------------------------------------------------------
    def connect_profile(self, profile: ServerProfile) -> None:
        resolved = self.servers.inputs.resolved(profile, self.connect_profile)  # ${…} references filled in
        if resolved is None:  # asking for its ${input:…} values (connects once answered), or it cannot connect
            return
        self.workbench.clear()
        target = cli_target(profile)
        self.traffic.set_cli_target(target)
        self.workbench.history.cli_target = target
        self.servers.select(profile.name)
        self.settings.setValue("session/lastServer", profile.name)
        self.client_requests.show_profile(profile)
        left = self.session.profile
        if left is not None and left.name != profile.name:  # one session at a time: the one left is closed
            self.servers.set_state(left.name, "disconnected")
        self.session.connect_profile(resolved)

    def _connect_selected(self) -> None:
        profile = self.servers.selected_profile()
        if profile is not None:
            self.connect_profile(profile)

    def _on_state(self, state: str, detail: str) -> None:
        self.status_panel.show_state(state, detail)
        self.state_label.setText(detail.splitlines()[0] if detail else state)
        if self.session.profile is not None:
            self.servers.set_state(self.session.profile.name, state)
        if state == "failed":
            self.statusBar().showMessage("Connection failed — see the server panel for what to check", 8000)

    def _resend(self, method: str, params: Any) -> None:
        if self.session.state != CONNECTED or self.session.send_request(method, params) is None:
            QMessageBox.warning(self, "Not connected", "Connect to a server before re-sending a request.")

    def _on_request_finished(self, method: str, outcome: Any) -> None:
        if isinstance(outcome, LensError):
            self.statusBar().showMessage(f"{method}: {outcome.message}", 10000)

    # -- sessions on disk --------------------------------------------------------------------
    def export_session(self) -> QFileDialog:
        """File › Export session: a file dialog (not blocking); the record is written once a file is chosen."""
        name = suggested_name(self.session.profile.name if self.session.profile else None)
        return ask_session_path(self, self.settings, self.save_session, save=True, suggested=name)

    def save_session(self, path: Path) -> None:
        profile = self.session.profile
        meta = {"server": profile.redacted().to_entry(), "name": profile.name} if profile else {}
        try:
            count = jsonl.save(path, self.store, meta=meta)
        except OSError as exc:
            show_error(self, "Export failed", f"Could not write {path}: {exc.strerror or exc}")
            return
        self.statusBar().showMessage(f"Exported {count} entries to {path}", 8000)

    def open_session(self) -> QFileDialog:
        """File › Open session: a file dialog (not blocking); the record opens read-only in its own window."""
        return ask_session_path(self, self.settings, self.open_session_file, save=False)

    def open_session_file(self, path: Path) -> ViewerWindow | None:
        viewer = ViewerWindow.open(path, self)
        if viewer is not None:
            self.viewers.append(viewer)
            viewer.show()
        return viewer

    # -- window state ------------------------------------------------------------------------
    def _restore(self) -> None:
        if (geometry := self.settings.value("window/geometry")) is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 860)
        if (state := self.settings.value("window/state")) is not None:
            self.restoreState(state)
        else:  # first run: the workbench gets most of the height
            self.resizeDocks([self.dock], [FIRST_RUN_DOCK_HEIGHT], Qt.Orientation.Vertical)
            self.left.setSizes([260, 400])
        for splitter in (self.main_split, self.left):
            if (sizes := self.settings.value(f"splitters/{splitter.objectName()}")) is not None:
                splitter.restoreState(sizes)

    def save_window_state(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        for splitter in (self.main_split, self.left):
            self.settings.setValue(f"splitters/{splitter.objectName()}", splitter.saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_window_state()
        for viewer in self.viewers:
            viewer.close()
        self._shutdown = asyncio.ensure_future(self.session.shutdown())
        super().closeEvent(event)
        self.closed.emit()


def cli_target(profile: ServerProfile) -> list[str]:
    """The `mcp-lens --cli` target words for "copy as command" (secrets redacted)."""
    safe = profile.redacted()
    era = safe.protocol_era
    era_words = [] if era == "auto" else ["--protocol-era" if era in ERAS else "--protocol-version", era]
    if safe.transport == "stdio":
        words = [word for key, value in safe.env.items() for word in ("-e", f"{key}={value}")]
        if safe.cwd:
            words += ["--cwd", safe.cwd]
        return [*words, *era_words, "--", safe.command, *safe.args]
    words = ["--server-url", safe.url, "--transport", safe.transport, *era_words]
    for name, value in safe.headers.items():
        words += ["--header", f"{name}: {value}"]
    return words
