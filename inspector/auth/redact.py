"""Hide OAuth secrets (tokens, codes, verifiers, client secrets) in recorded bodies and URLs."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from inspector.config.redact import REDACTED

SECRET_FIELDS = frozenset(
    {
        "access_token",
        "refresh_token",
        "id_token",
        "code",
        "code_verifier",
        "client_secret",
        "assertion",
        "client_assertion",
        "registration_access_token",
        "subject_token",
        "password",
    }
)


def redact_form(body: bytes) -> tuple[bytes, dict[str, str]]:
    """A form body with secret fields replaced, and the parsed (unredacted) fields for classification."""
    text = body.decode("utf-8", "replace")
    pairs = parse_qsl(text, keep_blank_values=True)
    fields = dict(pairs)
    safe = [(k, REDACTED if k in SECRET_FIELDS and v else v) for k, v in pairs]
    return urlencode(safe, safe="<>").encode(), fields


def _redact_json_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: REDACTED if k in SECRET_FIELDS and v else _redact_json_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact_json_value(v) for v in value]
    return value


def redact_json(body: bytes) -> bytes:
    """A JSON body with secret members replaced; a non-JSON body is returned only if it names no secret."""
    try:
        value = json.loads(body)
    except ValueError:
        text = body.decode("utf-8", "replace")
        if any(name in text for name in SECRET_FIELDS):
            return f"{REDACTED} ({len(body)} bytes, not JSON)".encode()
        return body
    return json.dumps(_redact_json_value(value), ensure_ascii=False).encode()


def redact_body(body: bytes, content_type: str) -> tuple[bytes, dict[str, str] | None]:
    """Redact by content type; returns the safe body and the form fields when it was a form."""
    if not body:
        return b"", None
    if "x-www-form-urlencoded" in content_type:
        return redact_form(body)
    return redact_json(body), None


def redact_oauth_url(url: str) -> str:
    """A URL (e.g. a redirect `Location`) with `code`, tokens and secrets in its query replaced."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if not any(k in SECRET_FIELDS for k, _ in pairs):
        return url
    safe = [(k, REDACTED if k in SECRET_FIELDS and v else v) for k, v in pairs]
    return urlunsplit(parts._replace(query=urlencode(safe, safe="<>")))
