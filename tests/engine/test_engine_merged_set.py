"""The row a merge publishes is made from the set it left in memory, byte for byte the row a
read of the tables makes; any write after the merge makes the row be read again."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from vault import FactIn, NoteIn, PatternIn, open_vault
from vault.domain.rules import DEFAULT_DECAY_POLICY
from vault.domain.times import utc_now
from vault.prompt.engine_row import engine_document, engine_json
from vault.prompt.memory_block import render_rows
from vault.services import memory as services
from vault.storage import queries
from vault.storage.queries import engine_rows

T0 = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)


def _row(path: Path, athlete_id: str) -> str | None:
    with closing(sqlite3.connect(path)) as raw:
        found = raw.execute(
            "SELECT memory_json FROM athlete_memory WHERE athlete_id = ?", (athlete_id,)
        ).fetchone()
    return None if found is None else str(found[0])


def _read_and_rendered(path: Path, athlete_id: str, now: datetime) -> str:
    """The row as publishing made it by reading the athlete's items from the tables."""
    with open_vault(path) as vault, vault.engine.connect() as connection:
        rows, origins = engine_rows(connection, athlete_id, now, DEFAULT_DECAY_POLICY)
    block = render_rows(rows)
    return engine_json(engine_document(rows, block, origins, now))


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = queries.engine_rows

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append("read")
        return real(*args, **kwargs)

    monkeypatch.setattr(queries, "engine_rows", counting)
    return calls


def test_a_merge_publishes_the_row_a_read_would(tmp_path: Path, reads: list[str]) -> None:
    path = tmp_path / "vault.db"
    merges: list[tuple[int, list[Any]]] = [
        (0, [FactIn(text="primary sport: running", confidence=0.95)]),
        (1, [FactIn(text=f"likes trail loop number {i}", confidence=0.6) for i in range(10)]),
        (2, [PatternIn(text="skips Mondays"), NoteIn(text="responds well to praise")]),
        (3, [FactIn(text=f"likes hill repeat number {i}", confidence=0.9) for i in range(8)]),
        (40, [FactIn(text="has a bad knee", confidence=0.9)]),  # the rest decay by now
        (30, [FactIn(text="sleeps about 7 hours")]),  # the knee, learned later, is left out
        (41, [FactIn(text="likes trail loop number 3", confidence=0.8)]),  # reinforced
    ]
    with open_vault(path, upgrade=True) as vault:
        for days, candidates in merges:
            now = T0 + timedelta(days=days)
            vault.merge("ana", candidates, now=now)
            assert _row(path, "ana") == _read_and_rendered(path, "ana", now)
    assert reads == []  # every row came from the merge's own set


def test_a_write_after_the_merge_reads_the_items_again(tmp_path: Path, reads: list[str]) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        with vault.unit_of_work() as uow:
            services.merge(uow, "ana", [FactIn(text="primary sport: running")], T0)
            uow.connection.execute(text("UPDATE facts SET text = 'primary sport: rowing'"))
            uow.commit()
        assert reads == ["read"]
        row = _row(path, "ana")
        assert row is not None and "rowing" in row and "running" not in row


def test_a_merge_undone_by_its_savepoint_is_not_published(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
        with vault.unit_of_work() as uow:  # as of the clock, as the commit's hook
            # ana's row is due anyway (an earlier write, a repair), and nothing is written after
            uow.connection.execute(text("INSERT INTO engine_dirty (athlete_id) VALUES ('ana')"))
            with pytest.raises(RuntimeError), uow.connection.begin_nested():
                services.merge(uow, "ana", [FactIn(text="has a bad knee")], utc_now())
                raise RuntimeError("undone")
            uow.commit()
        row = _row(path, "ana")
        assert row is not None and "running" in row and "knee" not in row


def test_a_merge_rolled_back_is_not_published(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
        with closing(sqlite3.connect(path)) as raw:  # ana's row due again (a repair, say)
            raw.execute("INSERT INTO engine_dirty (athlete_id) VALUES ('ana')")
            raw.commit()
        with vault.unit_of_work() as uow:
            services.merge(uow, "ana", [FactIn(text="has a bad knee")], utc_now())
            uow.rollback()
            uow.commit()  # a transaction of its own, which writes nothing but the row
        row = _row(path, "ana")
        assert row is not None and "running" in row and "knee" not in row
