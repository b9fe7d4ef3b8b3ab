"""The Resources tab in the real window against the demo server and server-everything."""

from __future__ import annotations

import dataclasses

import pytest
from lens_support import EVERYTHING
from PySide6.QtCore import QSettings, Qt
from ui_support import DEMO_PROFILE, connect, dark_palette, screenshot

from inspector.config.profile import ServerProfile
from inspector.traffic.entry import Kind
from inspector.ui.listings.resources_tab import ResourcesTab
from inspector.ui.main_window import MainWindow
from inspector.ui.results import AudioBlockWidget, EmbeddedResourceWidget, ImageBlockWidget

EVERYTHING_PROFILE = ServerProfile(name="everything", transport="stdio", command="node", args=[str(EVERYTHING)])


def open_tab(qtbot, window: MainWindow, profile=None) -> ResourcesTab:
    connect(qtbot, window, *([profile] if profile else []))
    tab = window.resources_tab
    assert window.tabs.indexOf(tab) == 1 and window.tabs.tabText(1) == "Resources"
    assert window.tabs.tabText(2) == "Prompts"
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.listings >= 1, timeout=10000)
    return tab


def read(qtbot, tab: ResourcesTab, uri: str) -> None:
    tab.read_current()
    qtbot.waitUntil(lambda: tab.view.uri == uri and tab.view.state in ("ok", "tool_error", "protocol_error"))


def test_read_resources_and_an_expanded_template(qtbot, qapp, window: MainWindow) -> None:
    saved = qapp.palette()
    qapp.setPalette(dark_palette())  # the highlighters pick their colours from the palette
    try:
        tab = open_tab(qtbot, window)
        assert tab.resources.select("uri", "demo://data/settings.json")
        read(qtbot, tab, "demo://data/settings.json")
        (block,) = tab.view.blocks
        assert isinstance(block, EmbeddedResourceWidget) and block.pane.is_json
        assert '"theme": "dark"' in block.pane.text()

        assert tab.resources.select("uri", "demo://images/gradient.png")
        read(qtbot, tab, "demo://images/gradient.png")
        (image,) = tab.view.blocks
        assert isinstance(image, ImageBlockWidget) and image.viewer.image_size == (64, 64)

        assert tab.resources.select("uri", "demo://audio/a440.wav")
        read(qtbot, tab, "demo://audio/a440.wav")
        (audio,) = tab.view.blocks
        assert isinstance(audio, AudioBlockWidget)
        qtbot.waitUntil(lambda: 900 <= (audio.duration_ms or 0) <= 1100, timeout=10000)

        tab.filter.setText("demo://notes")  # the demo's three notes (its skills' files are resources too)
        assert tab.resources.heading.text().startswith("Resources (3 of ")
        tab.filter.clear()

        assert tab.templates.select("uriTemplate", "demo://notes/{note_id}")
        assert tab.form is not None and tab.read_button.isEnabled() is True  # empty: {note_id} drops out
        edit = tab.completers["note_id"].edit
        edit.setFocus()
        qtbot.keyClicks(edit, "gr")
        qtbot.waitUntil(lambda: tab.completers["note_id"].suggestions() == ["groceries"], timeout=5000)
        popup = tab.completers["note_id"].completer.popup()
        qtbot.keyClick(popup, Qt.Key.Key_Down)  # highlighted, then Escape: the field keeps what it shows
        qtbot.keyClick(popup, Qt.Key.Key_Escape)
        assert edit.text() == "groceries" and tab.expanded.text() == "URI: demo://notes/groceries"
        tab.form.set_arguments({"note_id": "ideas"})
        assert tab.expanded.text() == "URI: demo://notes/ideas"
        qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # the Read shortcut
        qtbot.waitUntil(lambda: tab.view.uri == "demo://notes/ideas" and tab.view.state == "ok", timeout=5000)
        (note,) = tab.view.blocks
        assert "Render every content type" in note.pane.text()
        assert "highlighted as Markdown" in note.detail_label.text()
        window.setPalette(dark_palette())
        qtbot.wait(100)
        screenshot(tab, "resources_template.png")
        command = tab.cli_command()
        assert command is not None and command.startswith("mcp-lens --cli ")
        assert "--method resources/read --uri demo://notes/ideas -- " in command

        tab.form.set_arguments({"note_id": "nope"})
        read(qtbot, tab, "demo://notes/nope")
        assert tab.view.state == "protocol_error" and "nope" in tab.view.detail_label.text()

        assert tab.resources.select("uri", "demo://docs/guide")
        read(qtbot, tab, "demo://docs/guide")
        window.setPalette(dark_palette())
        qtbot.wait(200)
        screenshot(tab, "resources_tab.png")
    finally:
        qapp.setPalette(saved)


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_subscribe_sees_updates_and_rereads(qtbot, window: MainWindow, era: str) -> None:
    """One Subscribe button: the listen stream when the demo speaks 2026-07-28, resources/subscribe in legacy."""
    tab = open_tab(qtbot, window, dataclasses.replace(DEMO_PROFILE, protocol_era=era))
    uri = "demo://live/counter"
    assert tab.resources.select("uri", uri)
    assert tab.auto_reread.isChecked()
    assert tab.subscribe_button.isEnabled()
    tab.subscribe_button.click()
    qtbot.waitUntil(lambda: uri in tab.subscribed, timeout=5000)
    assert tab.subscribe_button.isChecked() and tab.resources.current_text(1) == "●"
    qtbot.waitUntil(lambda: tab.updates.get(uri, (0,))[0] >= 2, timeout=8000)
    qtbot.waitUntil(lambda: "(update " in tab.view.detail_label.text(), timeout=5000)
    first = tab.view.blocks[0].pane.text()
    assert first.startswith("tick ") and "updates, last at" in tab.updates_label.text()  # two or more
    updates = [e for e in window.store if e.method == "notifications/resources/updated"]
    assert updates and all(e.parsed()["params"]["uri"] == uri for e in updates)
    wanted = ("subscriptions/listen", "resources/subscribe")
    sent = [e.parsed()["params"] for e in window.store if e.kind is Kind.REQUEST and e.method in wanted]
    if era == "modern":
        assert "listen" in tab.subscribe_button.toolTip()
        assert "Now: listening for tools, prompts, resources list changes and 1 resource" in (
            tab.subscribe_button.toolTip()
        )
        assert sent[-1]["notifications"]["resourceSubscriptions"] == [uri]
        assert not [e for e in window.store if e.method == "resources/subscribe"]
        listen_line = next(e for e in window.store if e.kind is Kind.REQUEST and e.seq == updates[-1].peer_seq)
        assert listen_line.method == "subscriptions/listen" and listen_line.status == "listening"
    else:
        assert sent == [{"uri": uri}]
        assert not [e for e in window.store if e.method == "subscriptions/listen"]

    tab.subscribe_button.click()
    qtbot.waitUntil(lambda: uri not in tab.subscribed, timeout=5000)
    count = tab.updates[uri][0]
    qtbot.wait(1500)
    assert tab.updates[uri][0] == count, "no updates after unsubscribing"
    assert tab.subscribe_button.text() == "Subscribe"


