"""Server icons in the app as launched (issue 13 point 8): tools, resources, templates, prompts and the
server show their icons; a hostile SVG draws without reaching the network; a remote icon waits for the
user's permission. `tests/servers/icon_server.py` serves the icons; a loopback http "probe" server is
where every external reference points, and must see no request."""

from __future__ import annotations

import http.server
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from lens_support import REPO
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon
from PySide6.QtWidgets import QAbstractItemView, QLabel

from inspector.ui.widgets.icon_images import IconSource

ICON_SERVER = [sys.executable, str(REPO / "tests/servers/icon_server.py")]
RED, BLUE, GREEN = QColor(255, 0, 0), QColor(0, 0, 255), QColor(0, 255, 0)


@contextmanager
def probe() -> Iterator[tuple[str, list[str]]]:
    """A loopback http server recording every request; yields its base URL and the paths asked for."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", hits
    finally:
        server.shutdown()
        server.server_close()


def row_icon(lens, view_name: str, text: str) -> QIcon | None:
    """The icon drawn beside the row whose first column shows `text` (None when there is none)."""
    view = lens.find(view_name, QAbstractItemView)
    model = view.model()
    lens.wait(lambda: any(text in str(model.index(r, 0).data()) for r in range(model.rowCount())), what=text)
    row = next(r for r in range(model.rowCount()) if text in str(model.index(r, 0).data()))
    found = model.index(row, 0).data(Qt.ItemDataRole.DecorationRole)
    return found if isinstance(found, QIcon) and not found.isNull() else None


def centre(icon: QIcon | None) -> QColor | None:
    if icon is None:
        return None
    image = icon.pixmap(16, 16).toImage()
    return image.pixelColor(image.width() // 2, image.height() // 2).toRgb()


def test_the_tools_list_shows_each_tools_icon_and_a_hostile_svg_reaches_nothing(lens) -> None:
    with probe() as (url, hits):
        lens.start("--", *ICON_SERVER, url)
        assert centre(row_icon(lens, "Tool list", "red_png")) == RED
        assert centre(row_icon(lens, "Tool list", "blue_svg")) == BLUE
        assert centre(row_icon(lens, "Tool list", "hostile_svg")) == GREEN  # drawn, with its tricks removed
        for plain in ("remote_icon", "plain_http", "no_icon"):
            assert row_icon(lens, "Tool list", plain) is None, plain

        lens.click_item("Tool list", "hostile_svg")
        header = lens.find("Tool icon", QLabel)
        lens.wait(lambda: header.isVisible() and not header.pixmap().isNull(), what="the header's icon")
        assert header.pixmap().width() >= 32
        lens.click_item("Tool list", "red_png")
        lens.wait(lambda: header.pixmap().toImage().pixelColor(16, 16).toRgb() == RED, what="red in the header")
        lens.click_item("Tool list", "no_icon")
        lens.wait(lambda: not header.isVisible(), what="no icon for a tool without one")

        lens.qtbot.wait(500)  # time for any request the SVG might have started
        assert hits == []


def test_resources_templates_prompts_and_the_server_show_their_icons(lens) -> None:
    lens.start("--", *ICON_SERVER)
    server_icon = lens.find("Server icon", QLabel)
    lens.wait(lambda: server_icon.isVisible() and not server_icon.pixmap().isNull(), what="the server's icon")
    image = server_icon.pixmap().toImage()
    assert image.pixelColor(image.width() // 2, image.height() // 2).toRgb() == BLUE
    lens.tab("Resources")
    assert centre(row_icon(lens, "Resource list", "red_resource")) == RED
    assert centre(row_icon(lens, "Template list", "shade_template")) == BLUE
    lens.tab("Prompts")
    assert centre(row_icon(lens, "Prompt list", "red_prompt")) == RED


def test_a_remote_icon_is_fetched_only_after_the_user_allows_it(lens) -> None:
    with probe() as (url, hits):
        lens.start("--", *ICON_SERVER, url)
        lens.wait_text("icons.invalid")  # the question names the host
        assert lens.shows("This server's icons are on the web (1 host: icons.invalid). Load them?")
        source = IconSource.of(lens.window.session)
        row_icon(lens, "Tool list", "remote_icon")
        lens.qtbot.wait(200)
        assert source.remote.fetched == []

        lens.click("Load remote icons")
        lens.wait(lambda: source.remote.fetched == ["https://icons.invalid/remote.png"], what="the fetch")
        lens.wait(lambda: not lens.has("Load remote icons"), what="the question goes away")
        assert row_icon(lens, "Tool list", "plain_http") is None  # http is never fetched, allowed or not
        lens.qtbot.wait(300)
        assert hits == []


def test_the_demo_tools_show_icons(lens) -> None:
    lens.start()
    view = lens.find("Tool list", QAbstractItemView)
    model = view.model()
    lens.wait(lambda: model.rowCount() > 0, what="the demo's tools")
    with_icons = [
        model.index(r, 0).data()
        for r in range(model.rowCount())
        if isinstance(model.index(r, 0).data(Qt.ItemDataRole.DecorationRole), QIcon)
    ]
    assert with_icons, "no demo tool shows an icon"
