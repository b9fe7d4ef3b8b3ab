"""MCP Lens: a desktop inspector and debugger for Model Context Protocol servers."""

from inspector.sdk_package import skip_package_inits

__version__ = "0.1.0"

skip_package_inits()  # the SDK's client without its server's imports (see sdk_package)
