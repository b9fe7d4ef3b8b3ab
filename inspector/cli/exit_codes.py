"""The CLI's exit codes, and the help text listing them. The core's errors carry theirs (`LensError.exit_code`).

tests/cli/test_exit_codes.py checks the errors' codes against these.
"""

from __future__ import annotations

OK = 0
USAGE = 2  # a bad command line, or an unreadable file
CONNECTION = 3  # `ConnectFailed`, or a stdio server that could not start
RPC_ERROR = 4  # `ProtocolError`: the server answered with a JSON-RPC error
TOOL_ERROR = 5  # `ToolFailed`: the tool answered isError: true
UNKNOWN_TOOL = 6  # `UnknownTool`
TIMEOUT = 7  # `RequestTimeout`
OVER_BUDGET = 8  # mcp-lens tokens: a total over --max-tokens
DIFF = 9  # mcp-lens tokens: a breaking change, or growth over --max-growth
TOKENIZER = 10  # mcp-lens tokens: the tokenizer is unavailable
AUTH = 11  # `AuthError`: an OAuth sign-in is needed or failed
INPUT_NEEDED = 12  # `InputNeeded`: the server asked for input (input_required) that --input-responses lacks
ASSERTION_FAILED = 13  # mcp-lens run: a collection step's assertion failed
DOCTOR_FINDINGS = 14  # mcp-lens doctor: a finding at or above --fail-on
SKILL_UNVERIFIED = 15  # --method skills/get: the skill's SKILL.md does not match its entry (size, digest, frontmatter)
REPLAY_UNMATCHED = 16  # mcp-lens replay --strict: a request the record has no answer for
REPLAY_DIFFERENT = 17  # mcp-lens replay --against: an answer differs from the record; mcp-lens diff: they differ
DAMAGED_FILE = 18  # mcp-lens run: the collection file is damaged (its intact steps ran and passed; the rest was lost)
INTERRUPTED = 130  # Ctrl+C

COLLIDING_FLAGS = "Use -- before a server command whose flags collide with ours."


def describe(*codes: tuple[int, str]) -> str:
    """``Exit codes: 0 ok, 2 usage, …`` followed by the advice on ``--``, for a parser's epilog."""
    return "Exit codes: " + ", ".join(f"{code} {meaning}" for code, meaning in codes) + ". " + COLLIDING_FLAGS


CLI_EPILOG = describe(
    (OK, "ok"),
    (USAGE, "usage"),
    (CONNECTION, "connection"),
    (RPC_ERROR, "JSON-RPC error"),
    (TOOL_ERROR, "tool isError"),
    (UNKNOWN_TOOL, "unknown tool"),
    (TIMEOUT, "timeout"),
    (AUTH, "OAuth sign-in needed or failed"),
    (INPUT_NEEDED, "the server asked for input that --input-responses does not answer"),
    (SKILL_UNVERIFIED, "skills/get: the skill failed verification"),
)

TOKENS_EPILOG = describe(
    (OK, "ok"),
    (USAGE, "usage or unreadable file"),
    (CONNECTION, "connection"),
    (RPC_ERROR, "JSON-RPC error"),
    (TIMEOUT, "timeout"),
    (OVER_BUDGET, "over --max-tokens"),
    (DIFF, "breaking change or growth over --max-growth against --baseline"),
    (TOKENIZER, "tokenizer unavailable (e.g. anthropic without ANTHROPIC_API_KEY)"),
    (AUTH, "sign-in needed (--stored-auth-only)"),
)
