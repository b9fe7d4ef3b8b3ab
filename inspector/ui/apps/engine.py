"""Whether Qt WebEngine can run here, and its start-up duties (before the QApplication exists).

WebEngine is an optional extra (`mcp-lens[apps]`). When it is missing, or would abort the process
(Chromium exits at once when run as root with its sandbox on, and MCP Lens never turns the sandbox
off), the App view says why and shows the interface's HTML as text instead.
"""

from __future__ import annotations

import os

SCHEME = b"mcplens-app"  # the host page each app runs inside is served from this scheme
SANDBOX_OFF = "QTWEBENGINE_DISABLE_SANDBOX"  # set by tests run as root, never by the app


def webengine_missing() -> str | None:
    """Why the WebEngine modules cannot be imported (None when they can)."""
    try:
        import PySide6.QtWebChannel
        import PySide6.QtWebEngineCore
        import PySide6.QtWebEngineWidgets  # noqa: F401
    except ImportError as exc:
        return f"Qt WebEngine is not installed ({exc}); install MCP Lens with the [apps] extra to run apps"
    return None


def sandbox_refusal() -> str | None:
    """Why Chromium would refuse to start (None when it will): as root, with its sandbox on, it exits
    the whole process, so the view must never start it then."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    flags = os.environ.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
    if os.environ.get(SANDBOX_OFF) == "1" or "--no-sandbox" in flags.split():
        return None
    return (
        "MCP Lens is running as root: Chromium's sandbox does not run as root and MCP Lens never turns it off, "
        "so Qt WebEngine is not started; run MCP Lens as an ordinary user to see apps"
    )


def unavailable_reason() -> str | None:
    """Why apps cannot be rendered here, in words (None when they can). Tests may replace this."""
    return webengine_missing() or sandbox_refusal()


def prepare_webengine() -> bool:
    """Start-up duties before the QApplication is created: import QtWebEngineWidgets (it shares the
    OpenGL contexts) and register our host page's URL scheme. False when WebEngine is not installed."""
    try:
        from PySide6.QtWebEngineCore import QWebEngineUrlScheme
        from PySide6.QtWebEngineWidgets import QWebEngineView  # noqa: F401 - sets AA_ShareOpenGLContexts
    except ImportError:
        return False
    if QWebEngineUrlScheme.schemeByName(SCHEME).name() != SCHEME:
        scheme = QWebEngineUrlScheme(SCHEME)
        scheme.setSyntax(QWebEngineUrlScheme.Syntax.Host)
        scheme.setFlags(QWebEngineUrlScheme.Flag.SecureScheme)
        QWebEngineUrlScheme.registerScheme(scheme)
    return True
