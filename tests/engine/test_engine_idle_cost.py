"""Cheap when idle: a write that leaves an athlete's items as they were renders no row."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from tests.engine.engine_statements import read_memory
from vault import Vault, open_vault
from vault.services import engine_sync


def _touch(vault: Vault) -> None:
    """A write to ana's facts that changes nothing the row is made of (marks ana changed)."""
    with vault.unit_of_work() as uow:
        uow.connection.execute(text("UPDATE facts SET occurrences = occurrences"))
        uow.commit()


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = engine_sync.render_rows

    def counting(rows: Any, **kwargs: Any) -> Any:
        calls.append("render")
        return real(rows, **kwargs)

    monkeypatch.setattr(engine_sync, "render_rows", counting)
    return calls


def test_an_unchanged_row_is_not_rendered_again(tmp_path: Path, renders: list[str]) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
        assert renders == ["render"]
        before = read_memory(path, "ana")
        _touch(vault)
        assert renders == ["render"]  # same items, same row: nothing rendered or written
        assert read_memory(path, "ana") == before
        vault.remember("ana", "has a bad knee")
        assert renders == ["render", "render"]


def test_a_row_someone_else_replaced_is_written_again(tmp_path: Path, renders: list[str]) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
        before = read_memory(path, "ana")
        with closing(sqlite3.connect(path)) as raw:  # another vault process, say
            raw.execute(
                "UPDATE athlete_memory SET memory_json = ? WHERE athlete_id = 'ana'",
                ('{"key_facts":[],"patterns":[],"coaching_notes":[]}',),
            )
            raw.commit()
        _touch(vault)
        assert len(renders) == 2
        after = read_memory(path, "ana")
        assert before is not None and after is not None
        assert after["key_facts"] == before["key_facts"] != []
