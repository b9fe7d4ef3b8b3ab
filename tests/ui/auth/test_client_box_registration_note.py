"""The Auth tab's OAuth client box says dynamic client registration is deprecated (a 2026-07-28 server) only
where it would happen: the browser grant with no client id. A grant that never registers (workload identity)
or a typed client id shows no such note."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inspector.ui.auth.client_box import ClientBox

NOTE = "dynamic client registration is deprecated in 2026-07-28"


def _shown(box: ClientBox) -> bool:
    return box.registration_note.isVisibleTo(box)


def test_the_registration_note_shows_only_where_registration_would_happen(qtbot) -> None:
    box = ClientBox(None, lambda _profile: None)
    qtbot.addWidget(box)
    box.show()
    box.mark_registration_deprecated(NOTE)
    assert _shown(box) and box.registration_note.text() == f"Left empty: {NOTE}"
    box.grant.setFocus()
    QTest.keyClick(box.grant, Qt.Key.Key_Down)  # client credentials
    QTest.keyClick(box.grant, Qt.Key.Key_Down)  # workload identity: never registers
    assert box.grant.currentText().startswith("Workload identity")
    assert not _shown(box)
    QTest.keyClick(box.grant, Qt.Key.Key_Home)  # back to the browser sign-in
    assert _shown(box)
    client_id = next(f for f in box.fields.values() if f.accessibleName() == "OAuth client id")
    QTest.keyClicks(client_id, "pre-registered")
    assert not _shown(box)
    client_id.clear()
    assert _shown(box)
    box.mark_registration_deprecated("")
    assert not _shown(box)
