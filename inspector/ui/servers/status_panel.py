"""What was negotiated with the server: state, protocol era and version and how they were reached, the
discover result (supported versions), server info, capabilities, instructions."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from inspector.config.store import ProfileStore
from inspector.content.visible import visible
from inspector.core.client_handlers import APP_CAPABILITIES, SKILLS_EXTENSION, app_note
from inspector.core.errors import describe_failure
from inspector.ui.widgets.icon_images import IconSource
from inspector.ui.widgets.plain_text import plain_tooltip, safe_tooltip, set_plain
from inspector.words import counted, first_line

if TYPE_CHECKING:
    from inspector.core.operations import Operations

ICON_SIDE = 20  # the server's icon beside its name
MAX_HOSTS_SHOWN = 5


def _label(object_name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # server-controlled text is never rich text
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def describe_capabilities(capabilities: dict[str, Any]) -> str:
    parts = []
    for name in sorted(capabilities):
        value = capabilities[name]
        flags = [k for k, v in value.items() if v is True] if isinstance(value, dict) else []
        parts.append(f"{name} ({', '.join(flags)})" if flags else name)
    return ", ".join(parts) or "none"


def protocol_text(negotiation: Any, version: str | None) -> str:
    """``modern 2026-07-28`` / ``legacy 2025-11-25``: the era and the version in use."""
    if negotiation is None:
        return version or "—"
    return f"{negotiation.era} {negotiation.version or version or '?'}"


def negotiation_text(negotiation: Any) -> str:
    """How the era was reached (the setting, the probe and its cost) and any notes, as plain lines."""
    if negotiation is None:
        return "—"
    setting = negotiation.setting
    described = negotiation.describe()
    how = described.partition(" (")[2].rstrip(")") if " (" in described else ""
    if setting == "legacy":
        how = "legacy: initialize handshake, no probe"
    elif setting == "modern":
        how = "modern: server/discover, no handshake"
    elif how == "pinned":
        way = "server/discover" if negotiation.era == "modern" else "initialize"
        how = f"pinned to {setting}: {way}, no fallback"
    elif not how:
        how = f"{setting}: {'server/discover' if negotiation.era == 'modern' else 'initialize'}"
    notes = list(negotiation.notes)
    if (
        negotiation.probe_outcome == "unanswered"
    ):  # the core's note is long for a sidebar: its gist (full in the tooltip)
        notes = [n for n in notes if "did not answer server/discover" not in n]
        notes.insert(0, "remembered: next time auto starts with initialize, without the wait")
    return "\n".join(_sentence(line) for line in [how, *notes])  # one sentence a line: wrapped, they still read apart


def _sentence(line: str) -> str:
    line = line.strip()
    return line if not line or line.endswith((".", "?", "!")) else f"{line}."


def supported_text(negotiation: Any) -> str:
    """The versions the server's discover result lists; for a handshake, says there was none."""
    discover = getattr(negotiation, "discover", None)
    if not isinstance(discover, dict):
        return "— (initialize handshake: the server lists no versions)"
    versions = discover.get("supportedVersions")
    if not isinstance(versions, list) or not versions:
        return "none listed"
    return ", ".join(str(v) for v in versions)


def ping_text(outcome: Any) -> str:
    """The status bar's line for a Server › Ping: the round trip, or what went wrong."""
    if isinstance(outcome, int | float):
        return f"Ping: {outcome:.1f} ms round trip"
    failure = describe_failure(outcome)
    return f"Ping failed: {failure.title} — {first_line(failure.detail) if failure.detail else ''}".rstrip(" —")


def remote_question(hosts: list[str]) -> str:
    """The question asked before any of the server's icons is fetched from the web."""
    shown = ", ".join(hosts[:MAX_HOSTS_SHOWN]) + (", …" if len(hosts) > MAX_HOSTS_SHOWN else "")
    count = f"{len(hosts)} host{'s' if len(hosts) != 1 else ''}"
    return f"This server's icons are on the web ({count}: {shown}). Load them?"


def never_note(kinds: list[str]) -> str:
    """What is said of the icons on addresses never contacted (the words of `literal_refusal`)."""
    verb = "is" if len(kinds) == 1 else "are"
    return (
        f"{counted(len(kinds), 'icon')} {verb} on addresses MCP Lens never fetches from "
        f"({', '.join(sorted(set(kinds)))}): not loaded"
    )


def refused_note(refused: dict[str, str]) -> str:
    """What is said of remote icons whose fetch was refused: how many, and the first reason."""
    reason = next(iter(refused.values())).removeprefix("the icon is not fetched: ")
    return f"{counted(len(refused), 'icon')} not loaded: {reason}"


