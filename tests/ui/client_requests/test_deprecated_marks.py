"""What 2026-07-28 deprecates is marked, never hidden, when the server is modern (issue 13 point 6): the Roots
panel, the sampling dialog, the log-level control and the Auth tab's dynamic client registration; nothing is
marked when the server speaks the handshake era."""

from __future__ import annotations

import dataclasses

import pytest
from ui_support import DEMO_PROFILE, connect

from inspector.ui.client_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.client_requests.sampling_dialog import SamplingDialog
from inspector.ui.main_window import MainWindow


def marks(window: MainWindow) -> dict[str, str]:
    roots = window.client_requests.roots_panel.deprecated
    registration = window.auth_panel.client_box.registration_note
    return {
        "roots": roots.toolTip() if not roots.isHidden() else "",
        "registration": registration.text() if not registration.isHidden() else "",
        "logging": window.log_level.deprecated.text(),
    }


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_deprecated_features_are_marked_only_for_a_modern_server(qtbot, window: MainWindow, era: str) -> None:
    connect(qtbot, window, dataclasses.replace(DEMO_PROFILE, protocol_era=era))
    if era == "modern":
        assert marks(window) == {
            "roots": "roots are deprecated in 2026-07-28",
            "registration": "Left empty: dynamic client registration is deprecated in 2026-07-28",
            "logging": "logging: deprecated in 2026-07-28",
        }
        assert window.client_requests.roots_panel.list.isEnabled(), "marked, never taken away"
        assert window.client_requests.roots_panel.deprecated.text() == "· deprecated in 2026-07-28"
    else:
        assert marks(window) == {"roots": "", "registration": "", "logging": ""}
    window.session.disconnect()
    qtbot.waitUntil(lambda: window.session.state == "disconnected", timeout=10000)
    assert marks(window) == {"roots": "", "registration": "", "logging": ""}


@pytest.mark.parametrize("era", ["modern", "legacy"])
def test_the_sampling_dialog_says_sampling_is_deprecated_when_modern(qtbot, window: MainWindow, era: str) -> None:
    """order_coffee asks for an order (elicitation) and a pastry (sampling): mid-call when legacy, through
    input_required when modern."""
    connect(qtbot, window, dataclasses.replace(DEMO_PROFILE, protocol_era=era))
    opened: list = []
    window.client_requests.dialogOpened.connect(opened.append)
    assert window.workbench.tools.select("order_coffee")
    assert not window.workbench.form.set_arguments({"drink": "flat white", "suggest_pastry": True})
    record = window.workbench.call_current()
    assert record is not None
    qtbot.waitUntil(lambda: bool(opened), timeout=20000)
    for dialog in opened:
        if isinstance(dialog, ElicitationDialog):
            dialog.decline_button.click()
    qtbot.waitUntil(lambda: any(isinstance(d, SamplingDialog) for d in opened), timeout=20000)
    dialog = next(d for d in opened if isinstance(d, SamplingDialog))
    if era == "modern":
        assert dialog.banner.isVisibleTo(dialog)
        assert dialog.banner.text() == "sampling is deprecated in 2026-07-28 (MCP Lens still answers it)"
    else:
        assert not dialog.banner.isVisibleTo(dialog)
    dialog.reject()
    qtbot.waitUntil(lambda: record.done, timeout=10000)
