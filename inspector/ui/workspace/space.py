"""One server's session and every panel that shows it: the unit the workspace holds several of.

A `SessionSpace` owns its traffic store (recording into the workspace's shared seq counter), its
`SessionController`, and its own Server panel, roots, Tools, Resources, Prompts, Tasks, Budget, Doctor, Auth,
server output and notifications. Switching servers in the sidebar shows another space's panels; the
session behind them keeps running. The window connects what the space says (status messages, tab
counts) to the parts it owns.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QWidget

from inspector.config.profile import ServerProfile
from inspector.config.redact import Redactor
from inspector.config.store import ProfileStore
from inspector.core.errors import LensError
from inspector.core.history_file import history_path
from inspector.traffic.store import SeqCounter, TrafficStore
from inspector.ui.auth.panel import AuthPanel
from inspector.ui.budget import budget_panel
from inspector.ui.client_requests.handlers import ClientRequests
from inspector.ui.doctor import DoctorTab
from inspector.ui.listings.prompts_tab import PromptsTab
from inspector.ui.listings.resources_tab import ResourcesTab
from inspector.ui.removed_in_modern import follow_era
from inspector.ui.servers.panel import ServersPanel
from inspector.ui.servers.status_panel import StatusPanel, ping_text
from inspector.ui.session import CONNECTED, RECOVER, SessionController
from inspector.ui.skills.panel import SkillsPanel
from inspector.ui.tasks.pane import TasksPane
from inspector.ui.tools.workbench import ToolWorkbench
from inspector.ui.traffic.log_level import LogLevelControl
from inspector.ui.traffic.output_panes import NotificationsPane, ServerOutputPane
from inspector.ui.widgets.layout_parts import scrolled
from inspector.words import first_line

# Each panel's title: the tab it sits in (one stack per title in the window).
SERVER, ROOTS = "Server", "Roots"
TOOLS, RESOURCES, PROMPTS, TASKS, BUDGET, AUTH = "Tools", "Resources", "Prompts", "Tasks", "Budget", "Auth"
OUTPUT, NOTIFICATIONS = "Server output", "Notifications"
DOCTOR = "Doctor"
SKILLS = "Skills"  # its tab shown only for a server that declares the Skills extension


class SessionSpace(QObject):
    """A server's session and its panels (`widgets`, by tab title)."""

    statusMessage = Signal(str, int)  # text, milliseconds: for the window's status bar
    stateChanged = Signal(object, str, object)  # this space, state, detail (a str kept whole: see session.py)
    rootsCounted = Signal(object, int)  # this space, roots offered
    tasksCounted = Signal(object, int)  # this space, tasks running
    skillsDeclared = Signal(object)  # this space: whether its server declares Skills may have changed
    wantsAttention = Signal(object, str)  # this space, the title of the panel that needs the user

    def __init__(
        self,
        profile: ServerProfile,
        seqs: SeqCounter,
        profiles: ProfileStore,
        servers: ServersPanel,
        settings: QSettings,
        window: QWidget,
    ) -> None:
        super().__init__(window)
        self.name = profile.name
        self.profile = profile
        self.store = TrafficStore(source=profile.name, seqs=seqs)
        self.session = SessionController(self.store, self, profiles=profiles)  # saves what auto learns
        self.roots: int | None = None  # roots offered, once the roots panel has counted them
        self.tasks_running = 0
        session, store = self.session, self.store
        self.status_panel = StatusPanel(profiles)  # remembers a server's "load remote icons" permission
        self.client_requests = ClientRequests(session, servers, settings, window)  # sampling, elicitation, roots
        self.workbench = ToolWorkbench(session, settings)
        self.resources_tab = ResourcesTab(session, settings)
        self.prompts_tab = PromptsTab(session, settings)
        self.tasks_pane = TasksPane(session)  # tool calls run as tasks (both task forms)
        self.skills_panel = SkillsPanel(session)  # io.modelcontextprotocol/skills (SEP-2640)
        self.output = ServerOutputPane(store)
        self.notifications = NotificationsPane(store)
        self.log_level = LogLevelControl(session)  # logging/setLevel, in the Notifications pane's bar
        self.budget = budget_panel(session, settings, servers.profiles)
        self.auth_panel = AuthPanel(session, store, profiles)  # OAuth for HTTP servers
        self.doctor_tab = DoctorTab(session, settings, lambda: self.profile)  # its own connections, not the session's
        bar = self.notifications.bar
        bar.insertWidget(bar.count() - 1, self.log_level)  # before its Clear button
        self.widgets: dict[str, QWidget] = {
            SERVER: scrolled(self.status_panel),
            ROOTS: scrolled(self.client_requests.roots_panel),  # scrolls: the sidebar stays short
            TOOLS: self.workbench,
            RESOURCES: self.resources_tab,
            PROMPTS: self.prompts_tab,
            SKILLS: self.skills_panel,
            TASKS: self.tasks_pane,
            BUDGET: self.budget,
            DOCTOR: self.doctor_tab,
            AUTH: self.auth_panel,
            OUTPUT: self.output,
            NOTIFICATIONS: self.notifications,
        }
        self._connect()
        self.client_requests.show_profile(profile)
        self.auth_panel.show_profile(profile)  # a grant can be set before the first Connect

    def _connect(self) -> None:
        """What one panel of the space does for another."""
        session, requests = self.session, self.client_requests
        session.handlers = requests.handlers()
        say = self.statusMessage.emit
        requests.statusMessage.connect(lambda text: say(text, 8000))
        requests.rootsCounted.connect(self._roots_counted)
        self.prompts_tab.view.readResourceRequested.connect(self._read_in_resources)
        for tab in (self.resources_tab, self.prompts_tab):
            tab.cli_target = lambda: self.workbench.history.cli_target  # set on each connect
        session.auth_for = self.auth_panel.provider_for
        follow_era(session, self.auth_panel.client_box.mark_registration_deprecated, "dynamic client registration")
        session.stateChanged.connect(self.auth_panel.on_state)
        self.auth_panel.statusMessage.connect(lambda text: say(text, 10000))
        self.workbench.statusMessage.connect(lambda text: say(text, 8000))
        self.workbench.task_form, self.workbench.run_task = self.tasks_pane.form, self.tasks_pane.start
        self.tasks_pane.statusMessage.connect(lambda text: say(text, 8000))
        self.tasks_pane.countChanged.connect(self._tasks_counted)
        self.tasks_pane.taskChanged.connect(self.workbench.task_changed)  # a call run as a task, in History
        self.auth_panel.wantsAttention.connect(lambda: self.wantsAttention.emit(self, AUTH))
        session.stateChanged.connect(self._on_state)
        session.connected.connect(self.status_panel.show_connection)
        session.connected.connect(lambda _session: self.skillsDeclared.emit(self))
        if hasattr(self.budget, "set_skills"):  # the Budget tab counts what the listed skills cost
            self.skills_panel.listed.connect(self.budget.set_skills)
        session.requestFinished.connect(self._on_request_finished)
        session.pingFinished.connect(lambda outcome: say(ping_text(outcome), 10000))
        self._share_host()

    def _share_host(self) -> None:
        """One host chosen in both tabs: the Tools tab's host check and the Budget's host picker follow each
        other (each changes only when the other names another host, so no loop)."""
        picker, check = getattr(self.budget, "host_picker", None), self.workbench.tools.host_check
        if picker is None:  # the Budget tab of a broken install
            return
        picker.hostChanged.connect(lambda choice: check.set_host(choice.partition(":")[0]))
        check.hostChanged.connect(lambda name: picker.set_host(name) if picker.host_name() != name else None)

    def _roots_counted(self, count: int) -> None:
        self.roots = count
        self.rootsCounted.emit(self, count)

    def _tasks_counted(self, count: int) -> None:
        self.tasks_running = count
        self.tasksCounted.emit(self, count)

    def _read_in_resources(self, uri: str) -> None:
        """A resource link in a prompt message: read it in the Resources tab."""
        self.wantsAttention.emit(self, RESOURCES)
        self.resources_tab.read(uri)

    def _on_state(self, state: str, detail: str) -> None:
        self.status_panel.show_state(state, detail)
        self.stateChanged.emit(self, state, detail)

    def _on_request_finished(self, method: str, outcome: object) -> None:
        if isinstance(outcome, LensError):
            self.statusMessage.emit(f"{method}: {outcome.message}", 10000)

    def rename(self, name: str) -> None:
        """The server was renamed: later entries and messages carry the new name."""
        self.name = name
        self.store.source = name

    def dispose(self, after: Callable[[], None]) -> None:
        """The server was deleted: close its session (its exit still recorded), call `after`, free its panels."""

        async def close() -> None:
            await self.shutdown()
            after()
            for widget in self.widgets.values():
                widget.deleteLater()
            self.deleteLater()

        self._closing = asyncio.ensure_future(close())

    # -- connecting ----------------------------------------------------------------------------
    def connect_profile(
        self, resolved: ServerProfile, profile: ServerProfile, cli_target: list[str], *, fresh: bool = True
    ) -> None:
        """Connect (or reconnect) this space's session to `resolved` (`profile` with its ${…} filled in);
        `fresh` clears the tool list and result first (a reconnect keeps them until the new list arrives)."""
        self.profile = profile
        if fresh:
            self.workbench.clear()
        self.workbench.history.cli_target = cli_target
        redactor = Redactor.for_profile(resolved).merge(self.session.store.redactor)
        self.workbench.history.redactor = redactor  # its Copy as CLI, and Save to collection (`history_redactor`)
        self.workbench.keep_history(history_path(profile.name), redactor)  # History outlives a restart
        self.client_requests.show_profile(profile)
        self.session.connect_profile(resolved)

    async def shutdown(self) -> None:
        await self.doctor_tab.shutdown()
        await self.session.shutdown()


def sidebar_line(session: SessionController, state: str, detail: str) -> str:
    """The sidebar's second line for a server's state: era and version once connected, the reason on failure."""
    if state == CONNECTED:
        negotiation = session.negotiation
        era = f"{negotiation.era} {negotiation.version or ''}".strip() if negotiation is not None else ""
        return f"connected · {era}" if era else "connected"
    if state == "failed":
        reason = first_line(detail).removeprefix("Not connected: ") if detail else "failed"
        if reason.startswith("disconnected: "):  # a server that went away: why, without how to come back
            return reason.removesuffix(f" {RECOVER}").removesuffix(".")
        return f"error: {reason}"
    return "connecting…" if state == "connecting" else ""
