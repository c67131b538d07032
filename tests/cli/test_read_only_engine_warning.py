"""A reading command on a vault opened read-only, with rows the on-device engine wrote still
waiting: one clean `warning:` line says how many rows it leaves out and why, and it exits 0.

Run as a user runs them (a subprocess): pytest's own warning capture would hide the Python
warning records a user's terminal shows."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from vault import open_vault

ENGINE_WRITE = (
    "INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json, updated_at) "
    "VALUES (?1, ?2, CURRENT_TIMESTAMP)"
)


def engine_row(fact: str) -> str:
    item = {"fact": fact, "source": "conversation", "confidence": 0.8}
    return json.dumps(
        {"key_facts": [{**item, "learned_at": "2026-03-02T08:00:00Z"}], "patterns": []}
    )


@pytest.fixture
def read_only_url(tmp_path: Path) -> str:
    """A vault with two engine rows waiting, named so that SQLite opens it read-only (root
    writes a chmod-ed file anyway)."""
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    with closing(sqlite3.connect(path)) as engine:
        engine.execute(ENGINE_WRITE, ("ana", engine_row("likes hills")))
        engine.execute(ENGINE_WRITE, ("bob", engine_row("likes track")))
        engine.commit()
    return f"sqlite:///file:{path}?mode=ro&uri=true"


def vault_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vault", *args], capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    "command",
    [
        ["facts", "ana"],
        ["export", "ana"],
        ["copy", "{url}", "{tmp}/copy.db"],
    ],
    ids=["facts", "export", "copy"],
)
def test_one_clean_line_names_the_rows_left_out_and_why(
    command: list[str], read_only_url: str, tmp_path: Path
) -> None:
    args = [arg.format(url=read_only_url, tmp=tmp_path) for arg in command]
    done = vault_cli("--db", read_only_url, *args)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("warning: ") and re.search(r"\b2 row", lines[0]), lines[0]
    assert "read-only" in lines[0]
    assert "Warning:" not in done.stderr and ".py" not in done.stderr
    assert "primary sport: running" in done.stdout or command[0] == "copy"


def test_the_library_still_warns(read_only_url: str) -> None:
    from vault.facade.store import EngineWritesNotApplied

    with open_vault(read_only_url, read_only=True) as vault:
        with pytest.warns(EngineWritesNotApplied, match="leaves out 2 row"):
            vault.facts("ana")
