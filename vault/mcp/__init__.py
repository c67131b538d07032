"""`vault mcp`: the vault served to agents over the Model Context Protocol.

The server is bound to one athlete or an explicit allow-list (`scope`), reaches the vault only
through the public facade (`port`), and needs the optional `mcp` SDK (`pip install 'vault[mcp]'`).
Nothing here imports the SDK at package import, so `vault mcp` can say which extra is missing.
"""

from __future__ import annotations

import importlib.util

INSTALL_HINT = "the MCP server needs the optional SDK: pip install 'vault[mcp]'"


def sdk_available() -> bool:
    """True when the official `mcp` SDK (2.x, which has `mcp.server.mcpserver`) is installed."""
    try:
        return importlib.util.find_spec("mcp.server.mcpserver") is not None
    except ModuleNotFoundError:  # no `mcp` package at all
        return False


__all__ = ["INSTALL_HINT", "sdk_available"]
