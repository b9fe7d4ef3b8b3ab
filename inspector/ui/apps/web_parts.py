"""The WebEngine pieces of one app: its own off-the-record profile, the host page's scheme handler,
the request guard, the page that refuses navigation and windows, and the channel object."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from PySide6.QtCore import QBuffer, QByteArray, QObject, QUrl, Signal, Slot
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import (
    QWebEngineNewWindowRequest,
    QWebEnginePage,
    QWebEnginePermission,
    QWebEngineProfile,
    QWebEngineScript,
    QWebEngineSettings,
    QWebEngineUrlRequestInfo,
    QWebEngineUrlRequestInterceptor,
    QWebEngineUrlRequestJob,
    QWebEngineUrlSchemeHandler,
)

from inspector.ui.apps.engine import SCHEME
from inspector.ui.apps.host_page import HOST_PAGE, relay_script

RequestCheck = Callable[[str, str | None], str | None]  # (url, kind of request) → why it is blocked, or None

CSP_REFUSAL = re.compile(r"'(?P<url>[^']*)'.*?directive: \"(?P<directive>[a-z-]+)")
RT = QWebEngineUrlRequestInfo.ResourceType
KINDS = {
    RT.ResourceTypeXhr: "connect",
    RT.ResourceTypeSubResource: "connect",
    RT.ResourceTypePing: "connect",
    RT.ResourceTypeWebSocket: "connect",
    RT.ResourceTypeScript: "resource",
    RT.ResourceTypeStylesheet: "resource",
    RT.ResourceTypeImage: "resource",
    RT.ResourceTypeFontResource: "resource",
    RT.ResourceTypeMedia: "resource",
    RT.ResourceTypeFavicon: "resource",
    RT.ResourceTypeSubFrame: "frame",
}
"""What each kind of request is for, in `inspector.apps.csp` words (anything else is never allowed)."""

SETTINGS_OFF = (
    "LocalContentCanAccessFileUrls",
    "LocalContentCanAccessRemoteUrls",
    "JavascriptCanOpenWindows",
    "JavascriptCanAccessClipboard",
    "JavascriptCanPaste",
    "PluginsEnabled",
    "LocalStorageEnabled",
    "ScreenCaptureEnabled",
    "WebGLEnabled",
    "FullScreenSupportEnabled",
    "DnsPrefetchEnabled",
    "HyperlinkAuditingEnabled",
    "NavigateOnDropEnabled",
    "AllowWindowActivationFromJavaScript",
    "PdfViewerEnabled",
)


def new_host_url() -> QUrl:
    """A host page URL of its own for each app (its host name is never reused)."""
    return QUrl(f"{SCHEME.decode()}://app-{uuid.uuid4().hex[:16]}/")


class HostPageHandler(QWebEngineUrlSchemeHandler):
    """Serves the host page at our scheme's URL, and nothing else."""

    def requestStarted(self, job: QWebEngineUrlRequestJob) -> None:
        if job.requestUrl().path() not in ("", "/"):
            job.fail(QWebEngineUrlRequestJob.Error.UrlNotFound)
            return
        buffer = QBuffer(job)
        buffer.setData(QByteArray(HOST_PAGE))
        job.reply(QByteArray(b"text/html"), buffer)


