"""Cheap when idle: a write pays one indexed read of the engine's inbox and nothing else for
the engine; the engine's row is computed when the engine reads it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event

from tests.engine.engine_statements import read_memory
from vault import FactIn, Vault, open_vault


def _sqlite_statements(vault: Vault, action: Callable[[], object]) -> list[str]:
    """Every statement SQLite runs for `action`, triggers' included (its trace callback)."""
    sent: list[str] = []

    def trace(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        dbapi_connection.set_trace_callback(sent.append)

    event.listen(vault.engine, "checkout", trace)
    try:
        action()
    finally:
        event.remove(vault.engine, "checkout", trace)
    return sent


def test_a_merge_runs_no_statement_for_the_engine_but_the_inbox_read(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="primary sport: running")])
        sent = _sqlite_statements(
            vault, lambda: vault.merge("ana", [FactIn(text="has a bad knee")])
        )
    assert any(s.startswith("INSERT INTO facts") for s in sent)  # the trace saw the merge
    engine_work = [s for s in sent if "athlete_memory" in s or "engine_" in s]
    assert len(engine_work) == 1 and "FROM engine_inbox" in engine_work[0], engine_work
    assert not [s for s in sent if s.startswith("-- TRIGGER")]  # no trigger on the items
    document = read_memory(path, "ana")  # and the engine reads what the merge wrote
    assert document is not None
    assert {f["fact"] for f in document["key_facts"]} == {
        "primary sport: running",
        "has a bad knee",
    }
