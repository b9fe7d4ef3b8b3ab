"""Answers to server-to-client requests: sampling, elicitation and roots, as plain async callables.

A `Connection` given `ClientHandlers` advertises exactly the capabilities it has handlers for and
routes `sampling/createMessage`, `elicitation/create` and `roots/list` to them. Handlers see and
return raw JSON dicts (the wire's camelCase keys); raising `Rejected` answers with a JSON-RPC error.
No Qt and no SDK import here: the UI, the CLI and the conformance client all build on this.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

SamplingHandler = Callable[[dict], Awaitable[dict]]
ElicitationHandler = Callable[[dict], Awaitable[dict]]
RootsHandler = Callable[[], Awaitable[list[dict]]]

ELICIT_ACTIONS = ("accept", "decline", "cancel")
# The client capabilities MCP Lens can declare, in this order; the app answers all three (its dialogs and the
# Roots panel), the CLI only those its --input-responses file answers by method name.
CAPABILITIES = ("sampling", "elicitation", "roots")
APP_CAPABILITIES = CAPABILITIES
CAPABILITY_METHODS = {"sampling": "sampling/createMessage", "elicitation": "elicitation/create", "roots": "roots/list"}
# The extensions MCP Lens implements, declared in both eras whatever the handlers (initialize's
# capabilities.extensions; each 2026-07-28 request's clientCapabilities): Skills (`core/skills.py`).
SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
EXTENSIONS: dict[str, dict] = {SKILLS_EXTENSION: {}}


def undeclared_note(declared: list[str], remedy: str | None = None) -> str | None:
    """What the CLI says when it declares less than the app: some servers list tools (or offer features)
    only to clients that declare these capabilities; `remedy` replaces the way to declare them. None when
    it declares as much as the app."""
    missing = [name for name in APP_CAPABILITIES if name not in declared]
    if not missing:
        return None
    answers = ", ".join(f'"{CAPABILITY_METHODS[name]}"' for name in missing)
    how = remedy or f"To declare one, answer it in --input-responses (a key {answers})"
    return (
        f"tools may be hidden: this CLI does not declare {', '.join(missing)}; the app does, and some servers "
        f"list tools only to clients that declare them. {how}"
    )


def app_note() -> str:
    """What the app says of the same difference (its Server panel)."""
    return (
        f"This app declares {', '.join(APP_CAPABILITIES)}: it answers them. mcp-lens --cli declares only those its "
        "--input-responses file answers, so a server may list fewer tools to it."
    )


class Rejected(Exception):
    """Raised by a handler to refuse a request: the server receives a JSON-RPC error."""

    def __init__(self, message: str, code: int = -1) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass
class ClientHandlers:
    """What the client answers. A `None` handler means the capability is not advertised."""

    sampling: SamplingHandler | None = None  # raw params dict → raw CreateMessageResult dict
    elicitation: ElicitationHandler | None = None  # raw params → {"action": …, "content": {…}}
    roots: RootsHandler | None = None  # → [{"uri": "file:///…", "name": "…"}]
    # 2026-07-28 input_required: (key, method, params) → result, when answers go by key (the CLI's file);
    # None: each input request goes to the handler of its kind above.
    input: Callable[[str, str, dict], Awaitable[dict]] | None = None

    def capabilities(self) -> list[str]:
        """Names of the client capabilities these handlers provide, for display."""
        names = (("sampling", self.sampling), ("elicitation", self.elicitation), ("roots", self.roots))
        return [name for name, handler in names if handler is not None]

    def wire_capabilities(self) -> dict:
        """The `capabilities` object these handlers advertise (the modern `_meta` envelope carries it)."""
        out: dict = {}
        if self.sampling is not None:
            out["sampling"] = {}
        if self.elicitation is not None:
            out["elicitation"] = {"form": {}, "url": {}}
        if self.roots is not None:
            out["roots"] = {"listChanged": True}
        return out


def declared_capabilities(handlers: ClientHandlers | None) -> dict:
    """Every client capability MCP Lens declares: what the handlers answer, and `EXTENSIONS`."""
    out = handlers.wire_capabilities() if handlers is not None else {}
    out["extensions"] = {name: dict(setting) for name, setting in EXTENSIONS.items()}
    return out


def elicitation_mode(params: dict) -> str:
    """The elicitation mode of a request's params: "form" (the default when absent) or "url"."""
    mode = params.get("mode")
    return mode if isinstance(mode, str) and mode else "form"


def text_reply(text: str, *, model: str = "mcp-lens-human", stop_reason: str | None = "endTurn") -> dict:
    """A CreateMessageResult dict carrying one assistant text block."""
    result: dict = {"role": "assistant", "content": {"type": "text", "text": text}, "model": model}
    if stop_reason:
        result["stopReason"] = stop_reason
    return result


class StaticRoots:
    """A roots handler over a mutable list of roots (the CLI, tests, the conformance client)."""

    def __init__(self, roots: list[dict] | None = None) -> None:
        self.roots: list[dict] = list(roots or [])

    async def __call__(self) -> list[dict]:
        return [dict(root) for root in self.roots]
