"""The browser sign-in at an enterprise identity provider (OpenID Connect, authorization code + PKCE) that gives
the ID token enterprise-managed authorization exchanges (SEP-990), for when no file or variable holds one.

`IdpSignIn.requests()` is a generator of the HTTP requests the sign-in makes (OIDC discovery, the code
exchange), driven by `JwtBearerProvider` so they go through the OAuth tap like its own; between them it opens
the authorization URL through the sign-in's redirect handler and waits for the loopback redirect. The ID
token is kept in the server's credentials record (`ServerTokenStorage.save_id_token`) until it expires, so
connections reuse it; a connection without one stops at `AuthRequired` and the app offers Sign in.

Its signature is not checked here: the identity provider checks it again when it is exchanged.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx2

from inspector.auth.dpop import NO_DPOP
from inspector.auth.errors import AuthError, AuthRequired
from inspector.auth.events import AuthLog

SCOPE = "openid email profile"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def claims_of(id_token: str) -> dict[str, Any]:
    """The unverified claims of a JWT (empty when it does not decode)."""
    try:
        payload = id_token.split(".")[1]
        value = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def still_valid(id_token: str | None, *, margin: float = 30) -> bool:
    if not id_token:
        return False
    expiry = claims_of(id_token).get("exp")
    return not isinstance(expiry, int | float) or expiry > time.time() + margin


@dataclass
class IdpSignIn:
    """What the sign-in needs: the IdP's issuer and our client there, the storage, and the browser handlers
    (None on a connection: it may only reuse a stored ID token)."""

    issuer: str
    client_id: str
    client_secret: str | None
    storage: Any
    redirect_uri: str | None = None
    redirect_handler: Callable[[str], Awaitable[None]] | None = None
    callback_handler: Callable[[], Awaitable[Any]] | None = None
    log: AuthLog | None = None

    def _note(self, step: str, summary: str, *, ok: bool = True) -> None:
        if self.log is not None:
            self.log.add(step, summary, ok=ok)

    async def requests(self) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        """Yield the sign-in's requests (each answer sent back); the ID token is then in `storage`."""
        stored = self.storage.id_token()
        if still_valid(stored):
            return
        if self.redirect_handler is None or self.callback_handler is None or self.redirect_uri is None:
            raise AuthRequired(
                f"{self.issuer}: a sign-in at the identity provider is needed (no unexpired ID token is stored)",
                hint="Sign in from the Auth tab (or run without --stored-auth-only).",
            )
        discovery = f"{self.issuer.rstrip('/')}/.well-known/openid-configuration"
        answer = yield httpx2.Request("GET", discovery, extensions={NO_DPOP: True})
        try:
            document = json.loads(await answer.aread()) if answer.status_code == 200 else None
        except ValueError:
            document = None
        if not isinstance(document, dict) or not all(
            isinstance(document.get(k), str) for k in ("authorization_endpoint", "token_endpoint")
        ):
            raise AuthError(f"the identity provider {self.issuer} has no usable OpenID configuration")
        verifier = secrets.token_urlsafe(48)
        state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        query = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": self.redirect_uri,
            "scope": SCOPE,
            "state": state,
            "nonce": nonce,
            "code_challenge": _b64(hashlib.sha256(verifier.encode()).digest()),
            "code_challenge_method": "S256",
        }
        self._note("authorize", f"sign-in at the identity provider {self.issuer} (OpenID Connect, for the ID token)")
        await self.redirect_handler(f"{document['authorization_endpoint']}?{urlencode(query)}")
        result = await self.callback_handler()
        if result.state != state:
            raise AuthError("the identity provider's redirect carried another sign-in's state")
        data = {
            "grant_type": "authorization_code",
            "code": result.code,
            "redirect_uri": self.redirect_uri,
            "code_verifier": verifier,
            "client_id": self.client_id,
        }
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
        if self.client_secret:
            from inspector.auth.jwt_bearer import basic_auth

            headers["Authorization"] = basic_auth(self.client_id, self.client_secret)
        answer = yield httpx2.Request(
            "POST", document["token_endpoint"], data=data, headers=headers, extensions={NO_DPOP: True}
        )
        try:
            body = json.loads(await answer.aread())
        except ValueError:
            body = None
        id_token = body.get("id_token") if isinstance(body, dict) and answer.status_code == 200 else None
        if not isinstance(id_token, str):
            raise AuthError(f"the identity provider gave no ID token (HTTP {answer.status_code})")
        if claims_of(id_token).get("nonce") != nonce:
            raise AuthError("the identity provider's ID token does not carry this sign-in's nonce")
        self.storage.save_id_token(id_token)
        self._note("token", "ID token received from the identity provider and stored until it expires")
