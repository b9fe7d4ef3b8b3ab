"""The Auth tab's grant choices for the auth extensions: each shows the fields it needs, saves them, and a
sign-in with a workload JWT and DPoP shows each step (against tests/servers/auth_extensions.py)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from lens_support import free_port, serve

from inspector.config.profile import ServerProfile
from inspector.ui.auth.client_box import ROWS

SERVER = Path(__file__).parents[2] / "servers" / "auth_extensions.py"


@pytest.fixture
def extension_server(tmp_path):
    """(base URL, the key its workload JWTs must be signed with), with DPoP and nonces on."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "trusted.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    port = free_port()
    for _ in serve([sys.executable, str(SERVER), str(port), str(public), "--dpop", "--nonce"], port):
        yield f"http://127.0.0.1:{port}", key


def test_each_field_is_named_apart_from_its_label() -> None:
    """A field found by its accessible name must not be its row's label (typing would reach the label)."""
    for _field_name, label, accessible, _placeholder, _secret in ROWS.values():
        assert accessible != label
    assert len({row[2] for row in ROWS.values()}) == len(ROWS)


def _visible(box, accessible: str) -> bool:
    field = next(f for f in box.fields.values() if f.accessibleName() == accessible)
    return field.isVisible()


def _field(box, accessible: str):
    return next(f for f in box.fields.values() if f.accessibleName() == accessible)


def _choose(box, title_start: str) -> None:
    index = next(i for i in range(box.grant.count()) if box.grant.itemText(i).startswith(title_start))
    box.grant.setCurrentIndex(index)  # what picking the item in the open list does


def test_each_grant_shows_its_fields_and_a_workload_jwt_with_dpop_signs_in_step_by_step(
    qtbot, window, extension_server, auth_home, tmp_path
):
    base, key = extension_server
    now = int(time.time())
    workload = jwt.encode({"sub": "ui", "aud": base, "iat": now, "exp": now + 600}, key, algorithm="ES256")
    (tmp_path / "workload.jwt").write_text(workload)
    profile = ServerProfile(name="Workload", transport="http", url=f"{base}/mcp")
    window.servers.store.add(profile)
    window.servers.store.save()
    panel = window.auth_panel
    window.tabs.setCurrentWidget(panel)
    panel.show_profile(profile)
    panel.client_button.click()
    box = panel.client_box
    assert box.isVisible()

    # The browser flow: client id and secret, nothing of the extensions.
    assert _visible(box, "OAuth client id") and _visible(box, "OAuth client secret")
    assert not _visible(box, "JWT file path") and not _visible(box, "Identity provider token endpoint")
    _choose(box, "Enterprise-managed")
    idp = ("Identity provider token endpoint", "Identity provider issuer", "Identity provider client id")
    for name in (*idp, "Identity provider client secret"):
        assert _visible(box, name), name
    assert _visible(box, "ID token file path") and _visible(box, "ID token environment variable")
    assert (
        _field(box, "Identity provider client secret").echoMode()
        == _field(box, "OAuth client secret").EchoMode.Password
    )
    _field(box, "Identity provider client secret").setText("idp-secret-typed-then-dropped")
    _choose(box, "Workload identity")
    assert _visible(box, "Workload JWT file path") and _visible(box, "Workload JWT environment variable")
    assert not _visible(box, "OAuth client secret") and not any(_visible(box, name) for name in idp)
    assert not _visible(box, "Private key file")

    box.client_id.setText("ui-workload")
    _field(box, "Workload JWT file path").setText(str(tmp_path / "workload.jwt"))
    box.dpop.click()
    box.save_button.click()
    assert box.status.text() == "saved"
    saved = json.loads(window.servers.store.path.read_text())["x-mcp-lens"]["servers"]["Workload"]
    assert saved == {
        "oauthClientId": "ui-workload",
        "oauthGrant": "workload",
        "oauthAssertionFile": str(tmp_path / "workload.jwt"),
        "oauthDpop": True,
    }  # the enterprise secret typed before switching is not saved

    panel.sign_in_button.click()
    qtbot.waitUntil(lambda: panel.task is not None and panel.task.done(), timeout=60000)
    assert panel.task.result() is True, [e.summary for e in panel.current.log.events]
    assert panel.state_label.text().startswith("Signed in"), panel.state_label.text()
    assert "DPoP-bound to this server's proof key" in panel.state_label.text()
    rows = [(panel.steps.item(r, 1).text(), panel.steps.item(r, 2).text()) for r in range(panel.steps.rowCount())]
    steps = [step for step, _ in rows]
    assert "Discovery" in steps and "DPoP" in steps, rows
    assert any("use_dpop_nonce" in text for _, text in rows), rows
    assert any("DPoP-bound token issued" in text for _, text in rows), rows
    grant = next(r for r, (step, text) in enumerate(rows) if step == "Token exchange" and "JWT-bearer" in text)
    panel.steps.selectRow(grant)
    detail = panel.detail.toPlainText()
    assert "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer" in detail
    assert workload not in detail and "assertion=<redacted>" in detail
    assert workload not in "\n".join(e.raw.decode("utf-8", "replace") for e in window.store)
