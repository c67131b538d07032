"""The merge's statements go to SQLite's driver, and store exactly what Core would store."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import bindparam, event, exc, insert, select

from vault import FactIn, NoteIn, PatternIn, Retraction, open_vault
from vault.domain.vocabulary import Source
from vault.storage import hot_statements
from vault.storage.evidence_tables import fact_evidence_table
from vault.storage.hot_statements import HotStatement
from vault.storage.tables import athletes_table

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
_EVIDENCE = HotStatement(
    insert(fact_evidence_table),
    columns=(
        "fact_id",
        "athlete_id",
        "source",
        "source_ref",
        "extractor",
        "words",
        "observed_at",
        "recorded_at",
    ),
)


def _sent(engine: Any, action: Callable[[], object]) -> tuple[list[str], list[str]]:
    """(statements through SQLAlchemy's cursor, statements SQLite ran) during `action`."""
    through_core: list[str] = []
    ran: list[str] = []

    def core(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        through_core.append(statement)

    def trace(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        dbapi_connection.set_trace_callback(ran.append)

    event.listen(engine, "before_cursor_execute", core)
    event.listen(engine, "checkout", trace)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", core)
        event.remove(engine, "checkout", trace)
    return through_core, ran


def test_a_merge_at_the_cap_runs_every_statement_on_the_driver(tmp_path: Path) -> None:
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        facts = [FactIn(text=f"likes trail loop number {n}", confidence=0.6) for n in range(15)]
        vault.merge("ana", facts, now=T0)
        through_core, ran = _sent(
            vault.engine,
            lambda: vault.merge("ana", [FactIn(text="has a bad knee")], now=T0),
        )
    assert any(s.startswith("INSERT INTO archive") for s in ran)  # the 16th fact evicted one
    assert any(s.startswith("INSERT INTO facts") for s in ran)
    assert any(s.startswith("INSERT INTO fact_evidence") for s in ran)
    assert through_core == []


def _through_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every HotStatement through SQLAlchemy Core, as before they went to the driver."""
    monkeypatch.setattr(hot_statements, "_driver", lambda _connection: None)


def _merges(path: Path) -> None:
    """Merges that touch every hot statement: new rows, tags, evidence words, boosts, a
    conflict-key replacement, evictions at the caps (archive rows with tags), patterns, notes
    and a retraction, with times in other offsets and microseconds."""
    later = T0.astimezone(timezone(timedelta(hours=-5))) + timedelta(microseconds=123)
    with open_vault(path, upgrade=True) as vault:
        vault.merge(
            "ana",
            [FactIn(text=f"likes trail loop number {n}", confidence=0.6) for n in range(15)],
            now=T0,
        )
        vault.merge(
            "ana",
            [
                FactIn(
                    text="has a bad knee",
                    tags=frozenset({"body:knee"}),
                    source=Source.USER_MESSAGE,
                    source_ref="message 7",
                    evidence="my knee hurts",
                    observed_at=later,
                ),
                FactIn(text="primary sport: running", confidence=0.91234567891234567),
                FactIn(text="likes trail loop number 3"),
                NoteIn(text="responds well to encouragement"),
                PatternIn(text="skips Mondays frequently"),
            ],
            now=later,
        )
        vault.merge("ana", [FactIn(text="primary sport: cycling")], now=later + timedelta(days=9))
        vault.merge(
            "ana",
            [Retraction(tags=frozenset({"body:knee"}), category="injury")],
            now=later + timedelta(days=10),
        )
        vault.merge("bo", [NoteIn(text=f"note number {n}") for n in range(7)], now=T0)


_SALTED = ('INSERT INTO "erasures"', 'INSERT INTO "vault_secrets"')  # random per file


def _dump(path: Path) -> list[str]:
    with sqlite3.connect(path) as raw:
        lines = [line for line in raw.iterdump() if not line.startswith(_SALTED)]
    raw.close()
    return lines


def test_the_driver_stores_exactly_what_core_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _merges(tmp_path / "driver.db")
    with monkeypatch.context() as patched:
        _through_core(patched)
        _merges(tmp_path / "core.db")
    driver, core = _dump(tmp_path / "driver.db"), _dump(tmp_path / "core.db")
    assert any("has a bad knee" in line for line in driver)  # the merges wrote
    assert driver == core


def _stored(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT fact_id, athlete_id, source, source_ref, extractor, words, observed_at, "
            "recorded_at FROM fact_evidence ORDER BY id"
        ).fetchall()
    raw.close()
    return rows


def test_the_driver_binds_times_and_enums_as_core_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        fact_id = vault.merge("ana", [FactIn(text="has a bad knee")]).added[0].id
        params = {
            "fact_id": fact_id,
            "athlete_id": "ana",
            "source": Source.USER_MESSAGE,
            "source_ref": "message 7",
            "extractor": None,
            "words": "my knee hurts",
            "observed_at": T0.astimezone(timezone(timedelta(hours=2))),
            "recorded_at": T0 + timedelta(microseconds=5),
        }
        with vault.engine.begin() as connection:
            _EVIDENCE.run(connection, [params])  # on the driver
        with monkeypatch.context() as patched, vault.engine.begin() as connection:
            _through_core(patched)
            _EVIDENCE.run(connection, [params])
    first, second = _stored(path)[-2:]
    assert first == second
    assert first[2] == "user_message" and first[6] == "2026-03-02T08:00:00.000000Z"


@pytest.mark.parametrize("core", [False, True])
def test_parameters_other_than_the_statements_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, core: bool
) -> None:
    statement = HotStatement(insert(athletes_table), columns=("id", "created_at", "updated_at"))
    if core:
        _through_core(monkeypatch)
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        with vault.engine.begin() as connection:
            extra = {"id": "ana", "created_at": T0, "updated_at": T0, "note": "x"}
            renamed = {"id": "ana", "created_at": T0, "changed_at": T0}
            for wrong in (extra, renamed, {"id": "ana", "created_at": T0}):
                with pytest.raises(ValueError, match="not the statement's"):
                    statement.run(connection, [wrong])
    with sqlite3.connect(tmp_path / "vault.db") as raw:
        assert raw.execute("SELECT count(*) FROM athletes").fetchone() == (0,)
    raw.close()


def test_a_value_its_type_refuses_is_a_statement_error(tmp_path: Path) -> None:
    statement = HotStatement(insert(athletes_table), columns=("id", "created_at", "updated_at"))
    naive = datetime(2026, 3, 2, 8, 0)
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        with vault.engine.begin() as connection:
            with pytest.raises(exc.StatementError, match="ValueError"):
                statement.run(connection, [{"id": "ana", "created_at": naive, "updated_at": T0}])


def test_a_statement_the_driver_cannot_run_is_refused_when_built() -> None:
    with pytest.raises(ValueError, match="rendered per call"):
        HotStatement(
            select(athletes_table.c.id).where(
                athletes_table.c.id.in_(bindparam("ids", expanding=True))
            )
        )
    with pytest.raises(ValueError, match="own value"):
        HotStatement(select(athletes_table.c.id).where(athletes_table.c.id == "ana"))
    with pytest.raises(ValueError, match="no type"):
        HotStatement(select(bindparam("when")))
    returning = HotStatement(
        insert(athletes_table).returning(athletes_table.c.id),
        columns=("id", "created_at", "updated_at"),
    )
    with pytest.raises(ValueError, match="RETURNING"):
        returning.run(None, [])  # type: ignore[arg-type]


def test_a_driver_error_is_raised_as_sqlalchemy_raises_it(tmp_path: Path) -> None:
    statement = HotStatement(insert(athletes_table), columns=("id", "created_at", "updated_at"))
    row = {"id": "ana", "created_at": T0, "updated_at": T0}
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        with vault.engine.begin() as connection:
            statement.run(connection, [row])
            with pytest.raises(exc.IntegrityError, match="UNIQUE"):
                statement.run(connection, [row])


def test_a_merge_of_facts_reads_no_patterns_or_notes(tmp_path: Path) -> None:
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        vault.merge(
            "ana", [PatternIn(text="skips Mondays frequently"), NoteIn(text="likes praise")]
        )
        _, facts_alone = _sent(
            vault.engine, lambda: vault.merge("ana", [FactIn(text="has a bad knee")])
        )
        _, with_a_note = _sent(
            vault.engine, lambda: vault.merge("ana", [NoteIn(text="likes praise")])
        )
        assert [n.occurrences for n in vault.notes("ana")] == [2]
    loads = [s for s in facts_alone if s.startswith("SELECT 'fact'")]
    assert len(loads) == 1 and "FROM patterns" not in loads[0] and "FROM notes" not in loads[0]
    assert any("FROM patterns" in s and "FROM notes" in s for s in with_a_note)
