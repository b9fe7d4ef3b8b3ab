"""Machine-to-machine OAuth (no browser): the `client_credentials` grant on the SDK's extension providers.

- `client_secret_basic` / `client_secret_post`: the SDK's `ClientCredentialsOAuthProvider`.
- `private_key_jwt` (SEP-1046): the SDK's `PrivateKeyJWTOAuthProvider` with a JWT we sign from a PEM
  key (`SignedJWTParameters`: iss = sub = the client id, aud = the authorization server's issuer).

Like `LensOAuthProvider`, these mark their own requests so the OAuth tap records them (redacted).
"""

from __future__ import annotations

import warnings
from typing import Any

from mcp.client.auth import TokenStorage
from mcp.client.auth.extensions.client_credentials import (
    ClientCredentialsOAuthProvider,
    PrivateKeyJWTOAuthProvider,
    SignedJWTParameters,
)
from mcp.shared.exceptions import MCPDeprecationWarning

from inspector.auth.dpop import DpopProofs
from inspector.auth.events import AuthLog
from inspector.auth.tap import TapsOwnRequests


class _Tapped(DpopProofs, TapsOwnRequests):
    """Answers what the Auth tab asks of a connection's provider (`auth_required`, `forget`, `load`);
    the OAuth tap records the provider's own requests (`TapsOwnRequests`)."""

    auth_required: str | None = None  # never set: a machine client needs no browser
    step_up_scope: str | None = None

    def forget(self) -> None:
        self.context.clear_tokens()  # type: ignore[attr-defined]
        self._initialized = False

    async def load(self) -> None:
        await self._initialize()  # type: ignore[attr-defined]


class SecretClientCredentials(_Tapped, ClientCredentialsOAuthProvider):
    """`client_credentials` with a client secret (HTTP Basic or in the form)."""


class JwtClientCredentials(_Tapped, PrivateKeyJWTOAuthProvider):
    """`client_credentials` authenticated by a signed JWT assertion (`private_key_jwt`)."""


def signing_algorithm_for(private_key_pem: str) -> str:
    """The JWS algorithm for a PEM private key: ES256/384/512 by curve, RS256 for RSA, EdDSA for Ed25519."""
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    key = load_pem_private_key(private_key_pem.encode(), password=None)
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return {"secp384r1": "ES384", "secp521r1": "ES512"}.get(key.curve.name, "ES256")
    if isinstance(key, rsa.RSAPrivateKey):
        return "RS256"
    if isinstance(key, ed25519.Ed25519PrivateKey):
        return "EdDSA"
    raise ValueError(f"unsupported private key type for private_key_jwt: {type(key).__name__}")


def client_credentials_provider(
    server_url: str,
    storage: TokenStorage,
    *,
    client_id: str,
    client_secret: str | None = None,
    private_key_pem: str | None = None,
    signing_algorithm: str = "RS256",
    auth_method: str = "client_secret_basic",
    scope: str | None = None,
    issuer: str | None = None,
    log: AuthLog | None = None,
) -> SecretClientCredentials | JwtClientCredentials:
    """The provider for a machine client: a PEM key means `private_key_jwt`, else the client secret.

    Without `issuer` the credentials go to whichever authorization server the MCP server names (the
    SDK deprecates that; the auth log says so once)."""
    if not client_id:
        raise ValueError("client credentials need a client id")
    if not private_key_pem and not client_secret:
        raise ValueError("client credentials need a client secret or a private key (PEM)")
    if issuer is None and log is not None:
        log.add("info", "no authorization server issuer configured: the one the MCP server names gets the credentials")
    with warnings.catch_warnings():
        if issuer is None:  # said in the auth log above, instead of on stderr
            warnings.simplefilter("ignore", MCPDeprecationWarning)
        provider: Any
        if private_key_pem:
            signer = SignedJWTParameters(
                issuer=client_id, subject=client_id, signing_key=private_key_pem, signing_algorithm=signing_algorithm
            )
            provider = JwtClientCredentials(
                server_url,
                storage,
                client_id=client_id,
                assertion_provider=signer.create_assertion_provider(),
                scope=scope,
                issuer=issuer,
            )
        else:
            provider = SecretClientCredentials(
                server_url,
                storage,
                client_id=client_id,
                client_secret=client_secret or "",
                token_endpoint_auth_method=auth_method,  # type: ignore[arg-type]
                scope=scope,
                issuer=issuer,
            )
    provider.log = log
    return provider