def test_list_changed_relists(qtbot, window: MainWindow) -> None:
    tab = open_tab(qtbot, window)
    before = tab.listings
    assert any(r["uri"] == "demo://notes/groceries" for r in tab.resources.items)
    window.session.call_tool("delete_note", {"note_id": "groceries"}, timeout=10, max_total=None)
    qtbot.waitUntil(lambda: tab.listings > before, timeout=8000)
    assert not any(r["uri"] == "demo://notes/groceries" for r in tab.resources.items)


def test_everything_blob_template_and_completion(qtbot, window: MainWindow, everything: str) -> None:
    tab = open_tab(qtbot, window, EVERYTHING_PROFILE)
    assert tab.templates.select("uriTemplate", "demo://resource/dynamic/blob/{resourceId}")
    tab.form.set_arguments({"resourceId": "5"})
    read(qtbot, tab, "demo://resource/dynamic/blob/5")
    (block,) = tab.view.blocks
    assert isinstance(block, EmbeddedResourceWidget) and block.saveable_bytes()
    assert tab.templates.select("uriTemplate", "demo://resource/dynamic/text/{resourceId}")
    completer = tab.completers["resourceId"]
    completer.edit.setText("12")
    completer.fetch_now()
    qtbot.waitUntil(lambda: completer.requests >= 1 and completer.last_error is None and not completer.tasks.busy)
    tab.form.set_arguments({"resourceId": "12"})
    read(qtbot, tab, "demo://resource/dynamic/text/12")
    assert "Resource 12" in tab.view.blocks[0].pane.text()


def test_item_list_filters_and_relists_ten_thousand_items_quickly(qtbot) -> None:
    import time

    from inspector.ui.listings.resources_tab import _resource_row
    from inspector.ui.widgets.item_list import ItemList

    items = [{"uri": f"file:///x/{i}.txt", "name": f"file {i}"} for i in range(10_000)]
    items.insert(5, "not an object")
    listing = ItemList("Resources", ("Name", "●", "URI"))
    qtbot.addWidget(listing)
    listing.show()
    started = time.perf_counter()
    listing.set_items(items, _resource_row)
    assert listing.select("uri", "file:///x/199.txt")
    listing.apply_filter("99")
    assert listing.heading.text() == "Resources (280 of 10000)"
    # What keeps it fast: the model filters (280 rows), the view hides none (a QTreeWidget hiding 9,720
    # rows took ~5 s to re-list). The time is printed, not asserted: it measures the machine.
    assert listing.tree.model().rowCount() == 280
    listing.set_items(items, _resource_row, keep=lambda item: item.get("uri"))
    listing.apply_filter("")
    elapsed = time.perf_counter() - started
    assert listing.current()["uri"] == "file:///x/199.txt", "the chosen item survives filter and re-listing"
    assert listing.tree.currentIndex().row() == 199
    print(f"10,000 items listed, filtered and re-listed in {elapsed:.2f} s")


def test_splitters_are_remembered(qtbot, window: MainWindow) -> None:
    tab = window.resources_tab
    window.tabs.setCurrentWidget(tab)
    tab.split.moveSplitter(300, 1)  # as a drag would; emits splitterMoved
    fresh = ResourcesTab(
        window.session, QSettings(str(window.settings.fileName()) + ".other", QSettings.Format.IniFormat)
    )
    again = ResourcesTab(window.session, window.settings)
    for widget in (fresh, again):
        qtbot.addWidget(widget)
    assert again.split.saveState() == tab.split.saveState()
    assert fresh.split.saveState() != tab.split.saveState(), "a test that cannot fail is a defect"
