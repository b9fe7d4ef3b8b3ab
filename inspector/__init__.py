"""MCP Lens: a desktop inspector and debugger for Model Context Protocol servers."""

import sys

__version__ = "0.1.0"

if sys.version_info >= (3, 12):  # noqa: UP036 (an older Python must parse this far: `-m inspector` says what it needs)
    from inspector.sdk_package import skip_package_inits

    skip_package_inits()  # the SDK's client without its server's imports (see sdk_package)
