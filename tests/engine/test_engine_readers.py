"""Every reader sees the engine's writes: copy, export (every form) and backup apply the
engine's waiting rows first, or say why they cannot (issue 25)."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import T0
from tests.engine.engine_statements import read_memory, write_memory
from tests.engine.test_engine_table import fact, memory, rows
from vault import FactIn, NoteIn, PatternIn, open_vault
from vault.cli import main
from vault.domain.models import Candidate
from vault.facade.store import EngineWritesNotApplied
from vault.prompt.items import inline, utc_text

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


READS = {
    "facts": lambda vault: [f.text for f in vault.facts("ana")],
    "top_facts": lambda vault: [f.text for f in vault.top_facts("ana")],
    "memory_block": lambda vault: vault.memory_block("ana").text,
    "contract": lambda vault: vault.contract("ana"),
    "memory": lambda vault: [f.text for f in vault.memory("ana").facts],
    "summary of an athlete only the engine wrote": lambda vault: vault.summary("bea"),
}


@pytest.mark.parametrize("read", READS, ids=list(READS))
def test_every_library_read_of_memory_applies_waiting_rows_first(
    engine_wrote: Path, read: str
) -> None:
    with open_vault(engine_wrote) as vault:
        shown = READS[read](vault)
    assert shown is not None and (read.startswith("summary") or NEW_FACT in json.dumps(shown))
    assert rows(engine_wrote, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]


@pytest.mark.parametrize("read", READS, ids=list(READS))
def test_a_read_only_vault_says_its_reads_leave_out_the_engines_rows(
    engine_wrote: Path, read: str
) -> None:
    with open_vault(engine_wrote, read_only=True) as vault:
        with pytest.warns(EngineWritesNotApplied, match="reading memory leaves out 2 row"):
            shown = READS[read](vault)
    assert NEW_FACT not in json.dumps(shown)


@pytest.mark.parametrize(
    "args", [("stats", "--json"), ("sql", "--json", "SELECT text FROM active_facts")]
)
def test_the_analyst_commands_apply_waiting_rows_first(
    engine_wrote: Path, args: tuple[str, ...]
) -> None:
    output = _cli(engine_wrote, *args)
    assert (NEW_FACT in output) or '"facts": 3' in output
    assert rows(engine_wrote, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]


LONG = "after every long run on the coast path it takes two full rest days to feel fresh again"


@pytest.mark.parametrize(
    "items",
    [
        [
            FactIn(text="primary sport: running", confidence=0.9),
            FactIn(text="has a bad knee", confidence=0.7),
            FactIn(text="maybe likes hills", confidence=0.35),  # in the contract, under the floor
            PatternIn(text="skips Mondays | often"),  # "|" is "/" in the row
            NoteIn(text="responds well to data"),
        ],
        [FactIn(text=f"{LONG} ({i})", confidence=0.6 + i / 100) for i in range(15)]
        + [PatternIn(text=f"{LONG} [{i}]") for i in range(5)],  # over the 174-token budget
    ],
    ids=["floor", "budget"],
)
def test_the_row_is_the_contract_document_without_what_the_block_drops(
    tmp_path: Path, items: list[Candidate]
) -> None:
    """docs/engine.md: one builder; the row is the contract's document minus the items the
    MEMORY block drops (the 0.5 floor, the token budget), with the block's texts, plus
    `updated_at` (when vault wrote it)."""
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", items, now=T0)
        contract = vault.contract("ana", now=T0)
        block = vault.memory_block("ana", now=T0)
    dropped = {(d.kind.value, d.text) for d in block.dropped}
    assert dropped  # the case drops something the contract keeps
    expected = {
        "key_facts": [
            {**f, "fact": inline(f["fact"])}
            for f in contract["key_facts"]
            if ("fact", f["fact"]) not in dropped
        ],
        "patterns": [inline(t) for t in contract["patterns"] if ("pattern", t) not in dropped],
        "coaching_notes": [
            inline(t) for t in contract["coaching_notes"] if ("note", t) not in dropped
        ],
        "updated_at": utc_text(T0),
    }
    assert read_memory(path, "ana") == expected


@pytest.mark.parametrize("args", [("stats",), ("sql", "SELECT COUNT(*) AS n FROM facts")])
def test_the_analyst_commands_read_a_file_from_before_the_engines_table(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    from tests.migrations.test_canonical_times import migrate

    path = tmp_path / "vault.db"
    migrate(path, "0006")  # an analyst may read any revision; the engine's inbox came in 0007
    output = _cli(path, *args)
    assert "facts" in output or "n" in output.split()


def test_a_read_waits_for_no_writer_and_says_what_it_leaves_out(engine_wrote: Path) -> None:
    locker = sqlite3.connect(engine_wrote, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with open_vault(engine_wrote) as vault:
            with pytest.warns(EngineWritesNotApplied, match="the vault's write lock is taken"):
                shown = [f.text for f in vault.facts("ana")]
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert shown == ["primary sport: running"]
    assert rows(engine_wrote, "SELECT COUNT(*) FROM engine_inbox") == [(2,)]


def test_a_read_inside_the_callers_own_unit_of_work_does_not_wait_for_it(
    engine_wrote: Path,
) -> None:
    with open_vault(engine_wrote) as vault:
        with vault.unit_of_work() as uow:  # its BEGIN applies the engine's rows, not committed
            with pytest.warns(EngineWritesNotApplied):
                vault.facts("ana")
            uow.commit()
        assert NEW_FACT in {f.text for f in vault.facts("ana")}


def test_a_passing_failure_of_the_file_leaves_later_reads_free_to_apply_the_rows(
    engine_wrote: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only a read-only vault is left untried; a disk that was full once is tried again."""
    from vault.domain.errors import StorageError
    from vault.services import engine_sync

    sync = engine_sync.sync
    failures = iter([StorageError("the disk is full; nothing was written (disk full)")])

    def full_once(*args: Any, **kwargs: Any) -> Any:
        for failure in failures:
            raise failure
        return sync(*args, **kwargs)

    monkeypatch.setattr(engine_sync, "sync", full_once)
    with open_vault(engine_wrote) as vault:
        with pytest.warns(EngineWritesNotApplied, match="disk is full"):
            vault.facts("ana")
        assert NEW_FACT in {f.text for f in vault.facts("ana")}
