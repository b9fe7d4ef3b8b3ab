"""DPoP-bound tokens (RFC 9449; the MCP DPoP extension, SEP-1932) around any of our OAuth providers.

`DpopProofs` is a mixin placed first in a provider's bases; it does nothing until `bind_dpop` gives the
provider a `DpopState` (the server's Auth settings chose DPoP). Then it wraps the provider's flow:

- every token request (any grant, refresh too) carries a `DPoP` proof for its URL; a token answered as
  `token_type: DPoP` is remembered as bound (the SDK's token model knows only Bearer: the answer is
  handed on as Bearer, the binding kept here and beside the token in storage);
- the caller's request presents a bound token as `Authorization: DPoP <token>` with a fresh proof whose
  `ath` is the token's hash;
- `use_dpop_nonce` (HTTP 400 from a token endpoint, RFC 9449 §8; HTTP 401 from the MCP server, §9) is
  answered once with a new proof carrying the server's `DPoP-Nonce`; each origin's last nonce is reused.

The proof key is an EC P-256 key per server, kept in that server's credentials record (keyring or a
0600 file, as the tokens are) once a token is bound to it; signing out drops it with the tokens it bound.
Each step goes to the auth log (the Auth tab's flow view). A proof holds only the public key and request
facts, so the traffic log shows the `DPoP` header as sent; the private key never leaves the credentials record.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
import uuid
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import httpx2

from inspector.auth.errors import AuthError
from inspector.auth.events import AuthLog

ALGORITHM = "ES256"
NO_DPOP = "mcp_lens_no_dpop"  # request extension: a request that must carry no proof (the enterprise IdP's)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _htu(url: str) -> str:
    """The proof's `htu`: the request URL without query and fragment (RFC 9449 §4.2)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def token_hash(token: str) -> str:
    """`ath`: base64url SHA-256 of the access token (RFC 9449 §4.2); also the binding kept in storage."""
    return _b64(hashlib.sha256(token.encode("ascii", "replace")).digest())


class DpopKey:
    """An EC P-256 key pair: signs proofs, offers its public JWK and thumbprint."""

    def __init__(self, private_pem: str | None = None) -> None:
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        key = load_pem_private_key(private_pem.encode(), password=None) if private_pem else None
        if key is not None and not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("the stored DPoP key is not an EC key")
        self._key = key if key is not None else ec.generate_private_key(ec.SECP256R1())
        numbers = self._key.public_key().public_numbers()
        self.public_jwk = {
            "kty": "EC",
            "crv": "P-256",
            "x": _b64(numbers.x.to_bytes(32, "big")),
            "y": _b64(numbers.y.to_bytes(32, "big")),
        }

    def pem(self) -> str:
        from cryptography.hazmat.primitives import serialization

        return self._key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        ).decode()

    @property
    def thumbprint(self) -> str:
        """RFC 7638 JWK thumbprint (what a bound token's `cnf.jkt` names)."""
        canonical = json.dumps(self.public_jwk, sort_keys=True, separators=(",", ":"))
        return _b64(hashlib.sha256(canonical.encode()).digest())

    def proof(self, method: str, url: str, *, nonce: str | None = None, access_token: str | None = None) -> str:
        """A fresh proof JWT for one request: a new `jti` each time."""
        import jwt

        claims: dict[str, Any] = {"jti": str(uuid.uuid4()), "htm": method.upper(), "htu": _htu(url)}
        claims["iat"] = int(time.time())
        if nonce:
            claims["nonce"] = nonce
        if access_token:
            claims["ath"] = token_hash(access_token)
        headers = {"typ": "dpop+jwt", "jwk": self.public_jwk}
        return jwt.encode(claims, self._key, algorithm=ALGORITHM, headers=headers)


