"""When WebEngine may start: as root, Chromium's sandbox would end the whole process, so the App view
does not start it unless the sandbox was turned off for this run (tests do that; the app never does)."""

from __future__ import annotations

import os

import pytest

from inspector.ui.apps import engine
from inspector.ui.apps.document import with_policy


def test_as_root_webengine_is_not_started_with_its_sandbox_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(engine.SANDBOX_OFF, raising=False)
    monkeypatch.setenv("QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu")
    reason = engine.sandbox_refusal()
    if os.geteuid() == 0:
        assert reason is not None and "running as root" in reason and "never turns it off" in reason
        assert engine.unavailable_reason() == reason
    else:
        assert reason is None
    monkeypatch.setenv(engine.SANDBOX_OFF, "1")  # what tests/conftest.py sets for a run as root
    assert engine.sandbox_refusal() is None


def test_the_policy_comes_before_anything_in_the_document_and_keeps_standards_mode() -> None:
    policy = "default-src 'none'; script-src 'unsafe-inline'"
    shown = with_policy("<!DOCTYPE html><html><head><script>x()</script>", policy)
    assert shown.startswith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src')
    assert shown.index("Content-Security-Policy") < shown.index("<script>")
    assert (
        with_policy("<p>hi", '"><script>')
        == '<meta http-equiv="Content-Security-Policy" content="&quot;&gt;&lt;script&gt;"><p>hi'
    )
