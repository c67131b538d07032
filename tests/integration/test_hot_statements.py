"""The merge's statements go to SQLite's driver, and store exactly what Core would store."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import bindparam, event, exc, insert, select

from vault import FactIn, open_vault
from vault.domain.vocabulary import Source
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


def _stored(path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT fact_id, athlete_id, source, source_ref, extractor, words, observed_at, "
            "recorded_at FROM fact_evidence ORDER BY id"
        ).fetchall()
    raw.close()
    return rows


def test_the_driver_binds_times_and_enums_as_core_does(tmp_path: Path) -> None:
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
        with vault.engine.connect() as connection:
            _EVIDENCE.run(connection, [params])  # no transaction begun: through Core
            assert connection.in_transaction()
            connection.commit()
        with vault.engine.begin() as connection:
            _EVIDENCE.run(connection, [params])  # inside one: on the driver
    first, second = _stored(path)[-2:]
    assert first == second
    assert first[2] == "user_message" and first[6] == "2026-03-02T08:00:00.000000Z"


@pytest.mark.parametrize("begun", [False, True])
def test_parameters_other_than_the_statements_are_refused(tmp_path: Path, begun: bool) -> None:
    statement = HotStatement(insert(athletes_table), columns=("id", "created_at", "updated_at"))
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        with vault.engine.connect() as connection:
            if begun:
                connection.begin()
            extra = {"id": "ana", "created_at": T0, "updated_at": T0, "note": "x"}
            with pytest.raises(ValueError, match="not the statement's"):
                statement.run(connection, [extra])
            with pytest.raises(ValueError, match="not the statement's"):
                statement.run(connection, [{"id": "ana", "created_at": T0}])


def test_a_driver_error_is_raised_as_sqlalchemy_raises_it(tmp_path: Path) -> None:
    statement = HotStatement(insert(athletes_table), columns=("id", "created_at", "updated_at"))
    row = {"id": "ana", "created_at": T0, "updated_at": T0}
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        with vault.engine.begin() as connection:
            statement.run(connection, [row])
            with pytest.raises(exc.IntegrityError, match="UNIQUE"):
                statement.run(connection, [row])


def test_a_parameter_of_no_known_type_is_converted_by_its_value(tmp_path: Path) -> None:
    statement = HotStatement(select(bindparam("when"), bindparam("kind")))
    with open_vault(tmp_path / "vault.db", upgrade=True) as vault:
        with vault.engine.begin() as connection:
            found = statement.rows(connection, {"when": T0, "kind": Source.MANUAL})
    assert found == [("2026-03-02T08:00:00.000000Z", "manual")]
