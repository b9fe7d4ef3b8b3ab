"""The window fits a small screen: no tab, sidebar or dock page makes it wider than 800 px once shown."""

from __future__ import annotations

from ui_support import connect, screenshot

from inspector.ui.budget.pickers import CUSTOM
from inspector.ui.main_window import MainWindow

MAX_WINDOW = 800
MAX_HEIGHT = 700  # test_window_state_is_remembered resizes the window to 795×701 on an 800×800 screen
MAX_PAGE = 520  # a central page wider than this pushes the window past MAX_WINDOW with the sidebar


def visit_everything(qtbot, window: MainWindow) -> None:
    for tabs in (window.tabs, window.bottom):
        for index in range(tabs.count()):
            tabs.setCurrentIndex(index)
            qtbot.wait(20)
    window.tabs.setCurrentIndex(0)
    window.bottom.setCurrentIndex(0)
    qtbot.wait(20)


def page_widths(window: MainWindow) -> dict[str, int]:
    return {window.tabs.tabText(i): window.tabs.widget(i).minimumSizeHint().width() for i in range(window.tabs.count())}


def page_heights(window: MainWindow) -> dict[str, int]:
    tabs = window.tabs
    return {tabs.tabText(i): tabs.widget(i).minimumSizeHint().height() for i in range(tabs.count())}


def test_every_page_fits_a_small_window(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    visit_everything(qtbot, window)
    assert window.minimumSizeHint().height() <= MAX_HEIGHT, (window.minimumSizeHint(), page_heights(window))
    # Widgets that appear on demand (the OAuth client box, say) must not widen the window either.
    pickers = window.budget.pickers
    pickers.window.setCurrentIndex(pickers.window.findData(CUSTOM))
    assert pickers.custom.isVisibleTo(pickers)
    window.auth_panel.client_button.setChecked(True)
    window.auth_panel.show_token_button.setChecked(True)
    visit_everything(qtbot, window)

    widths = page_widths(window)
    assert max(widths.values()) <= MAX_PAGE, widths
    assert window.minimumSizeHint().width() <= MAX_WINDOW, (window.minimumSizeHint(), widths)
    window.resize(795, 700)
    qtbot.waitUntil(lambda: window.width() == 795, timeout=3000)
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        qtbot.wait(20)
        screenshot(window, f"narrow-{window.tabs.tabText(index).lower()}.png")
    assert window.width() == 795, "showing a page widened the window"


def test_every_grant_of_the_oauth_client_box_keeps_the_window_small(qtbot, window: MainWindow) -> None:
    """The Enterprise-managed grant shows eleven rows in the OAuth client box: the Auth tab asked for more
    height than a 700 px screen has and the window grew past it. The box scrolls instead."""
    connect(qtbot, window)
    panel = window.auth_panel
    window.tabs.setCurrentWidget(panel)
    panel.client_button.setChecked(True)
    box = panel.client_box
    for index in range(box.grant.count()):
        box.grant.setCurrentIndex(index)
        qtbot.wait(20)
        assert box.isVisibleTo(window)
        least = window.minimumSizeHint()
        assert least.height() <= MAX_HEIGHT and least.width() <= MAX_WINDOW, (box.grant.currentText(), least)
