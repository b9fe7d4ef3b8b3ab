"""Recognising and hiding secrets in profiles, headers, args and URLs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

REDACTED = "<redacted>"

_SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL", re.IGNORECASE)
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"})
_SECRET_HEADER_NAME = re.compile(r"token|key|secret|password|auth", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\$\{[^}]*\}")
_AUTH_SCHEME = re.compile(r"^\s*(Bearer|Basic|Token)\s+", re.IGNORECASE)


def is_placeholder(value: str) -> bool:
    """True if `value` only references variables (`${X}`, `Bearer ${X}`) rather than holding a secret."""
    rest = _AUTH_SCHEME.sub("", value)
    return bool(_PLACEHOLDER.search(value)) and not _PLACEHOLDER.sub("", rest).strip()


def is_secret_env(name: str) -> bool:
    """True for env var names that look like they hold secrets (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*)."""
    return bool(_SECRET_NAME.search(name))


def is_secret_header(name: str, extra: Iterable[str] = ()) -> bool:
    """True for Authorization-like header names, or any name listed in `extra` (case-insensitive)."""
    low = name.lower()
    return low in _SECRET_HEADERS or bool(_SECRET_HEADER_NAME.search(low)) or low in {e.lower() for e in extra}


def is_secret_value(value: str | None) -> bool:
    """True for a non-empty value that is neither a variable reference nor already redacted."""
    if not value or is_placeholder(value):
        return False
    return _AUTH_SCHEME.sub("", value).strip() != REDACTED


def redact_value(value: str) -> str:
    """`REDACTED` in place of a secret value, keeping an auth scheme (`Bearer <redacted>`)."""
    if not is_secret_value(value):
        return value
    scheme = _AUTH_SCHEME.match(value)
    return f"{scheme.group(1)} {REDACTED}" if scheme else REDACTED


def secret_arg_indexes(args: list[str]) -> list[int]:
    """Indexes of args holding secrets: `--token=X` or `--api-key X`."""
    out = []
    for i, arg in enumerate(args):
        if not arg.startswith("-"):
            continue
        flag, eq, value = arg.partition("=")
        if not _SECRET_NAME.search(flag):
            continue
        if eq and is_secret_value(value):
            out.append(i)
        elif not eq and i + 1 < len(args) and not args[i + 1].startswith("-") and is_secret_value(args[i + 1]):
            out.append(i + 1)
    return out


def url_has_secrets(url: str) -> bool:
    """True if the URL carries a password or a secret-looking query parameter."""
    parts = urlsplit(url)
    if parts.password and is_secret_value(parts.password):
        return True
    return any(_SECRET_NAME.search(k) and is_secret_value(v) for k, v in parse_qsl(parts.query))


def redact_url(url: str) -> str:
    """The URL with its password and secret-looking query values replaced."""
    if not url_has_secrets(url):
        return url
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password:
        netloc = f"{parts.username or ''}:{REDACTED}@{netloc.rpartition('@')[2]}"
    query = [(k, REDACTED if _SECRET_NAME.search(k) and is_secret_value(v) else v) for k, v in parse_qsl(parts.query)]
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, safe="<>${}")))


def redact_args(args: list[str]) -> list[str]:
    """A copy of `args` with secret flag values (`--token=X`, `--api-key X`) replaced."""
    out = list(args)
    for i in secret_arg_indexes(out):
        flag, eq, _ = out[i].partition("=")
        out[i] = f"{flag}={REDACTED}" if eq and flag.startswith("-") else REDACTED
    return out


def redact_headers(headers: Mapping[str, str], extra: Iterable[str] = ()) -> dict[str, str]:
    """A copy of `headers` with Authorization-like values (and those named in `extra`) replaced."""
    extra = list(extra)
    return {k: redact_value(v) if is_secret_header(k, extra) else v for k, v in headers.items()}
