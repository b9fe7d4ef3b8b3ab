"""One app's sandboxed web view: profile, guard, page and relay put together behind a few signals."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWebEngineCore import QWebEnginePage
from PySide6.QtWebEngineWidgets import QWebEngineView
from PySide6.QtWidgets import QWidget

from inspector.ui.apps.engine import SCHEME
from inspector.ui.apps.web_parts import (
    AppPage,
    ChannelHost,
    HostPageHandler,
    RequestCheck,
    RequestGuard,
    new_host_url,
    off_the_record_profile,
    relay_into,
)

DIRECTIVE_KEYS = {
    "connect-src": "connectDomains",
    "script-src": "resourceDomains",
    "style-src": "resourceDomains",
    "img-src": "resourceDomains",
    "font-src": "resourceDomains",
    "media-src": "resourceDomains",
    "frame-src": "frameDomains",
    "base-uri": "baseUriDomains",
}
"""Which `_meta.ui.csp` key would have allowed a request a CSP directive refused."""


class SandboxedAppView(QWebEngineView):
    """Runs one app's HTML in its own off-the-record profile, inside our host page's sandboxed iframe.

    `received` carries each raw message the app posts; `send` delivers one to it. `contained` says what
    was stopped (a request outside the policy, a navigation, a window, a permission); `crashed` says the
    render process ended."""

    received = Signal(str)
    contained = Signal(str, str)  # what was stopped (url or feature), why
    crashed = Signal(str)

    def __init__(self, html: str, check: RequestCheck, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("App")
        self.own = new_host_url()
        self.holder = QObject(self)  # owns the profile, so it outlives the page (deleted after it)
        self.profile = off_the_record_profile(self.holder)
        self.scheme = HostPageHandler(self.profile)
        self.profile.installUrlSchemeHandler(SCHEME, self.scheme)
        self.guard = RequestGuard(check, self.own, self.profile)
        self.guard.blocked.connect(self.contained)
        self.profile.setUrlRequestInterceptor(self.guard)
        self.app_page = AppPage(self.profile, self.own, check, self)
        self.app_page.navigationRefused.connect(self._refused_navigation)
        self.app_page.permissionRefused.connect(
            lambda what: self.contained.emit(what, "permissions are never granted to apps")
        )
        self.app_page.policyRefused.connect(self._refused_by_policy)
        self.app_page.renderProcessTerminated.connect(self._terminated)
        self.host = ChannelHost(html, self)
        self.host.received.connect(self.received)
        self.channel = relay_into(self.app_page, self.host)
        self.setPage(self.app_page)
        self.holder.setParent(None)  # now the last child: deleted after the page, as Qt requires
        self.holder.setParent(self)
        self.app_page.load(self.own)

    def send(self, text: str) -> None:
        """Deliver one JSON-RPC message (raw JSON text) to the app."""
        self.host.deliver.emit(text)

    def _refused_navigation(self, url: str, kind: str) -> None:
        if kind == "window":
            self.contained.emit(url or "a pop-up window", "apps may not open windows or pop-ups")
        elif kind == "top navigation":
            self.contained.emit("a navigation of the whole view", "apps may not navigate the view away")
        else:
            self.contained.emit(url, f"apps may not navigate {kind}; only their own document loads")

    def _refused_by_policy(self, url: str, directive: str) -> None:
        key = DIRECTIVE_KEYS.get(directive)
        declared = f" ({key})" if key else ""
        self.contained.emit(url, f"outside the app's declared policy{declared}: {directive} refused it")

    def _terminated(self, status: QWebEnginePage.RenderProcessTerminationStatus, code: int) -> None:
        if status != QWebEnginePage.RenderProcessTerminationStatus.NormalTerminationStatus:
            self.crashed.emit(f"the app's render process ended ({status.name}, exit code {code})")

    def close_app(self) -> None:
        """Stop the app: the page goes first, its profile once the page is gone (Qt warns otherwise)."""
        page = self.app_page
        page.triggerAction(QWebEnginePage.WebAction.Stop)
        page.destroyed.connect(self.holder.deleteLater)
        page.deleteLater()
