"""Bare SDK client: spawn a stdio server, initialize, tools/list, exit. Usage: sdk_list_tools.py CMD [ARG…]"""

from __future__ import annotations

import os
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client


async def main(argv: list[str]) -> int:
    params = StdioServerParameters(command=argv[0], args=argv[1:])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            result = await session.list_tools()
    print(len(result.tools))
    return 0


if __name__ == "__main__":
    sys.exit(anyio.run(main, sys.argv[1:]))
