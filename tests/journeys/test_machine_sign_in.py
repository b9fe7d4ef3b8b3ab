"""A machine-to-machine server: the user picks the client credentials grant in the Auth tab, types the
client id and secret, signs in without any browser, and the app connects (issue 13, point 10)."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from lens_support import free_port, serve
from PySide6.QtWidgets import QComboBox

MACHINE_SERVER = Path(__file__).parents[1] / "auth" / "machine_server.py"


def test_client_credentials_sign_in_from_the_auth_tab(lens, tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    public = tmp_path / "public.pem"
    public.write_bytes(
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    port = free_port()
    for _ in serve([sys.executable, str(MACHINE_SERVER), str(port), str(public)], port):
        lens.start(f"http://127.0.0.1:{port}/mcp", connected=False)
        lens.wait_status(lambda text: "connected to" not in text and bool(text), timeout=30_000)
        lens.tab("Auth")
        lens.click("OAuth client…")
        grant = lens.find("OAuth grant", QComboBox)
        grant.setFocus()
        lens.key("Down", grant)
        assert grant.currentText() == "Client credentials (no browser)"
        lens.type("OAuth client id", "m2m-client")
        lens.type("OAuth client secret", "m2m-secret")
        lens.click("Save to profile")
        lens.click("Sign in")
        lens.wait_connected(timeout=30_000)
        lens.tab("Tools")
        lens.wait_text("whoami", timeout=15_000)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/stats", timeout=5) as response:
            requests = json.loads(response.read())["token_requests"]
        assert {"grant_type": "client_credentials", "auth": "client_secret_basic"} in requests
        assert all(r["grant_type"] == "client_credentials" for r in requests)
        assert lens.quit() == 0
