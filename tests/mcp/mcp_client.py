"""Talk to an in-process `vault mcp` server with the SDK's own client."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from mcp import Client
from mcp_types import CallToolResult

from vault import Vault
from vault.mcp.scope import Scope
from vault.mcp.server import build_server

T = TypeVar("T")


def session(
    vault: Vault,
    *athletes: str,
    writes: bool = False,
    forget: bool = False,
    work: Callable[[Client], Awaitable[T]],
) -> T:
    """Run `work(client)` against a server bound to `athletes`, in a fresh event loop."""
    server = build_server(vault, Scope(athletes, allow_writes=writes, allow_forget=forget))

    async def main() -> T:
        async with Client(server) as client:
            return await work(client)

    return asyncio.run(main())


def call(
    vault: Vault,
    tool: str,
    arguments: dict[str, Any],
    *athletes: str,
    writes: bool = False,
    forget: bool = False,
) -> CallToolResult:
    """One tool call on a fresh connection (the server is bound to "ana" unless told)."""

    async def work(client: Client) -> CallToolResult:
        return await client.call_tool(tool, arguments)

    return session(vault, *(athletes or ("ana",)), writes=writes, forget=forget, work=work)


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, error_text(result)
    assert result.structured_content is not None
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)


def refused(result: CallToolResult, *words: str) -> str:
    """The call is a tool error (not a crash: the message is the vault's own) naming `words`."""
    assert result.is_error, result.structured_content
    text = error_text(result)
    for word in words:
        assert word in text, text
    return text
