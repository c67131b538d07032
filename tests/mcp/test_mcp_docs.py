"""docs/mcp.md's example session runs in an empty directory and prints what the page says."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from mcp import Client

from vault import Vault, open_vault
from vault.mcp.scope import Scope
from vault.mcp.server import build_server

DOC = Path(__file__).resolve().parents[2] / "docs" / "mcp.md"


def test_the_example_session_prints_what_the_page_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = DOC.read_text()
    [snippet] = re.findall(r"```python\n(.*?)```", text, re.S)
    [printed] = re.findall(r"It prints:\n\n```text\n(.*?)```", text, re.S)
    monkeypatch.chdir(tmp_path)
    exec(compile(snippet, str(DOC), "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out == printed


def test_the_tool_table_is_the_servers_tool_list(tmp_path: Path) -> None:
    async def names(vault: Vault) -> set[str]:
        server = build_server(vault, Scope(("ana",), allow_writes=True, allow_forget=True))
        async with Client(server) as client:
            return {tool.name for tool in (await client.list_tools()).tools}

    with open_vault(tmp_path / "v.db", upgrade=True) as vault:
        offered = asyncio.run(names(vault))
    documented = set(re.findall(r"^\| `(\w+)\(", DOC.read_text(), re.M))
    assert documented == offered
