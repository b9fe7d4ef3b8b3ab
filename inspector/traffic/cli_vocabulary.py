"""The words of ``mcp-lens --cli``: its methods, its options and what each method needs. Pure data.

Shared by the parser (`inspector.cli.args`) and "copy as command" (`inspector.traffic.commands`, used by
the traffic log, the call history and the Resources/Prompts tabs), so a command the app copies is one the
CLI parses. It lives here, below the CLI, so the app and the core can use it without importing the CLI;
it imports nothing.
"""

from __future__ import annotations

import re

PROGRAM = ("mcp-lens", "--cli")

TOOL_METHODS = ("initialize", "tools/list", "tools/call", "ping")
RESOURCE_PROMPT_METHODS = (
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "prompts/get",
    "logging/setLevel",
)
TASK_METHODS = ("tasks/list", "tasks/get", "tasks/cancel")
SKILL_METHODS = ("skills/list", "skills/get")  # the Skills extension (SEP-2640)
METHODS = (*TOOL_METHODS, *RESOURCE_PROMPT_METHODS, *TASK_METHODS, *SKILL_METHODS)
FORMATS = ("json", "text")
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

# method → (the `CliArgs` field, the option) it cannot run without
REQUIRED: dict[str, tuple[str, str]] = {
    "tools/call": ("tool_name", "--tool-name"),
    "resources/read": ("uri", "--uri"),
    "prompts/get": ("prompt_name", "--prompt-name"),
    "logging/setLevel": ("log_level", "--log-level"),
    "tasks/get": ("task_id", "--task-id"),
    "tasks/cancel": ("task_id", "--task-id"),
    "skills/get": ("skill", "--skill"),
}

# The options that say which server and how to reach it (shared with `mcp-lens tokens`) → takes a value.
TARGET_OPTIONS: dict[str, bool] = {
    "--help": False,
    "-h": False,
    "--demo": False,
    "--server-url": True,
    "--transport": True,
    "--config": True,
    "--server": True,
    "-e": True,
    "--env": True,
    "--cwd": True,
    "--header": True,
    "--input": True,
    "--connect-timeout": True,
    "--request-timeout": True,
    "--stored-auth-only": False,
    "--protocol-era": True,
    "--protocol-version": True,
    # OAuth without a browser, the auth extensions, DPoP (`inspector/cli/auth_options.py`)
    "--oauth-grant": True,
    "--oauth-client-id": True,
    "--oauth-client-secret-env": True,
    "--oauth-private-key-file": True,
    "--oauth-jwt-file": True,
    "--oauth-jwt-env": True,
    "--oauth-idp-token-endpoint": True,
    "--oauth-idp-issuer": True,
    "--oauth-idp-client-id": True,
    "--oauth-idp-client-secret-env": True,
    "--oauth-issuer": True,
    "--oauth-scopes": True,
    "--dpop": False,
    "--secrets-file": False,  # no keyring: keep OAuth tokens in a user-only file
}

# Every option of `mcp-lens --cli` → takes a value. Words not in here belong to the server command.
OPTIONS: dict[str, bool] = {
    **TARGET_OPTIONS,
    "--cli": False,
    "--method": True,
    "--tool-name": True,
    "--tool-arg": True,  # then more KEY=VALUE words, as the official CLI takes them
    "--tool-args-json": True,
    "--format": True,
    "--max-timeout": True,
    "--record": True,
    "--uri": True,
    "--prompt-name": True,
    "--prompt-args": True,  # then more KEY=VALUE words, as the official CLI takes them
    "--log-level": True,
    "--task-id": True,
    "--as-task": False,
    "--input-responses": True,
    "--skill": True,
}
# The options that take several words after one flag, as the official CLI's variadic options do; the words
# that follow stay the option's while they look like its values (a server command never starts that way).
MULTI_VALUE = ("--tool-arg", "--prompt-args", "--header")

_PAIR = re.compile(r"^[^-=\s][^=\s]*=")
_HEADER = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+:(?!//)")


def is_pair(word: str) -> bool:
    """A `KEY=VALUE` word (what `--tool-arg` and `--prompt-args` take several of); never a URL."""
    return bool(_PAIR.match(word)) and "://" not in word.split("=", 1)[0]


def is_header(word: str) -> bool:
    """A `Name: value` word (what `--header` takes several of); never a URL."""
    return bool(_HEADER.match(word))


def takes_more(option: str, word: str) -> bool:
    """Whether `word`, after `option`'s first value, is one more value of it."""
    if option == "--header":
        return is_header(word)
    return option in MULTI_VALUE and is_pair(word)
