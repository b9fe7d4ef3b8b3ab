"""Keep Qt's known harmless start-up chatter off stderr, so what is left there is worth reading.

Without it every start prints QtMultimedia's probes for optional libraries (pipewire, VA-API),
FFmpeg's banner and its dump of each loaded audio stream (naming the player's source hint as a file
in the working directory), PulseAudio's "no sound server", and the offscreen platform's
"propagateSizeHints" warnings. A user who sets ``QT_LOGGING_RULES`` gets Qt's full output instead.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping
from typing import Any

from PySide6.QtCore import QMessageLogContext, QtMsgType, qFormatLogMessage, qInstallMessageHandler

RULES_ENV = "QT_LOGGING_RULES"
QUIET_RULES = (
    "qt.multimedia.ffmpeg*.info=false",  # the FFmpeg banner and av_dump_format of every stream
    "qt.multimedia.symbolsresolver.warning=false",  # optional libraries (pipewire, VA-API) not installed
)
# Uncategorised warnings about the environment that the app handles itself (it says so where it matters).
HARMLESS = (
    "This plugin does not support propagateSizeHints()",  # the offscreen platform (--self-test)
    "PulseAudioService: pa_context_connect() failed",  # no sound server: audio blocks say so
)


def quiet_qt_logging(environ: MutableMapping[str, str] = os.environ) -> bool:
    """Before the QApplication: silence the noisy categories unless the user set logging rules; True if set."""
    if RULES_ENV in environ:
        return False
    environ[RULES_ENV] = ";".join(QUIET_RULES)
    return True


def drop_harmless(message: str) -> bool:
    return message.strip() in HARMLESS


class MessageFilter:
    """A Qt message handler that drops `HARMLESS` lines and formats the rest as Qt would."""

    def __init__(self) -> None:
        self.previous: Any = None
        self.installed = False

    def __call__(self, mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if drop_harmless(message):
            return
        if self.previous is not None:
            self.previous(mode, context, message)
            return
        sys.stderr.write(qFormatLogMessage(mode, context, message) + "\n")
        sys.stderr.flush()

    def install(self) -> None:
        self.previous = qInstallMessageHandler(self)
        self.installed = True

    def uninstall(self) -> None:
        """Give Qt back its previous handler (before the interpreter shuts down)."""
        if self.installed:
            qInstallMessageHandler(self.previous)
            self.installed = False


def quiet_start() -> MessageFilter | None:
    """What `main()` calls before creating the QApplication; the installed filter, if any."""
    if not quiet_qt_logging():
        return None
    handler = MessageFilter()
    handler.install()
    return handler
