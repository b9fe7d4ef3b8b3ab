"""The main window: servers on the left, tabs in the middle, traffic / output / notifications below.

Its panels come from one list (`MainWindow.panels`): each is built with what it needs (the session,
the settings, the profiles, the traffic store) and placed in its area; the window then connects them.
No panel reaches into the window.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QWidget,
)

from inspector.config.eras import ERAS
from inspector.config.profile import ServerProfile
from inspector.config.store import ProfileStore
from inspector.core.errors import exit_title
from inspector.core.skills import refusal as skill_refusal
from inspector.traffic import jsonl
from inspector.traffic.store import MirrorStore, SeqCounter
from inspector.ui.about import show_about
from inspector.ui.budget import budget_menu
from inspector.ui.collections.view import CollectionsView
from inspector.ui.removed_in_modern import RemovedAction
from inspector.ui.replay.hook import add_record_actions
from inspector.ui.replay.mock_server import open_as_mock, open_history_as_mock
from inspector.ui.servers.panel import ServersPanel
from inspector.ui.servers.unsaved import ask_before_quit, save_copy, unsaved_names
from inspector.ui.session import CONNECTED
from inspector.ui.shortcuts_dialog import show_shortcuts
from inspector.ui.traffic.view import TrafficView
from inspector.ui.traffic.viewer_window import ViewerWindow
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import set_plain
from inspector.ui.widgets.plain_text import shown as plain_shown
from inspector.ui.widgets.screen_fit import fit_screen
from inspector.ui.widgets.session_files import ask_session_path, show_error, suggested_name
from inspector.ui.widgets.splitter_memory import saved_state
from inspector.ui.workspace.reopen import OPEN_SERVERS_KEY, REOPEN_KEY, reopen_enabled
from inspector.ui.workspace.space import (
    AUTH,
    BUDGET,
    DOCTOR,
    NOTIFICATIONS,
    OUTPUT,
    PROMPTS,
    RESOURCES,
    ROOTS,
    SERVER,
    SKILLS,
    TASKS,
    TOOLS,
    SessionSpace,
    sidebar_line,
)
from inspector.words import counted, first_line

# The bottom dock's first height in the 1280×860 first window: ten whole traffic rows beside a detail
# pane of as many lines; the workbench keeps the rest (a result of a dozen lines below the form).
FIRST_RUN_DOCK_HEIGHT = 320
FIRST_RUN_SIZE = (1280, 860)  # clamped to the screen's available area (`fit_screen`)

SIDEBAR, TABS, BOTTOM = "sidebar", "tabs", "bottom"  # under the server list, the middle, the bottom dock
TRAFFIC = "Traffic"
COLLECTIONS = "Collections"  # one window-level tab: a collection's steps name their servers
PANEL_TITLES = (
    (SIDEBAR, (SERVER, ROOTS)),
    (TABS, (TOOLS, RESOURCES, PROMPTS, SKILLS, TASKS, BUDGET, DOCTOR, AUTH, COLLECTIONS)),
    (BOTTOM, (TRAFFIC, OUTPUT, NOTIFICATIONS)),
)


def disconnected_message(name: str, detail: str) -> str:
    """The status bar's words when the established connection to server `name` ends: whose, what happened, on
    whose side, what to do (an exit in the Server panel's words: "exited with code -9 (killed by SIGKILL)")."""
    if exited := re.search(r"exited with code (-?\d+)", detail):
        how = exit_title(int(exited[1])).removeprefix("Server process ")
        return f"{name}: disconnected: the server process {how}. Reconnect with Ctrl+R."
    if stopped := re.match(r"disconnected: (the server at .*? stopped answering[^.\n]*)", detail):
        return f"{name}: disconnected: {stopped[1]}. Reconnect with Ctrl+R once it answers again."
    return f"{name}: disconnected: the connection was lost (the Server panel says why). Reconnect with Ctrl+R."


@dataclass(frozen=True)
class Panel:
    area: str  # SIDEBAR, TABS or BOTTOM
    title: str
    widget: QWidget


class MainWindow(QMainWindow):
    """The workspace: one `SessionSpace` per server the user opened, any number of them live at once.

    The sidebar's selection chooses the space the tabs show (`current`); the others keep running. The
    traffic log shows every space's entries (`store` mirrors them), with a server column and filter.
    `session`, `workbench`, `budget`, … are the current space's.
    """

    closed = Signal()  # the window was closed: the app shuts the sessions down and ends

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
        self.profiles = profiles
        self.seqs = SeqCounter()  # one numbering for every session's entries
        self.store = MirrorStore()  # what the traffic log shows: every session's entries
        self.spaces: dict[str, SessionSpace] = {}
        self.viewers: list[ViewerWindow] = []
        self._quit_asked = False  # set once the user answered the unsaved-servers question (or a signal)
        self.servers = ServersPanel(profiles, demo)
        self._shown_once = False
        self._states: dict[str, str] = {}  # each server's last connection state: a lost connection is said so
        self._parked = QWidget(self)  # holds the panels of the spaces not shown
        self._parked.hide()
        self.current = self._space_for(demo)
        self.panels = self._build_panels(self.current)
        self._lay_out()
        self._build_menus()
        self._connect_panels()
        self.show_space(self.current)
        self._restore()

    # -- the current space's parts, by the names panels and tests use ---------------------------
    session = property(lambda self: self.current.session)
    status_panel = property(lambda self: self.current.status_panel)
    client_requests = property(lambda self: self.current.client_requests)
    workbench = property(lambda self: self.current.workbench)
    resources_tab = property(lambda self: self.current.resources_tab)
    prompts_tab = property(lambda self: self.current.prompts_tab)
    tasks_pane = property(lambda self: self.current.tasks_pane)
    output = property(lambda self: self.current.output)
    notifications = property(lambda self: self.current.notifications)
    log_level = property(lambda self: self.current.log_level)
    budget = property(lambda self: self.current.budget)
    auth_panel = property(lambda self: self.current.auth_panel)

    # -- panels ------------------------------------------------------------------------------
    def _build_panels(self, first: SessionSpace) -> list[Panel]:
        """Every panel in the order of its area's tabs: `first`'s own panels, and the shared traffic log."""
        self.traffic = TrafficView(self.store, find_key=False)  # the window's View › Find in traffic owns Ctrl+F
        self.collections = CollectionsView(self.settings, self.spaces)  # steps run on the open sessions
        self.traffic.saveRequested.connect(self.collections.save_request)
        shared = {TRAFFIC: self.traffic, COLLECTIONS: self.collections}
        return [
            Panel(area, title, shared[title] if title in shared else first.widgets[title])
            for area, titles in PANEL_TITLES
            for title in titles
        ]

    def _space_for(self, profile: ServerProfile) -> SessionSpace:
        """The space of the server called `profile.name`, made (disconnected) the first time."""
        space = self.spaces.get(profile.name)
        if space is not None:
            return space
        space = SessionSpace(profile, self.seqs, self.profiles, self.servers, self.settings, self)
        self.spaces[profile.name] = space
        for widget in space.widgets.values():
            widget.setParent(self._parked)  # hidden until the space is shown (then a tab holds it)
        self.store.attach(space.store)
        if hasattr(space.budget, "live_tools"):  # Compare reads the other live sessions' lists
            space.budget.live_tools = self.live_tools
        space.statusMessage.connect(lambda text, ms: self._say(space, text, ms))
        space.stateChanged.connect(self._on_state)
        space.rootsCounted.connect(lambda s, _n: s is self.current and self._count_tabs())
        space.tasksCounted.connect(lambda s, _n: s is self.current and self._count_tabs())
        space.skillsDeclared.connect(lambda s: s is self.current and self._count_tabs())
        space.wantsAttention.connect(self._attention)
        space.workbench.history.mockRequested.connect(lambda: self._mock_history(space))
        return space

    def _mock_history(self, space: SessionSpace) -> None:
        """History's Open as mock server: its calls (and the tools as last listed) served by `mcp-lens replay`."""
        rows = space.workbench.tools.model.all
        tools = [row.tool for row in rows] if rows else None
        said = open_history_as_mock(self, space.name, list(space.workbench.history.records), tools)
        self.statusBar().showMessage(plain_shown(said, one_line=True), 15000)

    def show_space(self, space: SessionSpace) -> None:
        """Put `space`'s panels in the tabs, each where the shown space's was (its session keeps running)."""
        left, self.current = self.current, space
        if left is not space:
            self.setUpdatesEnabled(False)
            for title, widget in space.widgets.items():
                area, old = self.areas[title], left.widgets[title]
                index, shown = area.indexOf(old), area.currentIndex()
                # The new page in, made current if the old one was, then the old one out: removing the current
                # page would show its neighbour for a moment (and a first show lists resources, prompts…).
                area.insertTab(index, widget, area.tabText(index))
                if shown == index:
                    area.setCurrentIndex(index)
                area.removeTab(index + 1)
                old.setParent(self._parked)
                area.setCurrentIndex(shown)
            self.setUpdatesEnabled(True)
        self.ping_gate.bind(space.session)
        if self.budget_menu is not None:
            self.budget_menu.retarget(space.budget)
        self._count_tabs()
        self._show_state(space.session.state, space.session.detail)

    def _say(self, space: SessionSpace, text: str, ms: int) -> None:
        """A space's status message; one from a server not shown says whose it is."""
        said = text if space is self.current else f"{space.name}: {text}"
        self.statusBar().showMessage(plain_shown(said, one_line=True), ms)

    def _count_tabs(self) -> None:
        space = self.current
        roots = "Roots" if space.roots is None else f"Roots ({space.roots})"
        self.sidebar.setTabText(self.sidebar.indexOf(space.widgets[ROOTS]), roots)
        running = space.tasks_running
        tasks = f"Tasks ({running} running)" if running else "Tasks"
        self.tabs.setTabText(self.tabs.indexOf(space.widgets[TASKS]), tasks)
        declared = skill_refusal(space.session.capabilities) is None  # the Skills tab: only where declared
        self.tabs.setTabVisible(self.tabs.indexOf(space.widgets[SKILLS]), declared)

    def _attention(self, space: SessionSpace, title: str) -> None:
        if space is self.current:
            self.tabs.setCurrentWidget(space.widgets[title])

    def _lay_out(self) -> None:
        self.sidebar = QTabWidget()
        self.sidebar.setObjectName("sidebarTabs")
        self.sidebar.setDocumentMode(True)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("centralTabs")
        self.bottom = QTabWidget()
        self.bottom.setObjectName("bottomTabs")
        areas = {SIDEBAR: self.sidebar, TABS: self.tabs, BOTTOM: self.bottom}
        self.areas = {panel.title: areas[panel.area] for panel in self.panels}  # where each title's tab is
        for panel in self.panels:
            areas[panel.area].addTab(panel.widget, panel.title)

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
        # one line, elided (whole in its tooltip): a server's name of a few hundred characters widened the window
        self.state_label = ElidedLabel()
        self.statusBar().addWidget(self.state_label, 1)

    def _connect_panels(self) -> None:
        """What the window shows of the spaces, and what the sidebar and the traffic log ask of them."""
        self.servers.connectRequested.connect(self.connect_profile)
        self.servers.disconnectRequested.connect(self.disconnect_server)
        self.servers.selectionChanged.connect(self._selected)
        self.servers.renamed.connect(self._renamed)
        self.servers.removed.connect(self._removed)
        self.traffic.resendRequested.connect(self._resend)

    def _renamed(self, old: str, new: str) -> None:
        if (space := self.spaces.pop(old, None)) is not None:
            space.rename(new)
            self.spaces[new] = space
            if space is self.current:  # the status bar names the shown server
                self._show_state(space.session.state, space.session.detail)
            if old in self.traffic.filter_bar.servers():
                self.traffic.add_server(new)
                # its later entries carry the new name: "copy as command" finds the same target under it
                self.traffic.set_cli_target(cli_target(space.profile), server=new)

    def _removed(self, name: str) -> None:
        """A deleted server: its session closes and its panels go (another server's are shown first)."""
        space = self.spaces.pop(name, None)
        if space is None:
            return
        if space is self.current:
            self.show_space(self._space_for(self.servers.demo))
        space.dispose(after=lambda: self.store.detach(space.store))

    def _selected(self, profile: ServerProfile | None) -> None:
        """The sidebar's selection: show that server's space (made, disconnected, if it has none)."""
        if profile is not None and profile.name != self.current.name:
            self.show_space(self._space_for(profile))

    # -- menus and shortcuts -----------------------------------------------------------------
    def _show_tapped_sessions(self) -> None:
        from inspector.ui.taps.hook import show_tapped_sessions  # imported when first asked: not at start-up

        show_tapped_sessions(self)

    def _show_compare_window(self) -> None:
        from inspector.ui.replay.compare_window import show_compare_window  # as above

        show_compare_window(self)

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
        self._action(file, "&Tapped sessions…", self._show_tapped_sessions, "Ctrl+Shift+T")
        self._action(file, "&Compare sessions…", self._show_compare_window)
        file.addSeparator()
        self._action(file, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        server = bar.addMenu("&Server")
        # Ctrl+Enter is each tab's run key (Call, Read, Get prompt): Connect takes Ctrl+Shift+Enter.
        self._action(server, "&Connect", self._connect_selected, "Ctrl+Shift+Return")
        self._action(server, "&Disconnect", lambda: self.session.disconnect(), "Ctrl+Shift+D")
        self._action(server, "&Reconnect", self.reconnect, "Ctrl+R")
        ping = self._action(server, "&Ping", lambda: self.session.ping(), "Ctrl+Shift+P")
        self.ping_gate = RemovedAction(self.current.session, ping, "ping")  # legacy only: disabled with the reason
        server.addSeparator()
        self._action(server, "Disconnect &All", self.disconnect_all)
        self.reopen_action = self._action(server, "Reopen Connected Servers at Start", self._set_reopen)
        self.reopen_action.setCheckable(True)
        self.reopen_action.setChecked(reopen_enabled(self.settings))
        view = bar.addMenu("&View")
        view.addAction(self.dock.toggleViewAction())
        for index, name in enumerate(("Traffic", "Server output", "Notifications")):
            self._action(view, name, lambda _=False, i=index: self._show_bottom(i), f"Alt+{index + 1}")
        self._action(view, "&Find in traffic", self._find_in_traffic, QKeySequence.StandardKey.Find)
        self.budget_menu = budget_menu(self.current.budget, self, lambda: self.tabs.setCurrentWidget(self.budget))
        if self.budget_menu is not None:
            bar.addMenu(self.budget_menu)
        help_menu = bar.addMenu("&Help")
        help_key = QKeySequence.StandardKey.HelpContents
        self._action(help_menu, "&Keyboard shortcuts", lambda: show_shortcuts(self, self.panel_of), help_key)
        self._action(help_menu, "&About MCP Lens", lambda: show_about(self))

    def panel_of(self, item: QObject | None) -> str:
        """The title of the panel (tab, sidebar page, server list) that `item` belongs to; "" if none."""
        pages: dict[QObject, str] = {w: title for space in self.spaces.values() for title, w in space.widgets.items()}
        pages |= {panel.widget: panel.title for panel in self.panels} | {self.servers: "Servers"}
        while item is not None:
            if item in pages:
                return f"{pages[item]} tab" if self.areas.get(pages[item]) is self.tabs else pages[item]
            item = item.parent()
        return ""

    def _set_reopen(self, on: bool) -> None:
        self.settings.setValue(REOPEN_KEY, bool(on))

    def _show_bottom(self, index: int) -> None:
        self.dock.show()
        self.bottom.setCurrentIndex(index)

    def _find_in_traffic(self) -> None:
        """Ctrl+F from anywhere in the window: show the traffic log and put the cursor in its filter."""
        self._show_bottom(0)
        self.traffic.focus_filter()

    # -- connecting --------------------------------------------------------------------------
    def reconnect(self) -> None:
        """Server › Reconnect (Ctrl+R): the shown server again, with its settings as saved now (an edit made
        since it connected applies, as Disconnect and Connect would); what the tabs show stays until replaced."""
        profile = self.servers.profile_named(self.current.name)
        if profile is None:
            self.session.reconnect()
            return
        self.connect_profile(profile, fresh=False)

    def connect_profile(self, profile: ServerProfile, *, fresh: bool = True) -> None:
        """Connect `profile` in its own space (made if need be) and show it; other sessions keep running.
        `fresh`: clear the tool list and result first (not for a reconnect)."""
        resolved = self.servers.inputs.resolved(profile, self.connect_profile)  # ${…} references filled in
        if resolved is None:  # asking for its ${input:…} values (connects once answered), or it cannot connect
            return
        space = self._space_for(profile)
        self.show_space(space)
        target = cli_target(profile)
        self.traffic.set_cli_target(target, server=profile.name)  # every entry names its server
        self.traffic.add_server(profile.name)
        self.servers.select(profile.name)
        self.settings.setValue("session/lastServer", profile.name)
        space.connect_profile(resolved, profile, target, fresh=fresh)

    def disconnect_server(self, profile: ServerProfile) -> None:
        if (space := self.spaces.get(profile.name)) is not None:
            space.session.disconnect()

    def disconnect_all(self) -> None:
        for space in self.spaces.values():
            if space.session.state != "disconnected":
                space.session.disconnect()

    def live_tools(self, name: str) -> list[dict[str, Any]] | None:
        """The tool list of the live session of the server called `name` (None: not connected)."""
        space = self.spaces.get(name)
        if space is None or space.session.state != CONNECTED or not hasattr(space.budget, "tools"):
            return None
        return list(space.budget.tools) or None

    def connected_servers(self) -> list[str]:
        """Names of the servers connected now, in the order they were opened."""
        return [name for name, space in self.spaces.items() if space.session.state == CONNECTED]

    def _connect_selected(self) -> None:
        profile = self.servers.selected_profile()
        if profile is not None:
            self.connect_profile(profile)

    def _on_state(self, space: SessionSpace, state: str, detail: str) -> None:
        was, self._states[space.name] = self._states.get(space.name), state
        self.servers.set_state(space.name, state, sidebar_line(space.session, state, detail))
        if space is self.current:
            self._show_state(state, detail)
            if state == "failed" and was == CONNECTED:
                self.statusBar().showMessage(disconnected_message(space.name, detail), 15000)
            elif state == "failed" and detail.startswith("sign-in failed: "):  # OAuth's words: who refused, what
                said = first_line(detail).removeprefix("sign-in failed: ")
                self.statusBar().showMessage(f"Sign-in failed: {said} — see the Auth tab", 15000)
            elif state == "failed":
                self.statusBar().showMessage("Connection failed — see the server panel for what to check", 8000)

    def _show_state(self, state: str, detail: str) -> None:
        said = f"{self.current.name}: {first_line(detail) if detail else state}"
        set_plain(self.state_label, said, one_line=True)

    def _resend(self, method: str, params: Any) -> None:
        """Re-send from the traffic log: to the session of the selected entry's server."""
        entry = self.traffic.selected_entry()
        space = self.spaces.get(entry.source or "") if entry is not None else None
        session = (space or self.current).session
        if session.state != CONNECTED or session.send_request(method, params) is None:
            QMessageBox.warning(self, "Not connected", "Connect to that server before re-sending a request.")

    # -- sessions on disk --------------------------------------------------------------------
    def export_session(self) -> QFileDialog:
        """File › Export session: a file dialog (not blocking); the record is written once a file is chosen.
        It holds the server the traffic filter shows, or every server's entries."""
        shown = self.traffic.shown_server()
        name = suggested_name(shown or (self.current.name if len(self.spaces) == 1 else "workspace"))
        return ask_session_path(self, self.settings, self.save_session, save=True, suggested=name)

    def save_session(self, path: Path) -> None:
        shown = self.traffic.shown_server()
        recorded = [space for space in self.spaces.values() if len(space.store)]  # a server only selected: none
        spaces = [self.spaces[shown]] if shown in self.spaces else recorded
        profiles = [space.profile for space in spaces]
        meta: dict[str, Any] = {"servers": [p.name for p in profiles]}
        if len(profiles) == 1:
            meta |= {"server": profiles[0].redacted().to_entry(), "name": profiles[0].name}
        entries = self.store if shown is None else (e for e in self.store if e.source == shown)
        try:
            count = jsonl.save(path, entries, meta=meta)
        except OSError as exc:
            show_error(self, "Export failed", f"Could not write {path}: {exc.strerror or exc}")
            return
        self.statusBar().showMessage(f"Exported {counted(count, 'entry')} to {path}", 8000)

    def open_session(self) -> QFileDialog:
        """File › Open session: a file dialog (not blocking); the record opens read-only in its own window."""
        return ask_session_path(self, self.settings, self.open_session_file, save=False)

    def open_session_file(self, path: Path) -> ViewerWindow | None:
        viewer = ViewerWindow.open(path, self)
        if viewer is not None:
            self.record_opened(viewer)
            viewers = self.viewers
            viewers.append(viewer)  # closed on quit; one closed before (and deleted) leaves the list
            viewer.destroyed.connect(lambda *_: viewer in viewers and viewers.remove(viewer))
            viewer.show()
        return viewer

    def record_opened(self, viewer: ViewerWindow) -> None:
        """A record's read-only window (an opened session, a tapped one): Open as mock server, Run against…"""
        add_record_actions(viewer, self)

    def open_as_mock(self, record: Path, server: str | None = None, name: str | None = None) -> ServerProfile:
        """Add `record` to the workspace as a server answering from it (`mcp-lens replay`), and connect it."""
        return open_as_mock(self, record, server, name)

    # -- window state ------------------------------------------------------------------------
    def _restore(self) -> None:
        if (geometry := saved_state(self.settings, "window/geometry")) is not None:
            self.restoreGeometry(geometry)
        else:
            self.resize(*FIRST_RUN_SIZE)
        self._fit_screen()
        if (state := saved_state(self.settings, "window/state")) is not None:
            self.restoreState(state)
        else:  # first run: the workbench gets most of the height
            self.resizeDocks([self.dock], [FIRST_RUN_DOCK_HEIGHT], Qt.Orientation.Vertical)
            self.left.setSizes([330, 330])  # the server list shows five servers
        self._restore_splitters()

    def _fit_screen(self) -> None:
        """Keep the window inside the screen's available area (`fit_screen`): a first run on a 1024×700
        screen, or a geometry saved on a larger screen, would otherwise run past its edge."""
        fit_screen(self)

    def _restore_splitters(self) -> None:
        for splitter in (self.main_split, self.left):
            if (sizes := saved_state(self.settings, f"splitters/{splitter.objectName()}")) is not None:
                splitter.restoreState(sizes)

    def showEvent(self, event: QShowEvent) -> None:
        """Once laid out at its size, the splitters take their saved sizes again: before the first show they
        are squeezed into a default geometry, which leaves the sidebar at its minimum width."""
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self._restore_splitters()

    def save_window_state(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        for splitter in (self.main_split, self.left):
            self.settings.setValue(f"splitters/{splitter.objectName()}", splitter.saveState())
        self.settings.sync()

    def close_without_asking(self) -> None:
        """Close at once (a signal asked): servers that could not be saved are written to a copy first."""
        if unsaved_names(self.servers):
            save_copy(self.servers)
        self._quit_asked = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._quit_asked:
            asked = ask_before_quit(self.servers, self._close_after_answer)
            if asked is not None:
                event.ignore()
                return
        self.save_window_state()
        self.settings.setValue(OPEN_SERVERS_KEY, self.connected_servers())  # for "reopen at start"
        for viewer in self.viewers:
            viewer.close()
        self._shutdown = asyncio.ensure_future(self.shutdown())
        super().closeEvent(event)
        self.closed.emit()

    def _close_after_answer(self) -> None:
        self._quit_asked = True
        self.close()

    async def shutdown(self) -> None:
        """Close every session and wait until each server is gone."""
        await asyncio.gather(*(space.shutdown() for space in list(self.spaces.values())), return_exceptions=True)


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
    for name, value in (safe.to_entry().get("headers") or {}).items():  # the bearer token's header too
        words += ["--header", f"{name}: {value}"]
    return words
