"""The auth extensions a profile can choose, built into providers: one table of grants, and DPoP for any.

`oauth_grant` names the grant (the Auth tab's Grant choice, the CLI's `--oauth-grant`):

- (none): browser sign-in, authorization code + PKCE (`provider`, `signin`);
- `client_credentials`: a machine client with a secret or a `private_key_jwt` key file (`machine`);
- `workload`: workload identity federation, SEP-1933 (`jwt_bearer`): the workload JWT's file or variable;
- `enterprise`: enterprise-managed authorization, SEP-990 (`jwt_bearer`): the client's id and secret at the
  MCP server's authorization server, the IdP's token endpoint and client, the ID token's file or variable,
  or the IdP's issuer for a browser sign-in there (`idp_signin`).

`oauth_dpop` binds the tokens of any of them to a per-server proof key (`dpop`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.auth.errors import AuthError
from inspector.auth.events import AuthLog


@dataclass(frozen=True)
class Grant:
    value: str | None  # profile.oauth_grant
    title: str  # what the Auth tab's Grant choice shows
    browser: bool  # needs a browser sign-in
    fields: tuple[str, ...]  # the Auth tab's fields this grant uses (besides Scopes)


GRANTS: tuple[Grant, ...] = (
    Grant(None, "Authorization code (browser sign-in)", True, ("client_id", "client_secret")),
    Grant(
        "client_credentials", "Client credentials (no browser)", False, ("client_id", "client_secret", "private_key")
    ),
    Grant(
        "workload",
        "Workload identity: JWT bearer (SEP-1933)",
        False,
        ("client_id", "assertion_file", "assertion_env", "issuer"),
    ),
    Grant(
        "enterprise",
        "Enterprise-managed: IdP token exchange → ID-JAG (SEP-990)",
        False,
        (
            "client_id",
            "client_secret",
            "idp_token_endpoint",
            "idp_issuer",
            "idp_client_id",
            "idp_client_secret",
            "assertion_file",
            "assertion_env",
            "issuer",
        ),
    ),
)
GRANT_VALUES = tuple(g.value for g in GRANTS if g.value)


def grant_of(profile: Any) -> Grant:
    value = getattr(profile, "oauth_grant", None)
    return next((g for g in GRANTS if g.value == value), GRANTS[0])


def idp_login(profile: Any) -> bool:
    """Enterprise-managed authorization whose ID token comes from a browser sign-in at the IdP (its issuer is
    set, no file or variable holds the token)."""
    return (
        getattr(profile, "oauth_grant", None) == "enterprise"
        and bool(getattr(profile, "oauth_idp_issuer", None))
        and not getattr(profile, "oauth_assertion_file", None)
        and not getattr(profile, "oauth_assertion_env", None)
    )


def needs_browser(profile: Any) -> bool:
    return grant_of(profile).browser or idp_login(profile)


def jwt_bearer_provider(profile: Any, storage: Any, log: AuthLog | None, *, browser: Any = None) -> Any:
    """The `JwtBearerProvider` for a profile whose grant is `workload` or `enterprise`. `browser`: (redirect
    URI, redirect handler, callback handler) of a sign-in at the IdP (Sign in); without it a connection
    reuses the stored ID token only."""
    from inspector.auth.idp_signin import IdpSignIn
    from inspector.auth.jwt_bearer import IdentityProvider, JwtBearerProvider, TokenSource

    grant = getattr(profile, "oauth_grant", None)
    what = "ID token" if grant == "enterprise" else "workload JWT"
    source = TokenSource(
        getattr(profile, "oauth_assertion_file", None), getattr(profile, "oauth_assertion_env", None), what
    )
    login = None
    if idp_login(profile):
        redirect_uri, redirect_handler, callback_handler = browser or (None, None, None)
        login = IdpSignIn(
            profile.oauth_idp_issuer,
            getattr(profile, "oauth_idp_client_id", None) or "",
            getattr(profile, "oauth_idp_client_secret", None),
            storage,
            redirect_uri,
            redirect_handler,
            callback_handler,
            log,
        )
    elif not source.file and not source.env:
        where = "a file or an environment variable" + (" (or the IdP issuer)" if grant == "enterprise" else "")
        raise AuthError(f"the {what} has no source", hint=f"Name {where} for the {what}.")
    idp = None
    if grant == "enterprise":
        endpoint = getattr(profile, "oauth_idp_token_endpoint", None)
        if not endpoint:
            raise AuthError("enterprise-managed authorization needs the identity provider's token endpoint")
        if not getattr(profile, "oauth_client_secret", None):
            raise AuthError(
                "enterprise-managed authorization needs the client secret at the MCP server's authorization server"
            )
        idp = IdentityProvider(
            endpoint,
            None if login else source,
            client_id=getattr(profile, "oauth_idp_client_id", None),
            client_secret=getattr(profile, "oauth_idp_client_secret", None),
            login=login,
        )
    try:
        return JwtBearerProvider(
            profile.url,
            storage,
            client_id=getattr(profile, "oauth_client_id", None) or "",
            client_secret=getattr(profile, "oauth_client_secret", None) if grant == "enterprise" else None,
            assertion=None if idp else source,
            idp=idp,
            scope=getattr(profile, "oauth_scopes", None),
            issuer=getattr(profile, "oauth_issuer", None),
            log=log,
        )
    except ValueError as exc:
        raise AuthError(str(exc), hint="Set it in the Auth tab's OAuth client box.") from exc


def stored_token_bound(storage: Any) -> bool:
    """Whether the stored access token was issued DPoP-bound and its proof key is kept."""
    from inspector.auth.dpop import token_hash

    tokens = storage.tokens() if storage is not None else None
    if tokens is None:
        return False
    binding = storage.dpop_binding()
    return bool(binding == ("dpop", token_hash(tokens.access_token)) and storage.dpop_key())


def with_dpop(provider: Any, profile: Any, storage: Any, log: AuthLog | None) -> Any:
    """`provider`, with DPoP when the profile asks for it or the stored token is bound to the server's key
    (the binding is the token's, not the setting's: a bound token always goes as DPoP with a proof)."""
    if getattr(profile, "oauth_dpop", False) or stored_token_bound(storage):
        from inspector.auth.dpop import bind_dpop

        bind_dpop(provider, storage, log)
    return provider
