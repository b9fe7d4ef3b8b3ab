"""Where each expectation the doctor checks comes from: the spec's sections (named in the 2025-11-25
version; a report in the modern era names them in 2026-07-28's, `report.DoctorReport.add`), a host's
documented rule, or MCP Lens's own form and lints."""

SPEC = "MCP 2025-11-25"
MODERN_SPEC = "MCP 2026-07-28"
SECTION_LIFECYCLE = f"{SPEC} · Base protocol › Lifecycle"
SECTION_STDIO = f"{SPEC} · Base protocol › Transports › stdio"
SECTION_TOOLS = f"{SPEC} · Server features › Tools"
SECTION_TOOL_NAMES = f"{SPEC} · Server features › Tools › Tool names"
SECTION_TOOL_ERRORS = f"{SPEC} · Server features › Tools › Error handling (SEP-1303: input errors as isError)"
SECTION_STRUCTURED = f"{SPEC} · Server features › Tools › Output schema"
SECTION_RESOURCES = f"{SPEC} · Server features › Resources"
SECTION_TEMPLATES = f"{SPEC} · Server features › Resources › Resource templates"
SECTION_PROMPTS = f"{SPEC} · Server features › Prompts"
SECTION_PAGINATION = f"{SPEC} · Server features › Utilities › Pagination"
SECTION_LIST_CHANGED = f"{SPEC} · Server features › Tools › List changed notification"
SECTION_PING = f"{SPEC} · Base protocol › Utilities › Ping"
SECTION_SCHEMA = f"{SPEC} · Base protocol › Overview › JSON Schema usage (2020-12 by default)"
SECTION_CLAUDE = (
    "Anthropic API · Tool use (name ^[a-zA-Z0-9_-]{1,64}$); Claude Code names MCP tools mcp__<server>__<tool>"
)
SECTION_LENS_FORM = "MCP Lens · the Tools form (inspector/schema)"
SECTION_LENS_BUDGET = "MCP Lens · Budget lints (the Budget tab, mcp-lens tokens)"
SECTION_DNS_REBINDING = (
    f"{SPEC} · Base protocol › Transports › Streamable HTTP › Security warning "
    "(servers MUST validate the Origin header; bind local servers to localhost: DNS rebinding)"
)
SECTION_SESSIONS = f"{SPEC} · Base protocol › Transports › Streamable HTTP › Session management"
SECTION_STREAMS = (
    f"{SPEC} · Base protocol › Transports › Streamable HTTP › Multiple connections (a client MAY keep several "
    "streams open at once; SEP-1699)"
)
SECTION_RESOURCE_ERRORS = f"{SPEC} · Server features › Resources › Error handling"
SECTION_NOT_FOUND_MODERN = f"{MODERN_SPEC} · Server features › Resources › Error handling (SEP-2164)"
SECTION_MCP_HEADERS = (
    f"{MODERN_SPEC} · Base protocol › Transports › Streamable HTTP › Standard headers (SEP-2243: Mcp-Method, "
    "Mcp-Name; server validation, HTTP 400 and -32020 HeaderMismatch)"
)
SECTION_STATELESS = f"{MODERN_SPEC} · Base protocol › Lifecycle › Per-request _meta and version negotiation (SEP-2575)"
SECTION_CACHING = f"{MODERN_SPEC} · Server features › Utilities › Caching (SEP-2549: ttlMs, cacheScope)"
SECTION_INPUT_REQUIRED = (
    f"{MODERN_SPEC} · Base protocol › Multi round-trip requests (SEP-2322: input_required only on tools/call, "
    "prompts/get, resources/read; requestState integrity-checked)"
)
SECTION_HOSTS = (
    "Hosts' own rules (inspector/budget/host_rules.py): each verdict names its rule, source and date checked"
)
