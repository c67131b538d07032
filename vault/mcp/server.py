"""Build the MCP server for one vault and one scope, and run it on stdio or loopback HTTP."""

from __future__ import annotations

import ipaddress
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import Tool

from vault import __version__
from vault.api import Vault
from vault.mcp.port import VaultPort
from vault.mcp.read_tools import register_read_tools
from vault.mcp.resources import register_resources
from vault.mcp.scope import Scope
from vault.mcp.write_tools import register_forget_tool, register_write_tools

NAME = "vault"
LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


def build_server(vault: Vault, scope: Scope, *, log_level: LogLevel = "WARNING") -> MCPServer:
    """The server: read tools always; write tools only with `allow_writes`, `forget` only
    with `allow_forget` (a tool the client may not use is not offered at all)."""
    server: MCPServer = VaultMCPServer(
        NAME, instructions=_instructions(scope), version=__version__, log_level=log_level
    )
    port = VaultPort(vault)
    register_read_tools(server, port, scope)
    if scope.allow_writes:
        register_write_tools(server, port, scope)
    if scope.allow_forget:
        register_forget_tool(server, port, scope)
    register_resources(server, port, scope)
    return server


class VaultMCPServer(MCPServer):
    """The SDK's server, with every tool's arguments closed: the input schemas say
    `additionalProperties: false` (so strict clients, e.g. openai-agents, convert them as they
    are) and a call with an argument the schema does not declare is refused, naming the
    declared ones, instead of being ignored."""

    async def list_tools(self) -> list[Tool]:
        return [
            tool.model_copy(update={"input_schema": _closed(tool.input_schema)})
            for tool in await super().list_tools()
        ]

    async def call_tool(
        self, name: str, arguments: dict[str, Any], *args: Any, **kwargs: Any
    ) -> Any:
        tools = {tool.name: tool for tool in await super().list_tools()}
        declared = set(tools[name].input_schema.get("properties", {})) if name in tools else None
        unknown = sorted(set(arguments or {}) - (declared or set()))
        if declared is not None and unknown:  # an unknown tool: the SDK says so itself
            raise ToolError(
                f"{name} has no argument {', '.join(map(repr, unknown))}; its arguments are: "
                + (", ".join(sorted(declared)) or "none")
            )
        return await super().call_tool(name, arguments, *args, **kwargs)


def _closed(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "properties": schema.get("properties", {}), "additionalProperties": False}


def loopback(address: str) -> tuple[str, int]:
    """HOST:PORT on a loopback address (127.0.0.0/8, ::1 or localhost), or ValueError: the
    server has no authentication, so it never listens where another machine can reach it."""
    host, separator, port_text = address.rpartition(":")
    host = host.strip("[]")
    if not separator or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"give HOST:PORT, e.g. 127.0.0.1:8765, not {address!r}")
    if host == "localhost":
        return host, int(port_text)
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        raise ValueError(f"{host!r} is not a loopback address; use 127.0.0.1 or ::1") from None
    if not ip.is_loopback:
        raise ValueError(f"{host} is not a loopback address; use 127.0.0.1 or ::1")
    return host, int(port_text)


def serve(server: MCPServer, http: tuple[str, int] | None = None) -> None:
    """Run until the client disconnects (stdio) or the process is stopped (HTTP)."""
    if http is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=http[0], port=http[1])


def _instructions(scope: Scope) -> str:
    who = (
        f"athlete {scope.athletes[0]!r} (athlete_id may be left out)"
        if len(scope.athletes) == 1
        else "athletes " + ", ".join(scope.athletes)
    )
    can = "It may remember, learn and record episodes" if scope.allow_writes else "It is read-only"
    forget = "; forget is allowed" if scope.allow_forget else ""
    return (
        f"The memory a coach keeps about {who}. Start with vault_read_memory; "
        f"vault_search_facts shows evidence, vault_recall_episodes brings back what happened. "
        f"{can}{forget}."
    )
