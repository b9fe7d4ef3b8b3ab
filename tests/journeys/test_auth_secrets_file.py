"""No keyring on this machine (the journey's null backend): a token the Auth tab gets lives for this session
only and the tab says so; ticking "Keep secrets in a file (user-only, not encrypted)" writes it to a 0600
file and the tick is remembered (issue 28, point 2)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from lens_support import free_port, serve
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel

SERVER = Path(__file__).parents[1] / "servers" / "auth_extensions.py"
TICK = "Keep secrets in a file (user-only, not encrypted)"


def test_without_a_keyring_the_token_stays_in_the_session_until_the_user_ticks_the_file(lens, tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    now = int(time.time())
    workload = jwt.encode({"sub": "journey", "aud": base, "iat": now, "exp": now + 900}, key, algorithm="ES256")
    (tmp_path / "workload.jwt").write_text(workload)
    auth_dir = lens.home / ".config" / "mcp-lens" / "auth"
    for _ in serve([sys.executable, str(SERVER), str(port), str(public)], port):
        lens.start(f"{base}/mcp", connected=False)
        lens.wait_status(lambda text: "connected to" not in text and bool(text), timeout=30_000)
        lens.tab("Auth")
        lens.click("OAuth client…")
        grant = lens.find("OAuth grant", QComboBox)
        grant.setFocus()
        lens.key("Down", grant)
        lens.key("Down", grant)
        assert grant.currentText().startswith("Workload identity")
        lens.type("OAuth client id", "journey-workload")
        lens.type("Workload JWT file path", str(tmp_path / "workload.jwt"))
        lens.click("Save to profile")
        box = lens.find(TICK, QCheckBox)
        assert box.isVisible() and not box.isChecked()
        lens.click("Sign in")
        lens.wait_connected(timeout=60_000)
        lens.tab("Auth")
        (state,) = [label for label in lens.window.findChildren(QLabel, "authState") if label.isVisible()]
        lens.wait(lambda label=state: "Signed in" in label.text(), timeout=30_000, what="signed in")
        assert "this session only" in state.text() and "No keyring on this machine" in state.text()
        assert not list(auth_dir.glob("*.json")) if auth_dir.exists() else True  # nothing in a file

        lens.click(TICK)
        lens.wait(lambda: list(auth_dir.glob("*.json")) if auth_dir.exists() else False, what="the token file")
        (token_file,) = auth_dir.glob("*.json")
        assert json.loads(token_file.read_text())["tokens"]["access_token"]
        assert token_file.stat().st_mode & 0o777 == 0o600
        lens.wait(lambda label=state: "a private file (0600" in label.text(), what="the state says where it is now")
        assert lens.quit() == 0
    saved = lens.home / ".config" / "mcp-lens" / "secrets.json"
    assert json.loads(saved.read_text()) == {"keep_in_file": True}
