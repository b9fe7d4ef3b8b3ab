"""A server's secrets in a collection as ``${NAME}`` references, never as values and never as `<redacted>`.

`secret_references` names each secret value of a profile after where it came from (the URL's password
`URL_PASSWORD`, its ``token=`` query value `URL_TOKEN`, the `X-Session` header `X_SESSION`, an env
variable by its own name, a ``--api-key`` flag `API_KEY`); one name per value, the same wherever the
value appears: in the recorded server entry (`reach_entry`) and inside a step's arguments
(`with_references`). At run time a name is filled from `--input NAME=VALUE`, the environment, or the
saved profile of the server (`reference_values`, which gives the same names their values back).
`redacted_fields` finds what an older file still holds as `<redacted>`, which is never sent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from inspector.config.redact import (
    REDACTED,
    Redactor,
    is_secret_header,
    is_secret_name,
    is_secret_value,
    looks_secret,
    profile_secrets,
    secret_arg_indexes,
    url_passwords,
)

_MIN_INSIDE = 4  # a shorter secret is replaced only where it is a whole string, not inside text
_SCHEME = re.compile(r"^\s*(Bearer|Basic|Token)\s+", re.IGNORECASE)


def env_name(key: str) -> str:
    """``apiKey`` → ``API_KEY``, ``x-auth-token`` → ``X_AUTH_TOKEN``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key)
    return re.sub(r"[^A-Za-z0-9]+", "_", spaced).strip("_").upper() or "SECRET"


class _Names:
    def __init__(self) -> None:
        self.by_value: dict[str, str] = {}

    def add(self, value: Any, name: str) -> None:
        if not isinstance(value, str) or not value.strip() or not is_secret_value(value) or value in self.by_value:
            return
        taken, base, number = set(self.by_value.values()), name, 2
        while name in taken:
            name, number = f"{base}_{number}", number + 1
        self.by_value[value] = name


def secret_references(profile: Any) -> dict[str, str]:
    """Each secret value `profile` (a resolved `ServerProfile`) holds → its reference name."""
    names = _Names()
    known = Redactor.for_profile(profile).values
    url = getattr(profile, "url", None) or ""
    if url:
        try:
            parts = urlsplit(url)
            if parts.password:
                names.add(unquote(parts.password), "URL_PASSWORD")
            for key, value in parse_qsl(parts.query):
                if is_secret_name(key) or value in known:
                    names.add(value, "URL_" + env_name(key))
        except ValueError:
            pass
    extra = getattr(profile, "secret_headers", None) or ()
    headers = dict(getattr(profile, "headers", None) or {})
    if getattr(profile, "bearer_token", None):
        headers["Authorization"] = f"Bearer {profile.bearer_token}"
    for key, value in headers.items():
        if is_secret_header(key, extra) or looks_secret(value) or value in known:
            names.add(_SCHEME.sub("", value) if _SCHEME.match(value) else value, env_name(key))
    for key, value in (getattr(profile, "env", None) or {}).items():
        if is_secret_name(key) or looks_secret(value) or value in known:
            names.add(value, env_name(key))
        for password in url_passwords(value):
            names.add(password, env_name(key) + "_PASSWORD")
    args = list(getattr(profile, "args", None) or ())
    for index in secret_arg_indexes(args):
        flag, eq, value = args[index].partition("=")
        if eq and flag.startswith("-"):
            names.add(value, env_name(flag))
        else:
            names.add(args[index], env_name(args[index - 1]) if index else "ARG_SECRET")
    for arg in args:
        if looks_secret(arg) and not arg.startswith("-"):
            names.add(arg, "ARG_SECRET")
        for password in url_passwords(arg):
            names.add(password, "ARG_PASSWORD")
    names.add(getattr(profile, "oauth_client_secret", None), "OAUTH_CLIENT_SECRET")
    # What is left (a `${input:…}` value inside a longer header or env value): named after its field.
    fields = [*headers.items(), *(getattr(profile, "env", None) or {}).items()]
    for value in dict.fromkeys(profile_secrets(profile)):
        inside = any(len(v) >= _MIN_INSIDE and v in value for v in names.by_value) if isinstance(value, str) else True
        if isinstance(value, str) and not inside and len(value) >= 3:
            where = next((key for key, text in fields if value in text), "SECRET")
            names.add(value, env_name(where))
    return names.by_value


