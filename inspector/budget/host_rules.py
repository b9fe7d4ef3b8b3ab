"""What each host does to a server's tool list: one table of rules, each with its source and the date checked.

A rule is ``confirmed`` when a primary source (the host's own documentation, or the host's own error
message quoted in a bug report) states it; otherwise it is shown as *unconfirmed* and its `note` says why.
The views (`inspector.budget.hosts`) apply unconfirmed rules too, but every finding they raise carries
the rule's confirmation, so a report never presents a guess as fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.budget.schema_rules import (
    ANTHROPIC_ROOT_REFUSED,
    GEMINI_SCHEMA_FIELDS,
    OPENAI_ROOT_REFUSED,
    OPENAI_STRICT_REFUSED,
    OPENAI_STRICT_UNLISTED,
)

CHECKED = "2026-11-25"
SCHEMA_CHECKED = "2026-11-27"  # the schema and naming rules of host acceptance (`inspector.budget.acceptance`)

CLAUDE_CODE_MCP_DOC = "https://code.claude.com/docs/en/mcp"


@dataclass(frozen=True)
class HostRule:
    """One limit or behaviour of a host. `value` is what the views apply (a number, a pattern, a template)."""

    key: str
    value: Any
    summary: str
    source: str
    checked: str = CHECKED
    confirmed: bool = True
    note: str = ""

    @property
    def status(self) -> str:
        return "confirmed" if self.confirmed else "unconfirmed"

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "value": self.value,
            "summary": self.summary,
            "status": self.status,
            "source": self.source,
            "checked": self.checked,
            "note": self.note,
        }


@dataclass(frozen=True)
class Host:
    """A host: how it shapes the list (`shape` names a `shapes.SHAPES` entry) and its rules by key."""

    name: str
    label: str
    shape: str
    rules: tuple[HostRule, ...]
    note: str = ""

    def rule(self, key: str) -> HostRule | None:
        for rule in self.rules:
            if rule.key == key:
                return rule
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "shape": self.shape,
            "note": self.note,
            "rules": [r.to_json() for r in self.rules],
        }


# Rule keys the views understand.
NAME_PREFIX = "name-prefix"  # value: a template with {server}
NAME_PATTERN = "name-pattern"  # value: a regular expression the (prefixed) name must match
NAME_MAX = "name-max"  # value: characters of the (prefixed) name
DESCRIPTION_MAX = "description-max"  # value: UTF-16 code units kept of a description
TOOL_CAP = "tool-cap"  # value: tools sent per request
TOOL_SEARCH = "tool-search"  # value: the default mode, "on" (every tool deferred), "auto" or "off"
DEFER_THRESHOLD = "defer-threshold"  # value: share of the context window above which "auto" defers
# Host acceptance (`inspector.budget.acceptance`; the views above ignore these keys):
DESCRIPTION_LIMIT = "description-limit"  # value: characters; a longer description is refused (not cut)
SCHEMA_ROOT = "schema-root"  # value: keywords refused at the root; the root must also be type "object"
SCHEMA_FIELDS = "schema-fields"  # value: the only keywords a schema may hold (any other is refused)
SCHEMA_REFUSED = "schema-refused"  # value: keywords refused anywhere in the schema
SCHEMA_SINGLE_TYPE = "schema-single-type"  # value: True; a list of types ("type": ["string", "null"]) is refused
STRICT_CLOSED = "strict-closed"  # value: True; every object schema says additionalProperties: false
STRICT_REQUIRED = "strict-required"  # value: True; every object schema lists all its properties as required

_CLAUDE_NAME_ISSUE = "https://github.com/anthropics/claude-code/issues/2326"
_OPENAI_NAME = "OpenAI Chat Completions API reference, tools[].function.name"
_STRICT_GUIDE = (
    "OpenAI Structured Outputs guide, 'Supported schemas' (https://platform.openai.com/docs/guides/structured-outputs)"
)

_ANTHROPIC_ROOT = HostRule(
    SCHEMA_ROOT,
    ANTHROPIC_ROOT_REFUSED,
    "input_schema must be an object at the root, without oneOf, allOf or anyOf there",
    "Anthropic Messages API, tools[].input_schema; its error 'input_schema does not support oneOf, allOf, or anyOf "
    "at the top level' quoted from Claude Code in https://github.com/anthropics/claude-code/issues/5319 and #5878",
    SCHEMA_CHECKED,
)
_CLAUDE_NAME_PATTERN = HostRule(
    NAME_PATTERN,
    r"^[a-zA-Z0-9_-]{1,128}$",
    "tool names must match ^[a-zA-Z0-9_-]{1,128}$ (no spaces, dots or slashes)",
    "Claude Code's API error 'tools.16.custom.name: String should match pattern ^[a-zA-Z0-9_-]{1,128}$' quoted in "
    "https://github.com/modelcontextprotocol/modelcontextprotocol/issues/1345",
    SCHEMA_CHECKED,
)
_OPENAI_ROOT = HostRule(
    SCHEMA_ROOT,
    OPENAI_ROOT_REFUSED,
    "parameters must be type object, without oneOf, anyOf, allOf, enum or not at the top level",
    "OpenAI API error 'schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the "
    "top level' (invalid_function_parameters), quoted in https://github.com/nspady/google-calendar-mcp/issues/39 "
    "and https://github.com/langchain-ai/langchainjs/issues/9804",
    SCHEMA_CHECKED,
)
_OPENAI_DESCRIPTION = HostRule(
    DESCRIPTION_LIMIT,
    1024,
    "a function description longer than 1,024 characters is refused (string_above_max_length)",
    "OpenAI API error 'Invalid tools[13].function.description: string too long. Expected a string with maximum "
    "length 1024' quoted in https://github.com/getsentry/sentry-mcp/issues/106",
    SCHEMA_CHECKED,
)
_OPENAI_CAP = HostRule(
    TOOL_CAP,
    128,
    "at most 128 tools per request",
    "widely reported API error (e.g. https://shreyashkolhe.blogspot.com/2026/02/feature-dynamic-"
    "tool-selection-solving.html)",
    confirmed=False,
    note="not found in the API reference pages searched",
)
_OPENAI_NAME_PATTERN = HostRule(
    NAME_PATTERN,
    r"^[a-zA-Z0-9_-]{1,64}$",
    "function names: a-z, A-Z, 0-9, underscores and dashes, at most 64 characters",
    _OPENAI_NAME + " (API error 'does not match ^[a-zA-Z0-9_-]{1,64}$')",
)

HOSTS: dict[str, Host] = {
    host.name: host
    for host in (
        Host(
            "claude-code",
            "Claude Code",
            "anthropic",
            (
                HostRule(
                    NAME_PREFIX,
                    "mcp__{server}__",
                    "tools are named mcp__<server>__<tool>",
                    CLAUDE_CODE_MCP_DOC,
                    note="characters of the server name outside A-Z a-z 0-9 _ - are shown as _ here "
                    "(the docs say spaces become underscores; other characters are our reading)",
                ),
                HostRule(
                    NAME_MAX,
                    64,
                    "the prefixed name is held to 64 characters; a longer one fails the API request",
                    f"{_CLAUDE_NAME_ISSUE} (API error 'tools.N.custom.name: String should have at most 64 "
                    "characters'); https://github.com/mims-harvard/ToolUniverse/issues/65 (64 works, 65 fails)",
                ),
                HostRule(
                    DESCRIPTION_MAX,
                    2048,
                    "tool descriptions (and server instructions) are truncated at 2KB each",
                    CLAUDE_CODE_MCP_DOC + " ('Claude Code truncates tool descriptions and server instructions at "
                    "2KB each')",
                    note="counted here as 2,048 UTF-16 code units per description, never splitting a surrogate "
                    "pair (a published capture of Claude Code 2.1's requests); whether a marker is appended is "
                    "not documented",
                ),
                HostRule(
                    TOOL_SEARCH,
                    "on",
                    "tool search is on by default: MCP tools are deferred, only tool names (and server "
                    "instructions) load at session start",
                    CLAUDE_CODE_MCP_DOC + " ('Configure tool search', ENABLE_TOOL_SEARCH)",
                    note="a deferred tool is counted as its name only; off on Vertex AI, with a non-first-party "
                    "ANTHROPIC_BASE_URL, and for Haiku models",
                ),
                HostRule(
                    DEFER_THRESHOLD,
                    0.10,
                    "with ENABLE_TOOL_SEARCH=auto, schemas load upfront while they fit within 10% of the context "
                    "window and the overflow is deferred (auto:N sets another percentage)",
                    CLAUDE_CODE_MCP_DOC + " ('Configure tool search')",
                    note="which tools count as overflow is not documented: here the tools past the threshold, "
                    "in list order",
                ),
                _CLAUDE_NAME_PATTERN,
                _ANTHROPIC_ROOT,
            ),
            note="figures for the default model; tool search needs Sonnet 4+ or Opus 4+",
        ),
        Host(
            "claude-desktop",
            "Claude Desktop",
            "anthropic",
            (
                HostRule(
                    NAME_PATTERN,
                    r"^[a-zA-Z0-9_-]{1,64}$",
                    "tool names must match ^[a-zA-Z0-9_-]{1,64}$; a tool that breaks it is unusable",
                    "https://github.com/anthropics/claude-code/issues/34960 (Claude Desktop's error "
                    "'FrontendRemoteMcpToolDefinition.name: String should have at most 64 characters'); "
                    "https://github.com/AutomateLab-tech/citation-intelligence/issues/1 (pattern, dots rejected)",
                    note="seen in the host's own error messages; not in Anthropic's Claude Desktop documentation",
                ),
                HostRule(
                    SCHEMA_ROOT,
                    ANTHROPIC_ROOT_REFUSED,
                    _ANTHROPIC_ROOT.summary,
                    _ANTHROPIC_ROOT.source,
                    SCHEMA_CHECKED,
                    confirmed=False,
                    note="Claude Desktop sends tools to Anthropic's API; the error is quoted from Claude Code and "
                    "the API, not seen from Claude Desktop itself",
                ),
            ),
            note="no documented description or tool-count limit",
        ),
        Host(
            "cursor",
            "Cursor",
            "openai",
            (
                HostRule(
                    TOOL_CAP,
                    40,
                    "about 40 active MCP tools are sent to the agent",
                    "https://forum.cursor.com/t/tool-specialized-agent-switching-in-cursor-dynamic-mcp-tools-"
                    "management/74196 (a user's 'limit of 40 active tools'); third-party guides repeat it",
                    confirmed=False,
                    note="not found in Cursor's documentation (docs.cursor.com/chat/tools); the figure is "
                    "commonly cited, not confirmed",
                ),
            ),
            note="Cursor sends to several model providers; counted in the OpenAI shape",
        ),
        Host(
            "vscode",
            "VS Code",
            "openai",
            (
                HostRule(
                    TOOL_CAP,
                    128,
                    "at most 128 tools per chat request ('You may not include more than 128 tools in your request')",
                    "https://github.com/microsoft/vscode/issues/290356; https://qiita.com/baku2san/items/"
                    "459a1b9b8332f943e2e2 (the error, and virtual tools grouping past the limit)",
                    note="a limit on all tools of a request (built-in, extensions and every MCP server); recent "
                    "versions group tools past a threshold into virtual tools",
                ),
                HostRule(
                    NAME_PATTERN,
                    r"^[A-Za-z0-9_-]+$",
                    "a tool whose name holds other characters than letters, digits, _ and - is invalid and not offered",
                    "VS Code's log line 'Tool \"PUT_/session/{id}\" is invalid. Tools names may only contain "
                    "[a-z0-9_-]' quoted in https://github.com/jedisct1/openapi-mcp/issues/9",
                    SCHEMA_CHECKED,
                    confirmed=False,
                    note="one report (2025-06); the same report says upper case was refused too, which the log line "
                    "does not say: upper case is let through here",
                ),
            ),
            note="GitHub Copilot Chat sends to several model providers; counted in the OpenAI shape",
        ),
        Host(
            "openai",
            "OpenAI API",
            "openai",
            (_OPENAI_NAME_PATTERN, _OPENAI_CAP, _OPENAI_DESCRIPTION, _OPENAI_ROOT),
        ),
        Host(
            "openai-strict",
            "OpenAI strict",
            "openai",
            (
                _OPENAI_NAME_PATTERN,
                _OPENAI_CAP,
                _OPENAI_DESCRIPTION,
                _OPENAI_ROOT,
                HostRule(
                    STRICT_CLOSED,
                    True,
                    "every object schema must say additionalProperties: false",
                    _STRICT_GUIDE + " ('additionalProperties: false must always be set in objects')",
                    SCHEMA_CHECKED,
                ),
                HostRule(
                    STRICT_REQUIRED,
                    True,
                    "every property must be listed in required (an optional one is written as a union with null)",
                    _STRICT_GUIDE + " ('All fields must be required')",
                    SCHEMA_CHECKED,
                ),
                HostRule(
                    SCHEMA_REFUSED,
                    OPENAI_STRICT_REFUSED,
                    "keywords outside the supported subset are refused: " + ", ".join(OPENAI_STRICT_REFUSED),
                    _STRICT_GUIDE + "; the API's 'In context=(properties, data), allOf is not permitted' quoted in "
                    "https://github.com/makenotion/notion-mcp-server/issues/102",
                    SCHEMA_CHECKED,
                ),
                HostRule(
                    SCHEMA_REFUSED,
                    OPENAI_STRICT_UNLISTED,
                    "keywords the supported list does not name: " + ", ".join(OPENAI_STRICT_UNLISTED),
                    _STRICT_GUIDE,
                    SCHEMA_CHECKED,
                    confirmed=False,
                    note="absent from the guide's list of supported properties; no refusal of them seen quoted",
                ),
            ),
            note="function calling with strict: true (Structured Outputs); counted in the OpenAI shape",
        ),
        Host(
            "gemini",
            "Gemini",
            "openai",
            (
                HostRule(
                    NAME_PATTERN,
                    r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$",
                    "function names start with a letter or _, then letters, digits, _ . : -, at most 64 characters",
                    "Gemini API reference, FunctionDeclaration.name (https://ai.google.dev/api/caching#FunctionDeclaration)",
                    SCHEMA_CHECKED,
                ),
                HostRule(
                    SCHEMA_FIELDS,
                    GEMINI_SCHEMA_FIELDS,
                    "parameters are an OpenAPI 3.0 subset: any other keyword ($schema, $ref, additionalProperties, "
                    "const, oneOf, exclusiveMinimum, …) is refused",
                    "Gemini API reference, Schema ('a select subset of an OpenAPI 3.0 schema object', "
                    'https://ai.google.dev/api/caching#Schema); its 400 \'Unknown name "additionalProperties" at '
                    "tools[0].function_declarations[0].parameters: Cannot find field' quoted in "
                    "https://github.com/mem0ai/mem0/issues/1820 and https://github.com/openswarm-ai/openswarm/issues/24",
                    SCHEMA_CHECKED,
                ),
                HostRule(
                    SCHEMA_SINGLE_TYPE,
                    True,
                    "type is one type, never a list (nullable: true says null)",
                    'Gemini API reference, Schema.type; its 400 \'Unknown name "type" …: Proto field is not '
                    "repeating, cannot start list' quoted in https://github.com/zed-industries/zed/issues/53919",
                    SCHEMA_CHECKED,
                ),
            ),
            note="the Gemini API's parameters field as hosts that turn MCP tools into function declarations send "
            "it; its parametersJsonSchema field takes JSON Schema and is not modelled here; counted in the OpenAI "
            "shape",
        ),
        Host(
            "anthropic",
            "Anthropic API",
            "anthropic",
            (
                HostRule(
                    NAME_PATTERN,
                    r"^[a-zA-Z0-9_-]{1,128}$",
                    "tool names must match ^[a-zA-Z0-9_-]{1,128}$",
                    "API error quoted at https://brainxx.org/blog/fixing-subagent-tool-naming-error ('tools.17.custom."
                    "name: String should match pattern ^[a-zA-Z0-9_-]{1,128}$')",
                    confirmed=False,
                    note="sources disagree: 2025 errors say at most 64 characters, later ones {1,128}",
                ),
                HostRule(
                    NAME_MAX,
                    64,
                    "a tool name longer than 64 characters is refused",
                    f"{_CLAUDE_NAME_ISSUE} (API error 'tools.N.custom.name: String should have at most 64 characters')",
                    SCHEMA_CHECKED,
                ),
                _ANTHROPIC_ROOT,
            ),
            note="no documented tool-count limit",
        ),
    )
}


def host_names() -> list[str]:
    """Every host name, in table order (``claude-code``, ``claude-desktop``, ``cursor``, …)."""
    return list(HOSTS)


def find_host(text: str) -> Host:
    """A host by name or label, case and spacing ignored. Raises `KeyError` naming the choices."""
    wanted = "".join(text.lower().split()).replace("_", "-")
    for host in HOSTS.values():
        if wanted in (host.name, "".join(host.label.lower().split()), host.label.lower().replace(" ", "-")):
            return host
    raise KeyError(f"unknown host {text!r}; choose one of {', '.join(HOSTS)}")


# How each host loads a server's skills (Skills, SEP-2640) into its context: one rule per host whose way is
# known, beside the host table (the views above ignore it). A host missing here is said "not known".
SKILLS_LISTING_KEY = "skills-listing"  # value: {"description_chars": N, "window_share": F} or {"loads": False}
SKILLS_CHECKED = "2026-11-27"
CLAUDE_CODE_SKILLS_DOC = "https://code.claude.com/docs/en/skills"

SKILLS_LISTING: dict[str, HostRule] = {
    "claude-code": HostRule(
        SKILLS_LISTING_KEY,
        {"description_chars": 1536, "window_share": 0.01},
        "skills are listed by name and description, each description cut at 1,536 characters "
        "(skillListingMaxDescChars); the listing gets 1% of the context window (skillListingBudgetFraction), "
        "past which descriptions of the least-used skills are dropped",
        CLAUDE_CODE_SKILLS_DOC + " as quoted at https://getknack.ai/blog/claude-code-skill-listing-budget and "
        "https://claudecodeguides.com/claude-skills-performance-optimization/ (Claude Code 2.1.129)",
        SKILLS_CHECKED,
        confirmed=False,
        note="the rule of Claude Code's own skills, read from secondary sources; whether Claude Code lists an "
        "MCP server's skills (SEP-2640) the same way is not documented",
    ),
    "anthropic": HostRule(
        SKILLS_LISTING_KEY,
        {"loads": False},
        "the Messages API's MCP connector takes a server's tools only: it loads no skills from a server",
        "https://docs.claude.com/en/docs/agents-and-tools/mcp-connector ('Of the feature set of the MCP "
        "specification, only tool calls are currently supported')",
        SKILLS_CHECKED,
        note="a caller that reads a server's skills itself sends them as its own text, which this figure does "
        "not count",
    ),
}
