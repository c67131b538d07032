"""Two third-party MCP clients drive `vault mcp` over stdio as their users would: openai-agents
converts every tool to OpenAI's strict mode (its own MCP util, no warning, no fallback) and
calls one; fastmcp's client lists the tools and calls them. No network: the server is a child
process on a temporary file."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import pytest

from vault import open_vault
from vault.domain.limits import EPISODE_TEXT_MAX

agents_mcp = pytest.importorskip("agents.mcp")
fastmcp = pytest.importorskip("fastmcp")

ALL_TOOLS = {
    "vault_read_memory",
    "vault_conversation_topics",
    "vault_search_facts",
    "vault_recall_episodes",
    "vault_fact_history",
    "vault_list_athletes",
    "vault_remember",
    "vault_learn",
    "vault_record_episode",
    "vault_forget",
    "vault_correct_item",
    "vault_remove_item",
}
# what the common memory servers call their tools (mem0, Graphiti): vault's must differ
OTHER_SERVERS = {
    "add_memory",
    "add_memories",
    "search_memory",
    "search_memories",
    "list_memories",
    "delete_memory",
    "delete_all_memories",
    "add_episode",
    "search_facts",
    "search_nodes",
    "get_episodes",
    "delete_episode",
    "clear_graph",
}


def _server_args(db: Path) -> list[str]:
    return ["-m", "vault", "--db", str(db), "mcp", "--athlete", "ana"] + [
        "--allow-writes",
        "--allow-forget",
    ]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "v.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    return path


def test_openai_agents_converts_every_tool_to_strict_mode_and_calls_one(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from agents.mcp import MCPServerStdio, MCPUtil

    async def main() -> tuple[list[object], str]:
        server = MCPServerStdio(
            params={"command": sys.executable, "args": _server_args(db)},
            client_session_timeout_seconds=60,
        )
        async with server:
            tools = await server.list_tools()
            converted = [MCPUtil.to_function_tool(tool, server, True) for tool in tools]
            result = await server.call_tool("vault_read_memory", {"format": "memory"})
            return converted, " ".join(getattr(block, "text", "") for block in result.content)

    with caplog.at_level(logging.DEBUG):
        converted, text = asyncio.run(main())
    names = {tool.name for tool in converted}  # type: ignore[attr-defined]
    assert names >= ALL_TOOLS and all(name.startswith("vault_") for name in names)
    assert all(tool.strict_json_schema for tool in converted)  # type: ignore[attr-defined]
    assert "strict mode" not in caplog.text
    assert "primary sport: running" in text


def test_fastmcp_lists_titled_tools_with_limits_and_calls_them(db: Path) -> None:
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport

    async def main() -> tuple[list[object], object, object]:
        transport = StdioTransport(command=sys.executable, args=_server_args(db))
        async with Client(transport, timeout=60) as client:
            tools = await client.list_tools()
            added = await client.call_tool("vault_remember", {"text": "has kids"})
            refused = await client.call_tool(
                "vault_remember", {"content": "has kids"}, raise_on_error=False
            )
            return tools, added, refused

    tools, added, refused = asyncio.run(main())
    by_name = {tool.name: tool for tool in tools}  # type: ignore[attr-defined]
    assert set(by_name) >= ALL_TOOLS and not set(by_name) & OTHER_SERVERS
    assert all(tool.title for tool in by_name.values())
    remember = by_name["vault_remember"].input_schema
    assert remember["additionalProperties"] is False
    assert remember["properties"]["text"]["maxLength"] == 300
    assert (
        by_name["vault_record_episode"].input_schema["properties"]["text"]["maxLength"]
        == EPISODE_TEXT_MAX
    )
    assert added.structured_content["added"][0]["text"] == "has kids"  # type: ignore[attr-defined]
    assert refused.is_error  # type: ignore[attr-defined]
    assert "no argument 'content'" in refused.content[0].text  # type: ignore[attr-defined]
