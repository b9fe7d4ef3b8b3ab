"""The CLI's exit codes: one module names them, the errors carry the same numbers, the help lists them."""

from __future__ import annotations

from lens_support import run_lens

from inspector.auth.errors import AuthError
from inspector.cli import exit_codes
from inspector.core.errors import ConnectFailed, ProtocolError, RequestTimeout, ToolFailed, UnknownTool


def test_the_errors_exit_with_the_named_codes() -> None:
    assert ConnectFailed.exit_code == exit_codes.CONNECTION
    assert ProtocolError.exit_code == exit_codes.RPC_ERROR
    assert ToolFailed.exit_code == exit_codes.TOOL_ERROR
    assert UnknownTool.exit_code == exit_codes.UNKNOWN_TOOL
    assert RequestTimeout.exit_code == exit_codes.TIMEOUT
    assert AuthError.exit_code == exit_codes.AUTH


def test_each_help_lists_its_codes() -> None:
    for command, epilog in (("--cli", exit_codes.CLI_EPILOG), ("tokens", exit_codes.TOKENS_EPILOG)):
        done = run_lens(command, "--help")
        assert done.returncode == exit_codes.OK, done.stderr
        assert " ".join(epilog.split()) in " ".join(done.stdout.split())
    assert "2 usage," in exit_codes.CLI_EPILOG and "8 over --max-tokens" in exit_codes.TOKENS_EPILOG
