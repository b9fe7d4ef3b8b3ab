"""The Auth tab says which OAuth flows this build supports (issue 13, point 10)."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit


def test_the_auth_tab_lists_the_supported_oauth_flows(lens) -> None:
    lens.start()
    lens.tab("Auth")
    assert not lens.has("Supported OAuth flows")  # folded away until asked for
    lens.click("Supported flows")
    view = lens.find("Supported OAuth flows", QPlainTextEdit)
    text = view.toPlainText()
    lines = text.splitlines()
    assert lines[0].startswith("✓ supported: Authorization code + PKCE")
    assert any(line.startswith("✓ supported: Client credentials, signed JWT") for line in lines)
    for extension in ("DPoP", "Enterprise-managed", "Workload identity"):
        assert any(line.startswith("✓ supported:") and extension in line for line in lines), extension
    assert view.isReadOnly()
    lens.click("Supported flows")
    lens.wait(lambda: not lens.has("Supported OAuth flows"), what="the list folded away again")
    assert lens.quit() == 0
