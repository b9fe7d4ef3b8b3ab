"""The OAuth options every connecting subcommand takes: a grant and what it needs, as the Auth tab sets them.

Secrets never go on the command line (another user's `ps` shows it): a client secret is named by the
environment variable that holds it (`--oauth-client-secret-env`), a workload JWT or ID token by its file
or variable. The values land in the profile, whose `Redactor` hides them in everything recorded.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

# option → (the profile field it sets, help); the words are also in `traffic/cli_vocabulary.TARGET_OPTIONS`
OAUTH_OPTIONS: dict[str, tuple[str, str]] = {
    "--oauth-grant": (
        "oauth_grant",
        "no browser: client_credentials, workload (a workload JWT, SEP-1933) or enterprise (IdP token exchange "
        "→ ID-JAG, SEP-990); default: the browser sign-in",
    ),
    "--oauth-client-id": ("oauth_client_id", "the client id at the MCP server's authorization server"),
    "--oauth-client-secret-env": ("oauth_client_secret", "the environment variable holding its client secret"),
    "--oauth-private-key-file": ("oauth_private_key_file", "client_credentials: a PEM key for private_key_jwt"),
    "--oauth-jwt-file": ("oauth_assertion_file", "workload / enterprise: the file with the workload JWT or ID token"),
    "--oauth-jwt-env": ("oauth_assertion_env", "... or the environment variable holding it"),
    "--oauth-idp-token-endpoint": ("oauth_idp_token_endpoint", "enterprise: the identity provider's token endpoint"),
    "--oauth-idp-issuer": ("oauth_idp_issuer", "enterprise: sign in at this IdP in the browser for the ID token"),
    "--oauth-idp-client-id": ("oauth_idp_client_id", "enterprise: the client id at the identity provider"),
    "--oauth-idp-client-secret-env": ("oauth_idp_client_secret", "enterprise: the variable holding its secret"),
    "--oauth-issuer": ("oauth_issuer", "use this authorization server, not the one the MCP server names"),
    "--oauth-scopes": ("oauth_scopes", "scopes to ask for, space-separated"),
}
SECRET_FROM_ENV = ("--oauth-client-secret-env", "--oauth-idp-client-secret-env")
GRANT_CHOICES = ("client_credentials", "workload", "enterprise")  # `auth/extensions.GRANTS`' values


def add_oauth_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    for option, (_field, text) in OAUTH_OPTIONS.items():
        choices = GRANT_CHOICES if option == "--oauth-grant" else None
        metavar = option.removeprefix("--oauth-").upper().replace("-", "_")
        parser.add_argument(option, metavar=metavar, help=text, choices=choices)
    parser.add_argument("--dpop", action="store_true", help="DPoP-bound tokens (RFC 9449) with any grant")
    parser.add_argument(
        "--secrets-file",
        action="store_true",
        help="with no OS keyring, keep OAuth tokens in a user-only file (0600, not encrypted); "
        "without it they last this run only",
    )


def oauth_settings(ns: argparse.Namespace) -> dict[str, Any]:
    """The profile fields the options set (a secret read from the variable named); `ValueError` if it is unset."""
    out: dict[str, Any] = {}
    for option, (field, _text) in OAUTH_OPTIONS.items():
        value = getattr(ns, option.removeprefix("--").replace("-", "_"), None)
        if value is None:
            continue
        if option in SECRET_FROM_ENV:
            if not os.environ.get(value):
                raise ValueError(f"{option} {value}: that environment variable is not set")
            value = os.environ[value]
        out[field] = value
    if getattr(ns, "dpop", False):
        out["oauth_dpop"] = True
    if getattr(ns, "secrets_file", False):
        from inspector.config.secret_keeping import tick_for_this_run

        tick_for_this_run()
    return out
