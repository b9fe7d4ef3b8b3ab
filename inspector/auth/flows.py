"""Which OAuth flows this build supports: one table, shown in the Auth tab and checked by the conformance run.

A flow is supported when it runs: on the `mcp` SDK's own providers (`provider`, `machine`) or, for the
auth extensions the SDK lacks, on ours (`jwt_bearer`, `dpop`); one that is not says why.
The conformance scenario names tie each row to the suite's evidence.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Flow:
    title: str
    supported: bool
    detail: str
    scenarios: tuple[str, ...] = ()


FLOWS: tuple[Flow, ...] = (
    Flow(
        "Authorization code + PKCE (browser sign-in)",
        True,
        "dynamic registration, a Client ID Metadata Document or a pre-registered client; scope step-up "
        "keeps earlier scopes; a changed authorization server means registering again",
        ("auth/metadata-default", "auth/scope-step-up", "auth/authorization-server-migration"),
    ),
    Flow(
        "Client credentials, client secret (client_secret_basic / _post)",
        True,
        "machine-to-machine, no browser: Auth tab › OAuth client… › Grant: Client credentials",
        ("auth/client-credentials-basic",),
    ),
    Flow(
        "Client credentials, signed JWT (private_key_jwt, SEP-1046)",
        True,
        "machine-to-machine; the JWT is signed from the PEM key file set in the same box",
        ("auth/client-credentials-jwt",),
    ),
    Flow(
        "Enterprise-managed authorization (SEP-990, ID-JAG)",
        True,
        "no browser: the ID token is exchanged at the identity provider (RFC 8693) for an ID-JAG, presented "
        "as a JWT-bearer grant (RFC 7523); Auth tab › OAuth client… › Grant: Enterprise-managed",
        ("auth/enterprise-managed-authorization",),
    ),
    Flow(
        "DPoP-bound tokens (RFC 9449), with or without a server nonce",
        True,
        "with any grant: a proof key per server, a DPoP proof on token and MCP requests, use_dpop_nonce "
        "answered; Auth tab › OAuth client… › DPoP-bound tokens",
        ("auth/dpop", "auth/dpop-nonce"),
    ),
    Flow(
        "Workload identity JWT bearer grant (SEP-1933)",
        True,
        "no browser: the workload's JWT (a file or an environment variable) is the JWT-bearer grant; "
        "Auth tab › OAuth client… › Grant: Workload identity",
        ("auth/wif-jwt-bearer",),
    ),
)


def supported_flows_text(flows: tuple[Flow, ...] = FLOWS) -> str:
    """Plain text for the Auth tab: one line per flow, supported ones first."""
    lines = []
    for flow in sorted(flows, key=lambda f: not f.supported):
        mark = "✓ supported" if flow.supported else "✗ not supported"
        lines.append(f"{mark}: {flow.title} — {flow.detail}")
    return "\n".join(lines)