class RequestGuard(QWebEngineUrlRequestInterceptor):
    """Blocks every request the app's policy does not allow; `blocked` says which and why."""

    blocked = Signal(str, str)  # url, reason

    def __init__(self, check: RequestCheck, own: QUrl, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.check = check
        self.own = own

    def interceptRequest(self, info: QWebEngineUrlRequestInfo) -> None:
        url = info.requestUrl()
        if url.scheme() == self.own.scheme():
            if url.host() != self.own.host():
                info.block(True)
                self.blocked.emit(url.toString(), "another app's host page")
            return
        if url.scheme() == "file":
            reason: str | None = "file: URLs are never loaded"
        else:
            reason = self.check(url.toString(), KINDS.get(info.resourceType()))
        if reason is not None:
            info.block(True)
            self.blocked.emit(url.toString(), reason)


class AppPage(QWebEnginePage):
    """Loads the host page once; refuses every other navigation, every window, every permission."""

    navigationRefused = Signal(str, str)  # url, what kind
    permissionRefused = Signal(str)  # what the app asked for
    policyRefused = Signal(str, str)  # url, the directive that refused it (the app's CSP, in Chromium)

    def __init__(
        self, profile: QWebEngineProfile, own: QUrl, check: RequestCheck, parent: QObject | None = None
    ) -> None:
        super().__init__(profile, parent)
        self.own = own
        self.check = check
        self.loaded_host = False
        self.permissionRequested.connect(self._deny)
        self.newWindowRequested.connect(self._window_requested)

    def acceptNavigationRequest(self, url: QUrl | str, kind: QWebEnginePage.NavigationType, main: bool) -> bool:
        url = QUrl(url)
        if main and not self.loaded_host and url == self.own:
            self.loaded_host = True
            return True
        if not main and url.toString() in ("about:srcdoc", "about:blank"):
            return True  # the app's document going into its iframe
        if not main and self.check(url.toString(), "frame") is None:
            return True  # a frame the app's policy declares (frameDomains)
        self.navigationRefused.emit(url.toString(), "the host page" if main else "the app's frame")
        return False

    def javaScriptConsoleMessage(self, level, message: str, line: int, source: str) -> None:
        """Chromium's own sandbox stops pop-ups and top navigation before we hear of them: its console
        message is how the view learns, and says so. Other console lines are not printed."""
        if message.startswith("Refused to") and "Content Security Policy" in message:
            self.policyRefused.emit(*csp_violation(message))
        elif "allow-popups" in message:
            self.navigationRefused.emit("", "window")
        elif "allow-top-navigation" in message:
            self.navigationRefused.emit("the host page", "top navigation")

    def createWindow(self, kind: QWebEnginePage.WebWindowType) -> QWebEnginePage | None:
        self.navigationRefused.emit("", "window")
        return None

    def _window_requested(self, request: QWebEngineNewWindowRequest) -> None:
        self.navigationRefused.emit(request.requestedUrl().toString(), "window")

    def _deny(self, permission: QWebEnginePermission) -> None:
        self.permissionRefused.emit(permission.permissionType().name)
        permission.deny()


def csp_violation(message: str) -> tuple[str, str]:
    """(url, directive) from Chromium's console line for a request its CSP refused."""
    found = CSP_REFUSAL.search(message)
    if found is None:
        return "a request", "the app's content-security policy"
    return found.group("url"), found.group("directive")


class ChannelHost(QObject):
    """The one object the relay sees: the app's messages come in through `receive`, ours go out
    through `deliver`; `document` hands over the app's HTML (with our CSP first)."""

    deliver = Signal(str)
    received = Signal(str)

    def __init__(self, html: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.html = html

    @Slot(str)
    def receive(self, text: str) -> None:
        self.received.emit(text)

    @Slot(result=str)
    def document(self) -> str:
        return self.html


def off_the_record_profile(parent: QObject) -> QWebEngineProfile:
    """A fresh profile for one app: in memory only, no cache, no cookies kept, nothing shared."""
    profile = QWebEngineProfile(parent)  # no storage name: off the record
    profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.NoCache)
    profile.setPersistentCookiesPolicy(QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies)
    profile.setPersistentPermissionsPolicy(QWebEngineProfile.PersistentPermissionsPolicy.AskEveryTime)
    settings = profile.settings()
    for name in SETTINGS_OFF:
        settings.setAttribute(getattr(QWebEngineSettings.WebAttribute, name), False)
    settings.setAttribute(QWebEngineSettings.WebAttribute.JavascriptEnabled, True)
    return profile


def relay_into(page: QWebEnginePage, host: ChannelHost) -> QWebChannel:
    """Wire the relay: the channel lives in an isolated world the app's code cannot reach."""
    channel = QWebChannel(page)
    channel.registerObject("host", host)
    page.setWebChannel(channel, QWebEngineScript.ScriptWorldId.ApplicationWorld)
    script = QWebEngineScript()
    script.setName("mcp-lens-relay")
    script.setSourceCode(relay_script())
    script.setWorldId(QWebEngineScript.ScriptWorldId.ApplicationWorld)
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentReady)
    script.setRunsOnSubFrames(False)
    page.scripts().insert(script)
    return channel
