"""Recognising and hiding secrets in profiles, headers, args, URLs and anything written.

Two rules. By value, first: a `Redactor` knows the secret values of one server's profile (what the
user typed into a secret-looking field, the values its `${…}` references resolved to, its URL's query
values and password, env and header values that look like credentials) and replaces them, in their
plain, URL-encoded and JSON-escaped forms, wherever they appear in what MCP Lens writes. By name, as
the fallback: a header, env variable, flag or query parameter whose name looks secret (`*TOKEN*`,
`DB_PASS`, `GH_PAT`, `X-Session`, `sig`) has its value replaced even when its value was never seen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlencode, urlsplit, urlunsplit

REDACTED = "<redacted>"
# A value shorter than this is only ever redacted by name: replacing "2" or "json" everywhere it
# appears would garble every record without hiding anything worth hiding.
MIN_VALUE_LENGTH = 6

_SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIAL|COOKIE|SESSION|PRIVATE", re.IGNORECASE)
# Whole words of a name (split at `_`, `-`, `.` and camelCase) that mark a secret but are too short to
# look for inside other words ("pass" in "compass", "pat" in "path", "auth" in "author").
_SECRET_WORDS = frozenset(
    {"pass", "pwd", "pat", "sig", "signature", "auth", "authorization", "sid", "dsn", "jwt", "bearer", "otp", "creds"}
    | {"cred", "pin", "apikey", "passphrase", "sas", "hmac", "csrf", "xsrf"}
)
# The shell's working directories and the desktop session's own variables (a tap inherits them all):
# names that look secret, values that are not ("ubuntu", "wayland", a socket's path).
_NOT_SECRET_NAMES = frozenset(
    {"PWD", "OLDPWD", "DESKTOP_SESSION", "GDMSESSION", "SESSION_MANAGER", "DBUS_SESSION_BUS_ADDRESS"}
    | {"SSH_AUTH_SOCK", "GPG_AGENT_INFO", "XAUTHORITY"}
)
# The protocol's own session ids (Streamable HTTP's header, legacy SSE's endpoint query): issued by the
# server, not a credential of the user's, and what a debugger and Copy as curl need to show.
_PROTOCOL_SESSION = frozenset({"mcp-session-id", "session_id", "sessionid"})
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"})
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z0-9]+(?![a-z])")
_PLACEHOLDER = re.compile(r"\$\{[^}]*\}")
_AUTH_SCHEME = re.compile(r"^\s*(Bearer|Basic|Token)\s+", re.IGNORECASE)
# Credential-shaped values: one run of token characters, long, with a random-looking piece (12+
# letters and digits mixed: API keys, random session ids, UUIDs); not a path, a flag, a model name or a word.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-.~+/=]{16,}$")
_TOKEN_PIECES = re.compile(r"[-_.~+/=]")
# Values never learned for redaction by value: numbers, dates, times, versions (replacing "2025-06-18"
# everywhere would hide every protocolVersion).
_TRIVIAL = re.compile(r"^[\d\s.\-_:/+,]*$")
# A query value that is one plain word (`format=markdown`) is an option, not a secret, unless its name
# says otherwise: learning it would hide that word everywhere in the traffic.
_PLAIN_WORD = re.compile(r"^[A-Za-z]{1,24}$")
_KNOWN_PREFIXES = ("ghp_", "gho_", "ghu_", "ghs_", "github_pat_", "glpat-", "sk-", "xox", "AKIA", "eyJ", "AIza")
_URL_WITH_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]*:([^\s/@]+)@")


def is_placeholder(value: str) -> bool:
    """True if `value` only references variables (`${X}`, `Bearer ${X}`) rather than holding a secret."""
    rest = _AUTH_SCHEME.sub("", value)
    return bool(_PLACEHOLDER.search(value)) and not _PLACEHOLDER.sub("", rest).strip()


def is_secret_name(name: str) -> bool:
    """True for a name (env variable, header, flag, query parameter, argument) that looks like it holds
    a secret: `*TOKEN*`, `*KEY*`, `*SECRET*`, `*PASSWORD*`, `*SESSION*`, or a word such as `PASS`, `PAT`,
    `SIG`, `AUTH`, `DSN` (`DB_PASS`, `GH_PAT`, `X-Auth`)."""
    if name.upper() in _NOT_SECRET_NAMES or name.upper().startswith("XDG_"):
        return False
    if _SECRET_NAME.search(name):
        return True
    return any(word.lower() in _SECRET_WORDS for word in _WORD.findall(name))


def is_secret_env(name: str) -> bool:
    """True for env var names that look like they hold secrets (see `is_secret_name`)."""
    return is_secret_name(name)


def is_secret_header(name: str, extra: Iterable[str] = ()) -> bool:
    """True for Authorization-like header names, or any name listed in `extra` (case-insensitive)."""
    low = name.lower()
    if low in {e.lower() for e in extra} or low in _SECRET_HEADERS:
        return True
    return low not in _PROTOCOL_SESSION and is_secret_name(name)


def is_secret_value(value: str | None) -> bool:
    """True for a non-empty value that is neither a variable reference nor already redacted."""
    if not value or is_placeholder(value):
        return False
    return _AUTH_SCHEME.sub("", value).strip() != REDACTED


def looks_secret(value: str | None) -> bool:
    """True for a value shaped like a credential whatever its name: a known token prefix (`ghp_`, `sk-`,
    `eyJ`…), a scheme-prefixed token (`Bearer …`), or one long run of token characters mixing letters
    and digits that is not a path."""
    if not value or not is_secret_value(value):
        return False
    if _AUTH_SCHEME.match(value):
        return True
    text = value.strip()
    if text.startswith(_KNOWN_PREFIXES) and len(text) >= 12:
        return True
    if not _TOKEN_SHAPE.match(text) or text[0] in "/.~-" or text.count("/") > 1:
        return False
    return any(
        len(piece) >= 12 and any(c.isalpha() for c in piece) and any(c.isdigit() for c in piece)
        for piece in _TOKEN_PIECES.split(text)
    )


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
        if not is_secret_name(flag.lstrip("-")):
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
    return any(_secret_query(k) and is_secret_value(v) for k, v in parse_qsl(parts.query))


def _secret_query(name: str) -> bool:
    return name.lower() not in _PROTOCOL_SESSION and is_secret_name(name)


def redact_url(url: str) -> str:
    """The URL with its password and secret-looking query values replaced."""
    try:
        if not url_has_secrets(url):
            return url
        parts = urlsplit(url)
    except ValueError:  # not a URL at all (an invalid port, say): nothing structured to keep
        return url
    netloc = parts.netloc
    if parts.password:
        netloc = f"{parts.username or ''}:{REDACTED}@{netloc.rpartition('@')[2]}"
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = [(k, REDACTED if _secret_query(k) and is_secret_value(v) else v) for k, v in pairs]
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, safe="<>${}")))


def redact_args(args: list[str]) -> list[str]:
    """A copy of `args` with secret flag values (`--token=X`, `--api-key X`) and URL passwords replaced."""
    out = [redact_dsn(arg) for arg in args]
    for i in secret_arg_indexes(out):
        flag, eq, _ = out[i].partition("=")
        out[i] = f"{flag}={REDACTED}" if eq and flag.startswith("-") else REDACTED
    return out


def redact_headers(headers: Mapping[str, str], extra: Iterable[str] = ()) -> dict[str, str]:
    """A copy of `headers` with Authorization-like values (and those named in `extra`) replaced."""
    extra = list(extra)
    return {k: redact_value(v) if is_secret_header(k, extra) else v for k, v in headers.items()}


def redact_dsn(text: str) -> str:
    """`text` with the password of every `scheme://user:password@host` in it replaced (a `${…}` reference
    is no password: kept)."""

    def hide(m: re.Match[str]) -> str:
        return m.group(0) if is_placeholder(m.group(1)) else m.group(0)[: m.start(1) - m.start(0)] + REDACTED + "@"

    return _URL_WITH_PASSWORD.sub(hide, text)


def url_passwords(text: str) -> list[str]:
    """The passwords of the `scheme://user:password@host` URLs (DSNs) in `text`."""
    return [m.group(1) for m in _URL_WITH_PASSWORD.finditer(text)]


def secret_arguments(value: Any) -> list[str]:
    """The string values held under a secret-looking name anywhere in a tool call's arguments (`password`,
    `apiToken`, nested too): what the user typed into a secret-looking field, to redact by value."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and is_secret_name(key):
                found += _strings(item)
            else:
                found += secret_arguments(item)
    elif isinstance(value, list):
        for item in value:
            found += secret_arguments(item)
    return found


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def hide_secret_arguments(value: Any) -> Any:
    """A copy of tool call arguments with every text value under a secret-looking name replaced (by name: a
    value too short to learn by value is hidden too; a number, such as `max_tokens`, is no secret)."""
    if isinstance(value, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and is_secret_name(k) and isinstance(v, str) and v
            else hide_secret_arguments(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [hide_secret_arguments(v) for v in value]
    return value


def call_secrets(raw: bytes, message: Any = None) -> list[str]:
    """The secret-named argument values of a `tools/call` request's wire bytes (none for anything else);
    `message`: those bytes parsed already (not parsed again)."""
    if b'"tools/call"' not in raw:
        return []
    if message is None:
        try:
            message = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            return []
    params = message.get("params") if isinstance(message, dict) and message.get("method") == "tools/call" else None
    return secret_arguments(params.get("arguments")) if isinstance(params, dict) else []


# Where a host sends what its user typed: a method → the member of its message that holds it (a request's
# params, or the result of the host's answer to that request from the server).
TYPED_BY_USER = {"tools/call": ("params", "arguments"), "prompts/get": ("params", "arguments")}
ANSWERED_BY_USER = {"elicitation/create": ("result", "content")}


def typed_secrets(message: Any, where: tuple[str, str]) -> list[str]:
    """The secret-named values (`password`, a nested `apiToken`) in `message[where[0]][where[1]]`, one of
    the places `TYPED_BY_USER` and `ANSWERED_BY_USER` name."""
    part = message.get(where[0]) if isinstance(message, dict) else None
    return secret_arguments(part.get(where[1])) if isinstance(part, dict) else []


def hide_json_strings(raw: bytes, values: Iterable[str]) -> bytes:
    """`raw` (one JSON message's bytes) with each of `values` written as a whole JSON string (`"pw1"`,
    quotes included) replaced by `"<redacted>"`: the by-name fallback for a secret argument's value too
    short to hide by value (the same string elsewhere in that one message is hidden with it)."""
    for value in values:
        if value and is_secret_value(value):
            for form in {json.dumps(value), json.dumps(value, ensure_ascii=False)}:
                raw = raw.replace(form.encode("utf-8"), f'"{REDACTED}"'.encode())
    return raw


def _forms(value: str) -> set[str]:
    """The spellings a value takes in what we write: as is, URL-encoded, JSON-escaped."""
    escaped = json.dumps(value)[1:-1]
    return {value, quote(value, safe=""), quote_plus(value), escaped, json.dumps(value, ensure_ascii=False)[1:-1]}


class Redactor:
    """Hides one server's secrets in everything MCP Lens writes about it: by value first (the values it
    was built from, in every spelling), then by name (headers, URL query, flags).

    Build it with `for_profile` (from the profile that connects, whose `secret_values` hold what its
    references resolved to) and add to it with `learn`; every writer (the traffic store, records,
    exports, copy as curl/CLI, the tap) applies the same object."""

    def __init__(self, values: Iterable[str] = (), *, secret_headers: Iterable[str] = ()) -> None:
        self.secret_headers: tuple[str, ...] = tuple(secret_headers)
        self._values: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        self._bytes_pattern: re.Pattern[bytes] | None = None
        self.learn(values)

    def __bool__(self) -> bool:
        return bool(self._values)

    @property
    def values(self) -> frozenset[str]:
        return frozenset(self._values)

    def learn(self, values: Iterable[str], *, secret_headers: Iterable[str] = ()) -> Redactor:
        """Add secret values (those too short or already placeholders are ignored); returns self."""
        added = False
        for value in values:
            if not isinstance(value, str):
                continue
            text = _AUTH_SCHEME.sub("", value).strip()
            for candidate in {value.strip(), text}:
                if len(candidate) >= MIN_VALUE_LENGTH and is_secret_value(candidate) and not _TRIVIAL.match(candidate):
                    for form in _forms(candidate):
                        if form not in self._values:
                            self._values.add(form)
                            added = True
        extra = tuple(h for h in secret_headers if h.lower() not in {s.lower() for s in self.secret_headers})
        self.secret_headers += extra
        if added:
            # Longest first: a value that contains another is replaced whole.
            alternatives = sorted(self._values, key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(v) for v in alternatives))
            self._bytes_pattern = re.compile(b"|".join(re.escape(v.encode("utf-8")) for v in alternatives))
        return self

    def merge(self, other: Redactor | None) -> Redactor:
        if other is not None:
            self.learn(other._values, secret_headers=other.secret_headers)
        return self

    @classmethod
    def for_profile(cls, profile: Any) -> Redactor:
        """The redactor of a server profile (duck-typed on `ServerProfile`, or a `StdioCommand`)."""
        return cls(profile_secrets(profile), secret_headers=getattr(profile, "secret_headers", None) or ())

    @classmethod
    def for_environment(cls, environ: Mapping[str, str], args: Iterable[str] = ()) -> Redactor:
        """The redactor of a process started with `environ` and `args` (the tap's): secret-named and
        credential-shaped variables, secret flags' values, DSN passwords."""
        args = list(args)
        values = [v for k, v in environ.items() if is_secret_name(k) or looks_secret(v)]
        values += [p for v in environ.values() for p in url_passwords(v)]
        values += _arg_secrets(args)
        return cls(values)

    # -- applying -------------------------------------------------------------------------------
    def text(self, text: str) -> str:
        """`text` with every known secret value replaced, and the passwords of URLs in it."""
        if self._pattern is not None:
            text = self._pattern.sub(REDACTED, text)
        return redact_dsn(text) if "://" in text else text

    def data(self, raw: bytes) -> bytes:
        """Bytes with every known secret value replaced (by value only: these are wire bytes)."""
        if self._bytes_pattern is None:
            return raw
        return self._bytes_pattern.sub(REDACTED.encode(), raw)

    def url(self, url: str) -> str:
        return redact_url(self.text(url))

    def args(self, args: list[str]) -> list[str]:
        return redact_args([self.text(arg) for arg in args])

    def header_pairs(self, headers: Iterable[Iterable[str]]) -> list[list[str]]:
        """`[name, value]` pairs with Authorization-like values and known secrets replaced."""
        out = []
        for name, value in headers:
            value = redact_value(value) if is_secret_header(name, self.secret_headers) else value
            out.append([name, self.text(value)])
        return out

    def json(self, value: Any) -> Any:
        """A copy of a JSON-like value with every string redacted by value (and URLs by name)."""
        if isinstance(value, str):
            return self.text(redact_url(value) if value.startswith(("http://", "https://")) else value)
        if isinstance(value, dict):
            return {k: self.json(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.json(v) for v in value]
        return value

    def http(self, meta: dict[str, Any] | None) -> dict[str, Any] | None:
        """A recorded HTTP exchange's metadata: its URL and headers redacted by name and value."""
        if not meta:
            return meta
        out = dict(meta)
        if isinstance(out.get("url"), str):
            out["url"] = self.url(out["url"])
        if isinstance(out.get("headers"), list):
            pairs = [p for p in out["headers"] if isinstance(p, list | tuple) and len(p) == 2]
            out["headers"] = self.header_pairs((str(k), str(v)) for k, v in pairs)
        return self.json(out)

    def profile(self, profile: Any) -> Any:
        """A copy of a `ServerProfile` with every secret replaced, by name and by value."""
        return profile.redacted(self)


def _arg_secrets(args: list[str]) -> list[str]:
    values = []
    for i in secret_arg_indexes(args):
        flag, eq, value = args[i].partition("=")
        values.append(value if eq and flag.startswith("-") else args[i])
    return values + [p for arg in args for p in url_passwords(arg)]


def profile_secrets(profile: Any) -> list[str]:
    """The secret values a profile holds: secret-named or credential-shaped env and header values, the
    bearer token and client secret, secret flags' values, URL query values (but one plain word under a
    name that does not look secret) and passwords (a DSN's too),
    and the values its `${…}` references resolved to (`secret_values`, set by `resolve_profile`)."""
    values: list[str] = list(getattr(profile, "secret_values", None) or ())
    extra = getattr(profile, "secret_headers", None) or ()
    for name, value in (getattr(profile, "env", None) or {}).items():
        if is_secret_name(name) or looks_secret(value):
            values.append(value)
    for name, value in (getattr(profile, "headers", None) or {}).items():
        if is_secret_header(name, extra) or looks_secret(value):
            values.append(value)
    for key in ("bearer_token", "oauth_client_secret", "oauth_idp_client_secret"):
        if isinstance(value := getattr(profile, key, None), str):
            values.append(value)
    args = list(getattr(profile, "args", None) or ())
    values += _arg_secrets(args)
    values += [arg for arg in args if looks_secret(arg) and not arg.startswith("-")]
    url = getattr(profile, "url", None) or ""
    if url:
        try:
            parts = urlsplit(url)
            values += [v for k, v in parse_qsl(parts.query) if _secret_query(k) or not _PLAIN_WORD.match(v)]
            if parts.password:
                values.append(parts.password)
        except ValueError:
            pass
    every = [*(getattr(profile, "env", None) or {}).values(), *(getattr(profile, "headers", None) or {}).values()]
    values += [p for text in every for p in url_passwords(text)]
    return values
