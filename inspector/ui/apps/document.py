"""The app's document as it goes into the iframe: its HTML with our content-security policy first."""

from __future__ import annotations

import html
import re

DOCTYPE = re.compile(r"^\ufeff?\s*<!doctype[^>]*>", re.IGNORECASE)


def with_policy(document: str, policy: str) -> str:
    """`document` with a CSP meta tag before anything else it holds (after its doctype, so the page
    keeps standards mode): the policy applies before the app's first script or request."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy, quote=True)}">'
    found = DOCTYPE.match(document)
    if found is None:
        return meta + document
    return document[: found.end()] + meta + document[found.end() :]
