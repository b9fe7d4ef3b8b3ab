"""A huge line from a stdio server is joined and parsed off the event loop, a slice at a time: the
loop keeps its turns meanwhile (one `json.loads` of a 56 MB result held it ~150 ms), and the value is
the one `json.loads` gives."""

from __future__ import annotations

import asyncio
import gc
import json
import sys

from factories import call_result, rpc

from inspector.traffic.entry import Kind
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes

TEXT = json.dumps([{"id": n, "name": f"row {n}", "note": 'é "q" \\ 😀'} for n in range(120_000)])
LINE = rpc(id=1, result=call_result(TEXT)).decode()
SERVER = "import sys; sys.stdout.write(sys.stdin.readline()); sys.stdout.flush()"


def test_a_huge_line_is_parsed_while_the_loop_keeps_turning() -> None:
    assert len(LINE) > 6_000_000

    async def main() -> tuple[int, object, Kind]:
        pipes = StdioPipes(StdioCommand(sys.executable, ["-c", SERVER]), TrafficStore())
        await pipes.start()
        await pipes.send(LINE.encode())  # the server echoes it: one huge line back
        while not pipes._out.eof:  # the whole line is read before we look at how it is parsed
            await asyncio.sleep(0.05)
        turns = 0
        parsing = True

        async def tick() -> None:
            nonlocal turns
            while parsing:
                turns += 1
                await asyncio.sleep(0)

        ticker = asyncio.ensure_future(tick())
        await asyncio.sleep(0)
        turns = 0
        item = await pipes.next_line()
        parsing = False
        await ticker
        assert item is not None
        _line, entry, value = item
        await pipes.close()
        return turns, value, entry.kind

    turns, value, kind = asyncio.run(main())
    assert value == json.loads(LINE)
    assert kind is Kind.RESPONSE
    assert turns > 0  # the loop ran other work while the line was joined and parsed


def test_a_huge_line_of_small_values_sets_off_no_full_gc_pass() -> None:
    """A full (generation 2) pass walks every object alive and holds the GIL throughout: with the
    parsed rows of a 10 MB line it paused the window ~0.4 s although the parse was on a worker."""
    rows = [{"id": n, "name": f"row {n}", "tags": ["alpha", "beta"], "ok": n % 2 == 0} for n in range(160_000)]
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"structuredContent": {"rows": rows}}})
    del rows
    assert len(line) > 8_000_000
    full_passes: list[int] = []

    def noted(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            full_passes.append(1)

    async def main() -> object:
        pipes = StdioPipes(StdioCommand(sys.executable, ["-c", SERVER]), TrafficStore())
        await pipes.start()
        await pipes.send(line.encode())
        while not pipes._out.eof:
            await asyncio.sleep(0.05)
        gc.callbacks.append(noted)
        try:
            item = await pipes.next_line()
        finally:
            gc.callbacks.remove(noted)
        await pipes.close()
        assert item is not None
        return item[2]

    value = asyncio.run(main())
    assert value == json.loads(line)
    assert full_passes == []
