"""A server's icons as Qt images, and the window's `IconSource` that the lists and headers ask for them.

Raster icons are read with `QImageReader` only after their declared size is checked (at most
`MAX_SIDE` pixels a side); SVG goes through `core.icon_svg.sanitize_svg` before `QSvgRenderer` sees it
(the renderer fetches nothing over the network, but it does read an `<image>` whose href is a local
file path, and it runs no script only because it has no engine: the sanitiser removes all of that).
Remote (https) icons are fetched only when the server's profile allows it (`load_remote_icons`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QIcon, QImage, QImageReader, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer

from inspector.config.store import ProfileStore
from inspector.core.icon_fetch import RemoteIcons
from inspector.core.icon_svg import sanitize_svg
from inspector.core.icons import IconBytes, IconRefused, decode_data_url, icons_of, never_fetched, rank, remote_hosts
from inspector.core.public_address import literal_refusal
from inspector.ui.widgets.async_tasks import TaskSet

MAX_SIDE = 1024  # a raster icon larger than this on either side is not decoded
SIDES = (16, 18, 32)  # what the window draws: list rows, tool rows, the tool header


def svg_image(data: bytes, side: int) -> QImage | None:
    """The sanitised SVG drawn into a transparent `side`×`side` image (aspect kept), or None."""
    try:
        clean = sanitize_svg(data)
    except IconRefused:
        return None
    renderer = QSvgRenderer(QByteArray(clean))
    if not renderer.isValid():
        return None
    renderer.setAspectRatioMode(Qt.AspectRatioMode.KeepAspectRatio)
    image = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def raster_image(data: bytes, kind: str, side: int) -> QImage | None:
    """A PNG, JPEG, GIF (first frame) or WebP scaled to fit `side`, or None when it is larger than
    `MAX_SIDE` a side, says no size, or does not decode."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer, QByteArray(kind.encode()))
    size = reader.size()
    if not size.isValid() or size.width() > MAX_SIDE or size.height() > MAX_SIDE or size.isEmpty():
        return None
    image = reader.read()
    buffer.close()
    if image.isNull():
        return None
    return image.scaled(side, side, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)


def image_from_bytes(icon: IconBytes, side: int) -> QImage | None:
    """The icon drawn at `side` pixels (device pixels), or None when it is not one we draw."""
    return svg_image(icon.data, side) if icon.kind == "svg" else raster_image(icon.data, icon.kind, side)


def palette_theme() -> str:
    """ "dark" when the window's background is dark (icons for dark backgrounds fit), else "light"."""
    app = QGuiApplication.instance()
    lightness = QGuiApplication.palette().window().color().lightness() if app is not None else 255
    return "dark" if lightness < 128 else "light"


class IconSource(QObject):
    """The icons of one session's server, drawn on demand and cached. `IconSource.of(session)` is the one
    for a `SessionController`. Lists call `note(kind, items)` with what they show (the remote hosts are
    collected for the permission prompt) and redraw on `changed` (a remote icon arrived, or the user
    allowed remote icons)."""

    changed = Signal()
    hostsChanged = Signal()

    def __init__(self, session: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("iconSource")
        self.session = session
        self.remote = RemoteIcons()
        self.tasks = TaskSet(self)
        self._images: dict[tuple[str, int], QIcon | None] = {}
        self._hosts: dict[str, list[str]] = {}
        self._never: dict[str, list[str]] = {}  # per kind: one word per icon on a loopback or private host
        self._asked: set[str] = set()  # remote URLs whose fetch was started
        state_changed = getattr(session, "stateChanged", None)
        if state_changed is not None:
            state_changed.connect(lambda state, _detail: self.forget() if state == "connecting" else None)

    @classmethod
    def of(cls, session: QObject) -> IconSource:
        """The session's icon source (made the first time, a child of the session)."""
        found = session.findChild(IconSource, "iconSource", Qt.FindChildOption.FindDirectChildrenOnly)
        return found if found is not None else cls(session, session)

    # -- the permission ----------------------------------------------------------------------
    @property
    def allowed(self) -> bool:
        profile = getattr(self.session, "profile", None)
        return bool(getattr(profile, "load_remote_icons", False))

    def allow_remote(self, store: ProfileStore | None = None) -> str:
        """Allow this server's remote icons, remembered in its saved profile; "" or why it was not saved."""
        profile = getattr(self.session, "profile", None)
        if profile is None:
            return "not connected"
        profile.load_remote_icons = True
        problem = ""
        if store is not None and profile.name in store:
            store.get(profile.name).load_remote_icons = True
            try:
                store.save()
            except Exception as exc:  # a profile file we may not write: allowed for this session only
                problem = f"allowed for this session; not saved: {exc}"
        self._images = {key: icon for key, icon in self._images.items() if icon is not None}
        self.changed.emit()
        return problem

    # -- what the window shows ----------------------------------------------------------------
    def note(self, kind: str, items: Iterable[Any]) -> None:
        """Remember the remote icon hosts of what a list shows (`kind`: "tools", "resources", …)."""
        items = list(items)
        hosts, never = remote_hosts(items), never_fetched(items)
        if self._hosts.get(kind, []) != hosts or self._never.get(kind, []) != never:
            self._hosts[kind], self._never[kind] = hosts, never
            self.hostsChanged.emit()

    def forget(self) -> None:
        """A new connection: the hosts noted so far belong to the last one."""
        if self._hosts or self._never:
            self._hosts, self._never = {}, {}
            self.hostsChanged.emit()

    def hosts(self) -> list[str]:
        """Every remote icon host noted, sorted."""
        return sorted({host for hosts in self._hosts.values() for host in hosts})

    def never(self) -> list[str]:
        """One word per icon noted on an address never contacted ("loopback", "private", …)."""
        return [kind for kinds in self._never.values() for kind in kinds]

    def refused(self) -> dict[str, str]:
        """The remote icons fetched and refused (after resolution, or by what answered): URL → why."""
        return self.remote.refusals()

    def icon(self, item: Any, side: int = 16) -> QIcon | None:
        """The best icon of `item` (a dict with `icons`) we can show now at `side` pixels; starts the fetch
        of an allowed remote one (`changed` follows)."""
        for candidate in rank(icons_of(item), size=side, theme=palette_theme()):
            key = (candidate.src, side)
            if key in self._images:
                if self._images[key] is not None:
                    return self._images[key]
                continue
            if candidate.scheme == "data":
                try:
                    found = self._draw(decode_data_url(candidate.src), side)
                except IconRefused:
                    found = None
            elif not self.allowed or literal_refusal(urlsplit(candidate.src).hostname or ""):
                continue  # not allowed, or on an address never contacted (said in the status panel)
            else:
                outcome = self.remote.get(candidate.src)
                if outcome is None:
                    self._fetch(candidate.src)
                    continue
                found = self._draw(outcome, side) if isinstance(outcome, IconBytes) else None
            self._images[key] = found
            if found is not None:
                return found
        return None

    def _draw(self, icon: IconBytes, side: int) -> QIcon | None:
        app = QGuiApplication.instance()
        ratio = max(1.0, app.devicePixelRatio()) if isinstance(app, QGuiApplication) else 1.0
        image = image_from_bytes(icon, round(side * ratio))
        if image is None:
            return None
        pixmap = QPixmap.fromImage(image)
        pixmap.setDevicePixelRatio(ratio)
        return QIcon(pixmap)

    def _fetch(self, url: str) -> None:
        if url in self._asked:
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # no running loop (a widget test drawing without one): remote icons stay unfetched
        self._asked.add(url)
        self.tasks.start(self.remote.load(url), lambda _outcome: self.changed.emit())
