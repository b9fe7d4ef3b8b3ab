"""The App view of one tool call: reads the tool's ui:// interface through the session, shows its
policy in words, runs it in a sandboxed web view with its bridge, and says what it contained.

When WebEngine cannot run (not installed, running as root, the render process ended) the view says
why and shows the interface's HTML as plain text instead.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QScrollArea, QVBoxLayout, QWidget

from inspector.apps import csp
from inspector.apps.bridge import TRANSPORT, AppBridge
from inspector.apps.ui_resource import UiResource, read_ui_resource, resource_uri
from inspector.content.visible import visible
from inspector.traffic.store import TrafficStore
from inspector.ui.apps import engine
from inspector.ui.apps.app_host import QtAppHost
from inspector.ui.apps.context import host_context
from inspector.ui.apps.document import with_policy
from inspector.ui.results.common import STYLES
from inspector.ui.widgets.plain_text import plain_label

REQUEST_KINDS = ("connect", "resource", "frame")
CONTEXT_DELAY_MS = 250  # a resize settles this long before the app hears of its new container width
TEARDOWN_GRACE_MS = 300  # how long a replaced app has to answer ui/resource-teardown before it is stopped
MAX_NOTICES = 200  # lines kept in the notices box (a flooding app must not grow it without end)


class AppSession(Protocol):
    """What the view needs of a session: requests on the connection (logged) and its traffic store. The
    Tools tab's `SessionController` is one; so is the CLI's `LiteConnection`."""

    store: TrafficStore

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]: ...


class AppView(QWidget):
    """One app, for one call of `tool` with `arguments` that returned `result`."""

    def __init__(
        self,
        session: AppSession,
        tool: dict[str, Any],
        arguments: dict[str, Any],
        result: dict[str, Any],
        tools: list[dict[str, Any]] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.tool = tool
        self.arguments = arguments
        self.result = result
        self.tools = tools
        self.resource: UiResource | None = None
        self.bridge: AppBridge | None = None
        self.web: Any = None  # the SandboxedAppView, once started
        self.contained: list[str] = []
        self.notices_shown = 0
        self.tasks: set[asyncio.Future[Any]] = set()
        self.host = QtAppHost(self)
        self.context_timer = QTimer(self, singleShot=True, interval=CONTEXT_DELAY_MS)
        self.context_timer.timeout.connect(self._tell_context)
        uri = resource_uri(tool) or ""
        self.title = plain_label(f"{uri} ·", wrap=False, selectable=True)
        self.title.setAccessibleName("App interface")
        self.policy = plain_label("Policy: (reading the interface…)", wrap=True, style=STYLES["note"], selectable=True)
        self.policy.setAccessibleName("App policy")
        self.state = plain_label(f"Reading {uri}…", wrap=True, selectable=True)
        self.state.setAccessibleName("App status")
        self.notices = QPlainTextEdit(readOnly=True)
        self.notices.setAccessibleName("App notices")
        self.notices.setMaximumBlockCount(MAX_NOTICES)
        self.notices.setMaximumHeight(90)
        self.notices.hide()
        self.source_text = QPlainTextEdit(readOnly=True)
        self.source_text.setAccessibleName("App HTML")
        self.source_text.hide()
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setAccessibleName("App area")
        self.scroll.hide()
        self.about = about = QHBoxLayout()  # one line: which interface, under which policy (the app gets the height)
        about.addWidget(self.title)
        about.addWidget(self.policy, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        layout.addLayout(about)
        for widget in (self.state, self.notices):
            layout.addWidget(widget)
        layout.addWidget(self.scroll, 1)
        layout.addWidget(self.source_text, 1)
        self._spawn(self._start())

    # -- starting ----------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _read(self, uri: str) -> dict[str, Any]:
        return await self.session.request("resources/read", {"uri": uri})

    async def _start(self) -> None:
        resource = await read_ui_resource(self._read, resource_uri(self.tool) or "")
        self.resource = resource
        meta = resource.meta.get("csp")
        self.policy.setText("Policy: " + csp.summary(meta).replace("\n", "; ") + " · permissions: none granted")
        for finding in [*resource.findings, *csp.findings(meta)]:
            self.notice(f"Interface: {finding}")
        if resource.html is None:
            self.state.setText("Not rendered: " + (resource.findings[-1] if resource.findings else "no HTML"))
            return
        reason = engine.unavailable_reason()
        if reason is not None:
            self.fall_back(reason)
            return
        self._run(resource)

    def _run(self, resource: UiResource) -> None:
        from inspector.ui.apps.web_view import SandboxedAppView

        bridge = AppBridge(
            tool=self.tool,
            resource=resource,
            store=self.session.store,
            host=self.host,
            host_context=host_context(self),
            source=None,
            tools=self.tools,
        )
        document = with_policy(resource.html or "", csp.policy(resource.meta.get("csp")))
        self.web = SandboxedAppView(document, self._check)
        bridge.send = self._send
        bridge.on_change = self._bridge_changed
        self.bridge = bridge
        self.web.received.connect(self._received)
        self.web.contained.connect(self._contained)
        self.web.crashed.connect(self.fall_back)
        self.scroll.setWidget(self.web)
        self.scroll.show()
        self.state.setText("Starting the app…")
        bridge.tool_input(self.arguments)
        bridge.tool_result(self.result)

    def _send(self, text: str) -> None:
        if self.web is not None:  # a stopped app hears nothing more
            self.web.send(text)

    def _received(self, text: str) -> None:
        bridge = self.bridge
        if bridge is None:
            return
        if bridge.cut_off:  # a flooding app: counted, not even parsed
            bridge.dropped += 1
            return
        self._spawn(bridge.receive(text))

    def fall_back(self, reason: str) -> None:
        """Say why the app does not run, and show its HTML as text."""
        self.state.setText(f"The app is not running: {reason}. Its HTML is shown as text.")
        if self.web is not None:
            self.scroll.hide()
        html = self.resource.html if self.resource is not None else None
        self.source_text.setPlainText(visible(html or ""))
        self.source_text.show()

    # -- what the app does -------------------------------------------------------------------
    def _check(self, url: str, kind: str | None) -> str | None:
        """Why the app may not load `url` for `kind` (None: its policy allows it)."""
        if kind not in REQUEST_KINDS:
            return "this kind of request is never allowed to apps"
        meta = self.resource.meta.get("csp") if self.resource is not None else None
        if csp.allowed(url, meta, kind):
            return None
        return f"outside the app's declared policy ({csp.KINDS[kind]})"

    def _contained(self, what: str, why: str) -> None:
        text = f"Blocked {what}: {why}"
        self.contained.append(text)
        self.notice(text)
        self.session.store.record_failure(TRANSPORT, text, why)

    def _bridge_changed(self, what: str) -> None:
        bridge = self.bridge
        if bridge is None:
            return
        if what == "initialized":
            name = (bridge.app_info or {}).get("name")
            named = f" ({name})" if isinstance(name, str) else ""
            self.state.setText(f"App running{named}: initialised")
        elif what == "flagged" and bridge.flagged:
            self.notice(f"Bridge: {bridge.flagged[-1]}")
        elif what == "log" and bridge.logs:
            data = bridge.logs[-1].get("data")
            self.notice(f"App log: {data if isinstance(data, str) else repr(data)}")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.context_timer.start()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.context_timer.start()

    def _tell_context(self) -> None:
        """Tell a running app what changed of its container width and theme
        (`ui/notifications/host-context-changed`), and only that."""
        bridge = self.bridge
        if bridge is None or not bridge.initialized or self.web is None:
            return
        now = host_context(self)
        changes = {
            key: now[key] for key in ("containerDimensions", "theme") if now[key] != bridge.host_context.get(key)
        }
        if changes:
            bridge.context_changed(changes)

    def notice(self, text: str) -> None:
        """Add one line to the notices shown above the app (plain text)."""
        self.notices_shown += 1
        self.notices.appendPlainText(text)
        self.notices.show()

    def resize_app(self, height: int | None) -> None:
        if self.web is not None and height is not None:
            self.web.setMinimumHeight(height)

    def close_app(self) -> None:
        """Stop the app now (its page, then its profile)."""
        for task in list(self.tasks):
            task.cancel()
        if self.web is not None:
            self.web.close_app()
            self.web = None

    def retire(self) -> None:
        """The view is being replaced: ask the app to clean up (ui/resource-teardown), give it
        `TEARDOWN_GRACE_MS` to do so, then stop it and delete the view."""
        if self.bridge is not None and self.bridge.initialized:
            self.bridge.teardown()
            QTimer.singleShot(TEARDOWN_GRACE_MS, self, self._finish)
        else:
            self._finish()

    def _finish(self) -> None:
        self.close_app()
        self.deleteLater()