class StatusPanel(QWidget):
    """Shown under the server list; empty fields read "—". `profiles` remembers a server's permission to
    load its remote icons."""

    def __init__(self, profiles: ProfileStore | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profiles = profiles
        self.icons: IconSource | None = None
        self.state = _label("connectionState")
        self.server = _label("serverInfo")
        self.server_icon = QLabel()
        self.server_icon.setAccessibleName("Server icon")
        self.server_icon.setFixedSize(ICON_SIDE, ICON_SIDE)
        self.server_icon.hide()
        self.remote_note = _label("remoteIcons")
        self.load_remote = QPushButton("Load remote icons")
        self.load_remote.setAccessibleName("Load remote icons")
        self.load_remote.setToolTip("Fetch this server's https icons from the hosts named (remembered for the server)")
        self.load_remote.clicked.connect(self._allow_remote)
        self.protocol = _label("protocolVersion")
        self.negotiation = _label("negotiation")
        self.supported = _label("supportedVersions")
        self.capabilities = _label("capabilities")
        # What this app declares (it answers them); the CLI declares fewer, and both say so.
        self.client = _label("clientCapabilities")
        set_plain(self.client, f"{', '.join(APP_CAPABILITIES)} (--cli: fewer); extension {SKILLS_EXTENSION}")
        self.client.setToolTip(safe_tooltip(app_note()))
        for label, name in (
            (self.state, "Connection state"),
            (self.server, "Server name and version"),
            (self.protocol, "Protocol era and version"),
            (self.negotiation, "How the era was reached"),
            (self.supported, "Supported versions"),
            (self.capabilities, "Server capabilities"),
            (self.client, "Client capabilities"),
        ):
            label.setAccessibleName(name)
        self.instructions = QPlainTextEdit(readOnly=True)
        self.instructions.setObjectName("instructions")
        self.instructions.setAccessibleName("Server instructions")
        self.instructions.setPlaceholderText("The server sent no instructions.")
        self.instructions.setMinimumHeight(40)  # a few lines: the sidebar stays short enough for a small window
        form = QFormLayout()
        form.addRow("State", self.state)
        server_row = QHBoxLayout()
        server_row.addWidget(self.server_icon, 0, Qt.AlignmentFlag.AlignTop)
        server_row.addWidget(self.server, 1)
        form.addRow("Server", server_row)
        form.addRow("Protocol", self.protocol)
        form.addRow("How", self.negotiation)
        form.addRow("Versions", self.supported)
        form.addRow("Capabilities", self.capabilities)
        form.addRow("We declare", self.client)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(form)
        remote_row = QHBoxLayout()
        remote_row.addWidget(self.remote_note, 1)
        remote_row.addWidget(self.load_remote, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(remote_row)
        layout.addWidget(QLabel("Instructions"))
        layout.addWidget(self.instructions, 1)
        self.show_state("disconnected", "not connected")

    def show_state(self, state: str, detail: str) -> None:
        if state == "connected":  # "connected to NAME: <era>": the era has its own rows below
            detail = detail.split(": ", 1)[0]
        set_plain(self.state, detail or state)
        self.state.setProperty("state", state)
        if state != "connected":
            self.show_connection(None)

    def show_connection(self, conn: Operations | None) -> None:
        """What `conn` negotiated (the session, once connected: server_info, protocol_version, capabilities,
        instructions); None clears the fields."""
        if conn is None:
            for label in (self.server, self.protocol, self.negotiation, self.supported, self.capabilities):
                label.setText("—")
                label.setToolTip("")
            self.instructions.setPlainText("")
            self._watch_icons(None)
            return
        info = conn.server_info
        title = f" — {info['title']}" if info.get("title") else ""
        set_plain(self.server, f"{info.get('name', '?')} {info.get('version', '')}".strip() + title)
        negotiation = getattr(conn, "negotiation", None)
        if negotiation is not None and self.state.property("state") == "connected":
            # the rows below say how the era was reached: the state line keeps to one line
            set_plain(self.state, self.state.text().replace(f" ({negotiation.describe()})", ""))
        set_plain(self.protocol, protocol_text(negotiation, conn.protocol_version))
        set_plain(self.negotiation, negotiation_text(negotiation))
        self.negotiation.setToolTip(safe_tooltip("\n".join(negotiation.notes)) if negotiation is not None else "")
        set_plain(self.supported, supported_text(negotiation))
        discover = getattr(negotiation, "discover", None)
        self.supported.setToolTip(safe_tooltip(json.dumps(discover, indent=2)) if isinstance(discover, dict) else "")
        set_plain(self.capabilities, describe_capabilities(conn.capabilities))
        self.capabilities.setToolTip(safe_tooltip(json.dumps(conn.capabilities, indent=2)))
        self.instructions.setPlainText(visible(conn.instructions or ""))
        self._watch_icons(IconSource.of(conn) if isinstance(conn, QObject) else None)
        if self.icons is not None:
            self.icons.note("server", [info])

    # -- icons -------------------------------------------------------------------------------
    def _watch_icons(self, icons: IconSource | None) -> None:
        if icons is not self.icons:
            if self.icons is not None:
                self.icons.changed.disconnect(self._show_icons)
                self.icons.hostsChanged.disconnect(self._show_icons)
            self.icons = icons
            if icons is not None:
                icons.changed.connect(self._show_icons)
                icons.hostsChanged.connect(self._show_icons)
        self._show_icons()

    def _show_icons(self) -> None:
        """The server's icon, and the question about remote icons while they are not allowed."""
        icons = self.icons
        live = icons is not None and getattr(icons.session, "live", False)
        found = icons.icon(icons.session.server_info, ICON_SIDE) if icons is not None and live else None
        self.server_icon.setPixmap(found.pixmap(ICON_SIDE, ICON_SIDE) if found is not None else QPixmap())
        self.server_icon.setVisible(found is not None)
        hosts = icons.hosts() if icons is not None and live and not icons.allowed else []
        never = icons.never() if icons is not None and live else []
        refused = icons.refused() if icons is not None and live and icons.allowed else {}
        said = [remote_question(hosts) if hosts else "", never_note(never) if never else ""]
        said.append(refused_note(refused) if refused else "")
        set_plain(self.remote_note, " ".join(part for part in said if part))
        details = "\n".join(f"{url}: {why}" for url, why in refused.items())
        self.remote_note.setToolTip(plain_tooltip("Remote icons not loaded", details) if refused else "")
        self.remote_note.setVisible(any(said))
        self.load_remote.setVisible(bool(hosts))

    def _allow_remote(self) -> None:
        if self.icons is None:
            return
        problem = self.icons.allow_remote(self.profiles)
        if problem:
            set_plain(self.remote_note, problem)
            self.remote_note.show()
