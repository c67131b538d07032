"""Every reader sees the engine's writes: copy, export (every form) and backup apply the
engine's waiting rows first, or say why they cannot (issue 25)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.engine.engine_statements import read_memory, write_memory
from tests.engine.test_engine_table import fact, memory, rows
from vault import open_vault
from vault.cli import main
from vault.facade.store import EngineWritesNotApplied

NEW_FACT = "prefers evening sessions"


def _cli(path: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--db", str(path), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def engine_wrote(tmp_path: Path) -> Path:
    """A vault with ana; then the engine adds a fact to ana and writes a whole new athlete."""
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    document = read_memory(path, "ana") or {}
    document["key_facts"].append(fact(NEW_FACT, learned_at="2026-03-02T09:00:00Z"))
    write_memory(path, "ana", document)
    write_memory(path, "bea", memory(fact("primary sport: swimming")))
    assert rows(path, "SELECT COUNT(*) FROM engine_inbox") == [(2,)]
    return path


def test_copy_carries_what_the_engine_wrote(engine_wrote: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    _cli(engine_wrote, "copy", str(engine_wrote), str(copy))
    with open_vault(copy, read_only=True) as vault:
        assert NEW_FACT in {f.text for f in vault.facts("ana")}
        assert [f.text for f in vault.facts("bea")] == ["primary sport: swimming"]


@pytest.mark.parametrize(
    "args",
    [
        ("export", "ana"),
        ("export", "--all"),
        ("export", "ana", "--contract"),
        ("export", "ana", "--format", "yaml"),
    ],
    ids=["document", "all", "contract", "yaml"],
)
def test_every_export_form_carries_what_the_engine_wrote(
    engine_wrote: Path, args: tuple[str, ...]
) -> None:
    output = _cli(engine_wrote, *args)
    assert NEW_FACT in output
    if "--all" in args:
        assert "swimming" in output


def test_the_library_export_and_backup_apply_waiting_rows(
    engine_wrote: Path, tmp_path: Path
) -> None:
    with open_vault(engine_wrote) as vault:
        document = vault.transfer.export("ana")
        vault.transfer.backup(tmp_path / "backup.db")
    assert NEW_FACT in json.dumps(document)
    with closing(sqlite3.connect(tmp_path / "backup.db")) as raw:
        assert raw.execute("SELECT COUNT(*) FROM engine_inbox").fetchall() == [(0,)]
        assert raw.execute("SELECT COUNT(*) FROM athletes").fetchall() == [(2,)]


def test_a_read_only_vault_says_its_export_leaves_out_the_engines_rows(engine_wrote: Path) -> None:
    with open_vault(engine_wrote, read_only=True) as vault:
        with pytest.warns(EngineWritesNotApplied, match="leaves out 2 row"):
            document = vault.transfer.export("ana")
    assert NEW_FACT not in json.dumps(document)


def test_the_row_is_the_contract_within_the_floor_and_the_budget(tmp_path: Path) -> None:
    """docs/engine.md: a row fact is a contract fact; a contract fact is in the row exactly
    when it is >= 0.5 and the block's budget keeps it; same order, sources and times."""
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running", confidence=0.9)
        vault.remember("ana", "has a bad knee", confidence=0.7)
        vault.remember("ana", "maybe likes hills", confidence=0.35)
        contract = vault.contract("ana")
        block = vault.memory_block("ana")
    row = read_memory(path, "ana")
    assert row is not None
    kept = {f["fact"] for f in contract["key_facts"]} - {"maybe likes hills"}
    assert "maybe likes hills" in {f["fact"] for f in contract["key_facts"]}
    assert not block.dropped or all(d.reason.value != "budget" for d in block.dropped)
    assert [f["fact"] for f in row["key_facts"]] == [
        f["fact"] for f in contract["key_facts"] if f["fact"] in kept
    ]
    pairs = zip(row["key_facts"], [f for f in contract["key_facts"] if f["fact"] in kept])
    for in_row, in_contract in pairs:
        assert in_row["source"] == in_contract["source"]
        assert in_row["learned_at"] == in_contract["learned_at"]
