"""What the doctor's live checks share: the connection, the lists paged to their end, the report, and
`Crashed`, which ends the probes once the server is gone or stops answering."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspector.core.errors import ConnectFailed, LensError, ProtocolError, RequestTimeout, unknown_id_text
from inspector.doctor.report import DoctorOptions, DoctorReport
from inspector.doctor.sections import SECTION_LIFECYCLE, SECTION_PAGINATION

if TYPE_CHECKING:
    from inspector.core.operations import Operations


def failed(method: str, message: str) -> str:
    """`METHOD failed: why`, the method said once (the connection's message may already name it)."""
    said = f"{method} failed: "
    return message if message.startswith(said) else f"{said}{message}"


class Crashed(Exception):
    """The server is gone (or stopped answering); later probes are skipped."""

    def __init__(self, why: str = "the server is gone") -> None:
        super().__init__(why)
        self.why = why


@dataclass
class ProbeState:
    conn: Operations
    report: DoctorReport
    options: DoctorOptions
    seen: list[str]  # notification methods received so far
    tools: list[Any] = field(default_factory=list)
    resources: list[Any] = field(default_factory=list)
    templates: list[Any] = field(default_factory=list)
    prompts: list[Any] = field(default_factory=list)
    tokenizer: Any = None  # for the budget lints; None skips them
    unread: dict[str, str] = field(default_factory=dict)  # list key → the method that could not be read
    asked: str = "auto"  # the era the user chose ("auto": the doctor may try the other one too)

    def none_listed(self, check: str, key: str, what: str) -> None:
        """`check` has no items of `key` to work on: skipped if the list could not be read, else not applicable."""
        if key in self.unread:
            self.report.skip(check, f"{self.unread[key]} could not be read")
        else:
            self.report.not_applicable(check, f"the server lists no {what}")

    @property
    def owner(self) -> str:
        """The table check running now, which owns a finding about the server going away."""
        return self.report.running or "connects"

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """`method`'s result; a timeout raised once the server is seen answering something else (else
        `Crashed`: `still_answering`), a server gone said as a finding and `Crashed`."""
        handle = self.conn.new_handle(method, self.options.timeout)
        try:
            return await self.conn.request(method, params, handle=handle)
        except ConnectFailed as exc:
            self.report.add(
                "error",
                self.owner,
                "$",
                f"the server went away during {method}: {exc.message}",
                "a server that stays up and answers every request",
                SECTION_LIFECYCLE,
            )
            raise Crashed from None
        except RequestTimeout as exc:
            await self.still_answering(method, exc)
            raise

    def _liveness(self) -> str:
        """A request the server declared it answers, for `still_answering`."""
        caps = self.conn.capabilities
        listed = next((f"{kind}/list" for kind in ("tools", "prompts", "resources") if kind in caps), None)
        return listed or ("server/discover" if self.conn.era == "modern" else "ping")

    async def still_answering(self, what: str, hung: RequestTimeout | None = None) -> None:
        """After `what` hung: does the server answer anything else? If not, a finding of the check running
        blames `what`, and `Crashed` ends the checks."""
        method = self._liveness()
        try:
            await self.conn.request(method, None, handle=self.conn.new_handle(method, self.options.timeout))
        except RequestTimeout as exc:
            self.report.add(
                "error",
                self.owner,
                "$",
                f"the server stopped answering after {what} hung{stray(hung)} ({method} unanswered too"
                f"{stray(exc, ': ')})",
                "requests handled concurrently, or a hung one failing without blocking the rest",
                SECTION_LIFECYCLE,
            )
            raise Crashed("the server stopped answering") from None
        except ConnectFailed:
            raise Crashed() from None
        except LensError:
            pass  # it answered, if with an error

    async def page(self, method: str, key: str) -> tuple[list[Any], list[Any]]:
        """All items of a paginated list (at most `max_pages` pages) and the core's page findings."""
        from inspector.core.paging import check_page

        items: list[Any] = []
        findings: list[Any] = []
        cursor: str | None = None
        seen: set[str] = set()
        for pages in range(1, self.options.max_pages + 1):
            result = await self.request(method, {"cursor": cursor} if cursor is not None else None)
            base = f"$[page {pages - 1}]" if pages > 1 else "$"
            findings.extend(check_page(result, key, base))
            if isinstance(result.get(key), list):
                items.extend(result[key])
            else:
                self.unread[key] = method
            nxt = result.get("nextCursor")
            cursor = nxt if isinstance(nxt, str) else None
            if cursor is None:
                return items, findings
            if cursor in seen:
                self._endless(method, f"the cursor {cursor[:40]!r} came back after {pages} pages")
                return items, findings
            seen.add(cursor)
        self._endless(method, f"still a nextCursor after {self.options.max_pages} pages")
        return items, findings

    def _endless(self, method: str, why: str) -> None:
        self.report.add(
            "error",
            "pagination",
            "$.nextCursor",
            f"{method}: pagination never ends ({why})",
            "a last page without nextCursor; clients page until it is absent",
            SECTION_PAGINATION,
        )

    async def listed(self, method: str, key: str, section: str) -> tuple[list[Any], list[Any]]:
        """`page`, a failure said as a finding; the items named for the findings about them."""
        try:
            items, findings = await self.page(method, key)
            self.report.name_items(key, items)
            return items, findings
        except (ProtocolError, RequestTimeout) as exc:
            self.unread[key] = method
            self.report.add(
                "error",
                self.owner,
                "$",
                failed(method, exc.message),
                f"a {key} list (the capability is declared)",
                section,
            )
            return [], []

    def callable_tools(self) -> list[tuple[int, dict[str, Any]]]:
        """Tools the doctor may call: marked readOnlyHint, or named by the user; only those `allowed`, if given."""
        out = []
        allowed = self.options.allowed
        for index, tool in enumerate(self.tools):
            if not isinstance(tool, dict) or (allowed is not None and tool.get("name") not in allowed):
                continue
            hints = tool.get("annotations") if isinstance(tool.get("annotations"), dict) else {}
            if hints.get("readOnlyHint") is True or tool.get("name") in self.options.call:
                out.append((index, tool))
        return out


def stray(timeout: RequestTimeout | None, joined: str = "") -> str:
    """ " (the server answered with id X, which MCP Lens never sent (it sent id Y))" when it did, or after
    `joined` if given; else ""."""
    strays = timeout.details.get("unknown_ids") if timeout is not None else None
    if not strays:
        return ""
    said = unknown_id_text(strays, timeout.details.get("sent_id"))
    return f"{joined}{said}" if joined else f" ({said})"
