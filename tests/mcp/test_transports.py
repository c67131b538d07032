"""`vault mcp` as a real process: stdio (the default) and streamable HTTP on loopback."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from vault import open_vault

PYTHON = sys.executable


def vault_args(db: Path, *extra: str) -> list[str]:
    return ["-m", "vault", "--db", str(db), "mcp", "--athlete", "ana", *extra]


def test_stdio_server_remembers_and_reads_back(tmp_path: Path) -> None:
    db = tmp_path / "coach.db"
    server = StdioServerParameters(command=PYTHON, args=vault_args(db, "--allow-writes"))

    async def work() -> tuple[Any, ...]:
        async with Client(server) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            added = await client.call_tool("vault_remember", {"text": "has a recurring knee issue"})
            outsider = await client.call_tool("vault_read_memory", {"athlete_id": "bob"})
            block = await client.call_tool("vault_read_memory", {})
            return names, added, outsider, block

    names, added, outsider, block = asyncio.run(work())
    assert {
        "vault_read_memory",
        "vault_remember",
        "vault_recall_episodes",
    } <= names and "vault_forget" not in names
    assert not added.is_error and added.structured_content["added"][0]["category"] == "injury"
    assert outsider.is_error and "not served here" in outsider.content[0].text
    assert "has a recurring knee issue" in block.structured_content["text"]
    with open_vault(db) as vault:  # written to the file, not held in the server's memory
        assert [f.text for f in vault.facts("ana")] == ["has a recurring knee issue"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_http_server_on_loopback_serves_the_same_tools(tmp_path: Path) -> None:
    db = tmp_path / "coach.db"
    with open_vault(db, upgrade=True) as vault:
        vault.remember("ana", "likes intervals")
    port = free_port()
    process = subprocess.Popen(
        [PYTHON, *vault_args(db, "--http", f"127.0.0.1:{port}")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # wait until it listens (not a timing assertion: the loop only waits)
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never listened"
                time.sleep(0.2)

        async def work() -> Any:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return await client.call_tool("vault_read_memory", {})

        block = asyncio.run(work())
        assert not block.is_error and "likes intervals" in block.structured_content["text"]
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr:
            process.stderr.close()
