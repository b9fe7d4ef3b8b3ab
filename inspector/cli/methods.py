"""The methods ``mcp-lens --cli --method …`` runs, one table: method → what it does and prints.

Each runner takes the parsed arguments and an open connection, prints the result (`render.show`) and
returns the exit code. Findings go to stderr as JSON lines after the result. Imports nothing heavy at
module level.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from inspector.cli import exit_codes, render
from inspector.cli.args import CliArgs

if TYPE_CHECKING:
    from inspector.core.operations import Operations

Runner = Callable[[CliArgs, "Operations"], Awaitable[int]]


async def _initialize(args: CliArgs, conn: Operations) -> int:
    render.show(args, conn.init, render.text_initialize)
    return exit_codes.OK


async def _ping(args: CliArgs, conn: Operations) -> int:
    latency = await conn.ping()
    render.show(args, {"ok": True, "latency_ms": round(latency, 3)}, render.text_ping)
    return exit_codes.OK


async def _list_tools(args: CliArgs, conn: Operations) -> int:
    listing = await conn.list_tools()
    out: dict[str, Any] = {"tools": listing.tools}
    if listing.findings:
        out["findings"] = [f.to_json() for f in listing.findings]
    render.show(args, out, render.text_tools)
    _say_capabilities(args, conn)
    return exit_codes.OK


def _say_capabilities(args: CliArgs, conn: Operations) -> None:
    """On stderr: the capabilities the app declares and this run does not (tools the server may hide)."""
    import json
    import sys

    from inspector.core.client_handlers import undeclared_note

    handlers = getattr(conn, "handlers", None)
    note = undeclared_note(handlers.capabilities() if handlers is not None else [])
    if note is not None:
        sys.stderr.write((json.dumps({"notice": note}) if args.format == "json" else f"note: {note}") + "\n")


def _runner(conn: Operations) -> Any:
    from inspector.core.tasks import TaskRunner, task_form

    return TaskRunner(
        conn,
        form=lambda: task_form(conn.era, conn.capabilities),
        handlers=lambda: getattr(conn, "handlers", None),
        auto_answer=True,
    )


async def _call_as_task(args: CliArgs, conn: Operations) -> int:
    from inspector.core.errors import LensError, ToolFailed

    listing = conn.tools or await conn.list_tools()
    runner = _runner(conn)
    task = await runner.call(args.tool_name, args.tool_args, tool=listing.by_name(args.tool_name))
    if task.result is None:
        error = task.error or LensError(f"task {task.task_id} ended {task.status} without a result")
        return render.fail(error.to_json(), error.exit_code)
    render.show(args, task.result, render.text_call)
    render.finding_lines(task.findings)
    if task.result.get("isError") is True:
        failed = ToolFailed(f"tool {args.tool_name!r} returned isError: true")
        return render.fail(failed.to_json(), failed.exit_code)
    return exit_codes.OK


async def _task_method(args: CliArgs, conn: Operations) -> int:
    import json

    result = await _runner(conn).task_request(args.method, args.task_id)
    render.show(args, result, lambda value: json.dumps(value, indent=2, ensure_ascii=False))
    return exit_codes.OK


async def _call_tool(args: CliArgs, conn: Operations) -> int:
    from inspector.core.errors import ToolFailed

    if args.as_task:
        return await _call_as_task(args, conn)

    outcome = await conn.call_tool(args.tool_name, args.tool_args, max_total=args.max_timeout, check_known=True)
    render.show(args, outcome.result, render.text_call)
    render.finding_lines(outcome.findings)
    if outcome.is_error:
        error = ToolFailed(f"tool {args.tool_name!r} returned isError: true")
        return render.fail(error.to_json(), error.exit_code)
    return exit_codes.OK


def _listing(name: str) -> Runner:
    async def run(args: CliArgs, conn: Operations) -> int:
        from inspector.core import prompts, resources

        lister = {
            "resources/list": resources.list_resources,
            "resources/templates/list": resources.list_templates,
            "prompts/list": prompts.list_prompts,
        }[name]
        listing = await lister(conn)
        render.show(args, listing.to_json(), render.LISTING_TEXT[listing.key])
        return exit_codes.OK

    return run


async def _read_resource(args: CliArgs, conn: Operations) -> int:
    from inspector.core import resources

    outcome = await resources.read_resource(conn, args.uri)
    render.show(args, outcome.result, render.text_read)
    render.finding_lines(outcome.findings)
    return exit_codes.OK


async def _get_prompt(args: CliArgs, conn: Operations) -> int:
    from inspector.core import prompts

    got = await prompts.get_prompt(conn, args.prompt_name, args.prompt_args)
    render.show(args, got.result, render.text_prompt)
    render.finding_lines(got.findings)
    return exit_codes.OK


async def _set_log_level(args: CliArgs, conn: Operations) -> int:
    from inspector.core import prompts

    await prompts.set_log_level(conn, args.log_level)
    render.show(args, {"ok": True, "level": args.log_level}, render.text_log_level)
    return exit_codes.OK


async def _list_skills(args: CliArgs, conn: Operations) -> int:
    from inspector.core import skills

    listing = await skills.list_skills(conn)
    render.show(args, listing.to_json(), render.text_skills)
    return exit_codes.OK


async def _get_skill(args: CliArgs, conn: Operations) -> int:
    """`skills/get` for the skill named by --skill (a name is looked up with skills/list), then its SKILL.md
    loaded and verified against the entry: exit 15 when it does not match."""
    from inspector.core import skills
    from inspector.core.errors import LensError

    uri = str(args.skill)
    if "://" not in uri:
        found = (await skills.list_skills(conn)).by_name(uri)
        if len(found) != 1:
            where = ", ".join(s.uri for s in found)
            raise LensError(
                f"skills/list has {'no skill' if not found else f'{len(found)} skills'} named {uri!r}"
                + (f" ({where})" if where else ""),
                hint="Pass the skill's SKILL.md URI to --skill.",
            )
        uri = found[0].uri
    skill, cache = await skills.get_skill(conn, uri)
    loaded = await skills.load_skill(conn, skill)
    out = loaded.to_json()
    if cache:
        out["cache"] = cache
    if skill.findings:
        out["findings"] = [f.to_json() for f in skill.findings]
    render.show(args, out, render.text_skill)
    render.finding_lines([*skill.findings, *loaded.skill_md.findings])
    return exit_codes.OK if loaded.verified else exit_codes.SKILL_UNVERIFIED


# Every name in `inspector.traffic.cli_vocabulary.METHODS`, and nothing else (tests/cli/test_cli_words.py).
RUNNERS: dict[str, Runner] = {
    "initialize": _initialize,
    "tools/list": _list_tools,
    "tools/call": _call_tool,
    "ping": _ping,
    "resources/list": _listing("resources/list"),
    "resources/read": _read_resource,
    "resources/templates/list": _listing("resources/templates/list"),
    "prompts/list": _listing("prompts/list"),
    "prompts/get": _get_prompt,
    "logging/setLevel": _set_log_level,
    "tasks/list": _task_method,
    "tasks/get": _task_method,
    "tasks/cancel": _task_method,
    "skills/list": _list_skills,
    "skills/get": _get_skill,
}


async def execute(args: CliArgs, conn: Operations) -> int:
    """Run `args.method` on the open connection; returns the exit code."""
    from inspector.core.errors import ProtocolError
    from inspector.core.input_required import undeclared_capability

    try:
        return await RUNNERS[args.method](args, conn)
    except ProtocolError as exc:
        needed = undeclared_capability(exc)
        if needed is None:
            raise
        raise needed from None
