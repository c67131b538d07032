"""Two clients, each with its own server and connection, writing the same vault lose nothing."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from vault import Vault, open_vault
from vault.mcp.scope import Scope
from vault.mcp.server import build_server

LIKES = [
    "intervals",
    "hills",
    "tempo runs",
    "trail running",
    "track sessions",
    "long rides",
    "swimming drills",
    "yoga",
    "stretching",
    "rowing",
    "climbing",
    "pilates",
    "sprints",
    "fartlek",
]
EPISODES_EACH = 25


@pytest.fixture
def second(vault: Vault, vault_url: str) -> Iterator[Vault]:
    """Another vault object on the same database: its own engine, its own connections."""
    with open_vault(vault_url) as other:
        yield other


async def write(client: Client, name: str, likes: list[str]) -> list[bool]:
    errors = []
    for number, like in enumerate(likes):
        fact = await client.call_tool("vault_remember", {"text": f"likes {like}"})
        episode = await client.call_tool(
            "vault_record_episode", {"text": f"{name} session {number}", "ref": f"{name}-{number}"}
        )
        errors += [fact.is_error, episode.is_error]
    for number in range(len(likes), EPISODES_EACH):
        episode = await client.call_tool(
            "vault_record_episode", {"text": f"{name} session {number}", "ref": f"{name}-{number}"}
        )
        errors.append(episode.is_error)
    return errors


def test_two_clients_writing_at_once_lose_nothing(vault: Vault, second: Vault) -> None:
    scope = Scope(("ana",), allow_writes=True)
    first_server, second_server = build_server(vault, scope), build_server(second, scope)

    async def both() -> list[list[bool]]:
        async with Client(first_server) as one, Client(second_server) as two:
            return list(
                await asyncio.gather(write(one, "one", LIKES[::2]), write(two, "two", LIKES[1::2]))
            )

    assert not any(error for errors in asyncio.run(both()) for error in errors)
    assert sorted(f.text for f in vault.facts("ana")) == sorted(f"likes {x}" for x in LIKES)
    refs = {e.ref for e in vault.episodes.recall("ana", "session", k=100)}
    assert refs == {f"{who}-{n}" for who in ("one", "two") for n in range(EPISODES_EACH)}


def test_two_vault_mcp_processes_writing_one_file_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "coach.db"
    with open_vault(db, upgrade=True):
        pass
    command = ["-m", "vault", "--db", str(db), "mcp", "--athlete", "ana", "--allow-writes"]
    server = StdioServerParameters(command=sys.executable, args=command)

    async def both() -> list[list[bool]]:
        async with Client(server) as one, Client(server) as two:
            return list(
                await asyncio.gather(write(one, "one", LIKES[:3]), write(two, "two", LIKES[3:6]))
            )

    assert not any(error for errors in asyncio.run(both()) for error in errors)
    with open_vault(db) as vault:
        assert sorted(f.text for f in vault.facts("ana")) == sorted(f"likes {x}" for x in LIKES[:6])
        refs = {e.ref for e in vault.episodes.recall("ana", "session", k=100)}
    assert refs == {f"{who}-{n}" for who in ("one", "two") for n in range(EPISODES_EACH)}