@dataclass
class DpopState:
    """One server's DPoP: its key, the nonces each origin gave, the tokens known bound or unbound."""

    key: DpopKey
    storage: Any = None  # a ServerTokenStorage: the binding is kept beside the token
    log: AuthLog | None = None
    nonces: dict[str, str] = field(default_factory=dict)
    known: dict[str, bool] = field(default_factory=dict)  # token hash → bound (asked of storage once per token)

    def bound(self, token: str) -> bool:
        """A token goes as DPoP unless its authorization server issued it as Bearer."""
        digest = token_hash(token)
        if digest not in self.known:
            stored = self.storage.dpop_binding() if self.storage is not None else None
            self.known[digest] = stored != ("bearer", digest)
        return self.known[digest]

    def note(self, summary: str, *, ok: bool = True) -> None:
        if self.log is not None:
            self.log.add("dpop", summary, ok=ok)


def load_key(storage: Any) -> DpopKey:
    """The server's proof key from its credentials record, else a new one: kept there only once a token
    is bound to it (`keep_key`), so a failed sign-in leaves no private key behind."""
    pem = storage.dpop_key() if storage is not None else None
    if pem:
        try:
            return DpopKey(pem)
        except ValueError:
            pass  # a damaged key: a new one (the tokens it bound are useless anyway)
    return DpopKey()


def keep_key(state: DpopState) -> None:
    """Save the proof key in the credentials record unless it is already the one kept there."""
    if state.storage is not None:
        pem = state.key.pem()
        if state.storage.dpop_key() != pem:
            state.storage.save_dpop_key(pem)


def bind_dpop(provider: Any, storage: Any, log: AuthLog | None) -> Any:
    """Turn DPoP on for `provider` (a `DpopProofs`); returns it."""
    key = load_key(storage)
    provider.dpop = DpopState(key, storage, log)
    provider.dpop.note(f"DPoP on: proof key {ALGORITHM}, thumbprint {key.thumbprint}")
    return provider


def _form(request: httpx2.Request) -> dict[str, str]:
    from urllib.parse import parse_qsl

    if "x-www-form-urlencoded" not in request.headers.get("content-type", ""):
        return {}
    try:
        return dict(parse_qsl(request.content.decode("utf-8", "replace")))
    except httpx2.RequestNotRead:
        return {}


def _json(response: httpx2.Response) -> dict[str, Any]:
    try:
        value = json.loads(response.content)
    except (ValueError, httpx2.ResponseNotRead):
        return {}
    return value if isinstance(value, dict) else {}


