"""PyInstaller's entry script for the bundled app: the same `main` as the `mcp-lens` command."""

import sys

from inspector.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