def with_references(value: Any, names: Mapping[str, str]) -> Any:
    """A copy of a JSON-like value with each secret value in `names` (in any string) as ``${NAME}``."""
    if not names:
        return value
    # A value that contains another is replaced whole; one of a few characters only as a whole string.
    ordered = sorted((v for v in names if len(v) >= _MIN_INSIDE), key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(v) for v in ordered)) if ordered else None

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            if item in names:
                return "${" + names[item] + "}"
            return pattern.sub(lambda m: "${" + names[m.group(0)] + "}", item) if pattern else item
        if isinstance(item, dict):
            return {k: walk(v) for k, v in item.items()}
        if isinstance(item, list | tuple):
            return [walk(v) for v in item]
        return item

    return walk(value)


def reach_entry(profile: Any, names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """`profile`'s mcp.json entry with each secret as its ``${NAME}`` reference (the URL's password and
    query values too); anything secret left over is redacted, and then refused by `run`."""
    names = secret_references(profile) if names is None else names
    entry = profile.to_entry()
    url = entry.get("url")
    entry = with_references({k: v for k, v in entry.items() if k != "url"}, names)
    if isinstance(url, str):
        entry = {"type": entry.pop("type"), "url": _url_with_references(url, names), **entry}
    return Redactor.for_profile(profile).json(entry)


def _url_with_references(url: str, names: Mapping[str, str]) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return with_references(url, names)
    netloc = parts.netloc
    if parts.password and unquote(parts.password) in names:
        host = netloc.rpartition("@")[2]
        netloc = f"{parts.username or ''}:${{{names[unquote(parts.password)]}}}@{host}"
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = [(k, "${" + names[v] + "}" if v in names else v) for k, v in pairs]
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, safe="${}") if pairs else parts.query))


def server_prefixed(server: str, name: str) -> str:
    """The name a secret of `server` takes when another server of the collection uses `name` already:
    ``SHOP_URL_TOKEN``."""
    return f"{env_name(server)}_{name}"


def own_names(
    names: Mapping[str, str], server: str, reach: Mapping[str, Any] | None, taken: set[str]
) -> tuple[dict[str, str], dict[str, Any] | None]:
    """`names` (value → name) and `reach` with each name another server already uses (`taken`) prefixed
    with this server's name (`server_prefixed`): one server's secret is never filled with another's."""
    renamed = {name: server_prefixed(server, name) for name in set(names.values()) & taken}
    if not renamed:
        return dict(names), dict(reach) if reach is not None else None
    pattern = re.compile(r"\$\{(" + "|".join(re.escape(n) for n in renamed) + r")\}")

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            return pattern.sub(lambda m: "${" + renamed[m.group(1)] + "}", item)
        if isinstance(item, dict):
            return {k: walk(v) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(v) for v in item]
        return item

    return {value: renamed.get(name, name) for value, name in names.items()}, walk(reach)


def reference_values(profiles: Iterable[Any]) -> dict[str, str]:
    """NAME → value for the references `secret_references` gives these (resolved) profiles, each also
    under its server-prefixed name (`server_prefixed`); the first profile that names a reference gives
    its value."""
    values: dict[str, str] = {}
    for profile in profiles:
        for value, name in secret_references(profile).items():
            values[server_prefixed(str(getattr(profile, "name", "") or ""), name)] = value
            values.setdefault(name, value)
    return values


def redacted_fields(value: Any, path: str = "") -> list[str]:
    """The paths (``arguments.message``, ``headers.Authorization``, ``url``) of the strings in `value` that
    hold `<redacted>`: a secret hidden when the file was written, whose value is not in it."""
    if isinstance(value, str):
        return [path or "(value)"] if REDACTED in value else []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in redacted_fields(v, f"{path}.{k}" if path else str(k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in redacted_fields(v, f"{path}[{i}]")]
    return []