class DpopProofs:
    """Mixin: proofs on the provider's token requests and on the caller's request; see the module docstring."""

    dpop: DpopState | None = None
    failure: AuthError | None = None  # what ended the flow (the CLI's exit 11, not a connection failure)

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        flow = super().async_auth_flow(request)  # type: ignore[misc]
        if self.dpop is None:
            try:
                outgoing = await flow.__anext__()
                while True:
                    outgoing = await flow.asend((yield outgoing))
            except StopAsyncIteration:
                return
            finally:
                await flow.aclose()
        state = self.dpop
        try:
            outgoing = await flow.__anext__()
            while True:
                token_request = outgoing is not request and "grant_type" in _form(outgoing)
                if outgoing.extensions.get(NO_DPOP):
                    response = yield outgoing
                    outgoing = await flow.asend(response)
                    continue
                self._prove(state, outgoing, token_request)
                response = yield outgoing
                self._keep_nonce(state, outgoing, response)
                if "/.well-known/oauth-authorization-server" in outgoing.url.path and response.status_code == 200:
                    self._check_algorithms(state, response)
                if self._nonce_challenge(response, token_request) and self._prove(state, outgoing, token_request):
                    state.note(f"{outgoing.url.host}: use_dpop_nonce; sending again with the server's nonce")
                    response = yield outgoing
                    self._keep_nonce(state, outgoing, response)
                    if self._nonce_challenge(response, token_request):  # one retry per request, no more
                        self._nonce_refused(state, outgoing)
                if token_request and response.status_code == 200:
                    response = self._token_answer(state, response)
                if outgoing is request and response.status_code < 400:
                    self.failure = None  # the server took a request: an earlier refusal is over
                outgoing = await flow.asend(response)
        except StopAsyncIteration:
            return
        finally:
            await flow.aclose()

    def _nonce_refused(self, state: DpopState, outgoing: httpx2.Request) -> NoReturn:
        """The server asked for a new nonce again after the retry that carried its nonce: stop (exit 11)."""
        token = "grant_type" in _form(outgoing)
        where = "authorization server's token endpoint" if token else "MCP server's endpoint"
        message = (
            f"the {where} {_htu(str(outgoing.url))} kept asking for a new DPoP nonce: "
            "the retry carrying the nonce it gave was refused again (use_dpop_nonce); stopped after one retry"
        )
        state.note(message, ok=False)
        operator = "authorization server's" if token else "server's"
        hint = f"A fault on the server's side: its DPoP nonce handling looks broken: tell the {operator} operator."
        self.failure = AuthError(message, hint=hint)
        raise self.failure

    @staticmethod
    def _prove(state: DpopState, outgoing: httpx2.Request, token_request: bool) -> bool:
        """Set a fresh proof on `outgoing`; False when it is neither a token request nor a bound token's."""
        nonce = state.nonces.get(_origin(str(outgoing.url)))
        if token_request:
            outgoing.headers["DPoP"] = state.key.proof(outgoing.method, str(outgoing.url), nonce=nonce)
            return True
        scheme, _, token = outgoing.headers.get("Authorization", "").partition(" ")
        if scheme.lower() not in ("bearer", "dpop") or not token or not state.bound(token):
            outgoing.headers.pop("DPoP", None)
            return False
        outgoing.headers["Authorization"] = f"DPoP {token}"
        outgoing.headers["DPoP"] = state.key.proof(outgoing.method, str(outgoing.url), nonce=nonce, access_token=token)
        return True

    @staticmethod
    def _keep_nonce(state: DpopState, outgoing: httpx2.Request, response: httpx2.Response) -> None:
        nonce = response.headers.get("DPoP-Nonce")
        origin = _origin(str(outgoing.url))
        if nonce and state.nonces.get(origin) != nonce:
            state.nonces[origin] = nonce
            state.note(f"{outgoing.url.host} gave a DPoP nonce (HTTP {response.status_code}); later proofs carry it")

    @staticmethod
    def _check_algorithms(state: DpopState, response: httpx2.Response) -> None:
        """Say when the authorization server's metadata does not offer DPoP with our algorithm."""
        algorithms = _json(response).get("dpop_signing_alg_values_supported")
        if algorithms is None:
            state.note("the authorization server's metadata does not list DPoP algorithms: it may issue Bearer tokens")
        elif not isinstance(algorithms, list) or ALGORITHM not in algorithms:
            state.note(f"the authorization server lists DPoP algorithms {algorithms!r}, not {ALGORITHM}", ok=False)

    @staticmethod
    def _nonce_challenge(response: httpx2.Response, token_request: bool) -> bool:
        if not response.headers.get("DPoP-Nonce"):
            return False
        if token_request:
            return response.status_code == 400 and _json(response).get("error") == "use_dpop_nonce"
        return response.status_code == 401 and "use_dpop_nonce" in response.headers.get("WWW-Authenticate", "")

    @staticmethod
    def _token_answer(state: DpopState, response: httpx2.Response) -> httpx2.Response:
        """Keep the binding; hand the SDK a token answer it accepts (it models only Bearer)."""
        body = _json(response)
        token, kind = body.get("access_token"), str(body.get("token_type", ""))
        if not isinstance(token, str):
            return response
        if kind.lower() != "dpop":
            state.known[token_hash(token)] = False
            if state.storage is not None:
                state.storage.save_dpop_binding("bearer", token_hash(token))
            state.note(f"the authorization server issued a {kind or 'typeless'} token, not DPoP-bound", ok=False)
            return response
        state.known[token_hash(token)] = True
        keep_key(state)
        if state.storage is not None:
            state.storage.save_dpop_binding("dpop", token_hash(token))
        state.note(f"DPoP-bound token issued (key thumbprint {state.key.thumbprint})")
        headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in _BODY_HEADERS]
        content = json.dumps({**body, "token_type": "Bearer"}).encode()
        return httpx2.Response(
            response.status_code,
            headers=headers,
            content=content,
            request=response.request,
            extensions=response.extensions,
        )


_BODY_HEADERS = frozenset({"content-length", "content-encoding", "transfer-encoding"})
