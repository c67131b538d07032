"""Revision 0005: the episode tables, FTS5 table and triggers, the analysts' view, downgrade."""

from __future__ import annotations

import importlib.util
import sqlite3
from contextlib import closing
from pathlib import Path

from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.episode_tables import EPISODE_LIST_V1
from vault.storage.migrations import downgrade, script_location, upgrade


def _revision() -> object:
    (path,) = (script_location() / "versions").glob("*_0005_*.py")
    spec = importlib.util.spec_from_file_location("frozen_0005", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_revision_ships_the_view_sql_the_code_names() -> None:
    revision = _revision()
    assert EPISODE_LIST_V1["sqlite"].create_sql() == revision.EPISODE_LIST_SQLITE  # type: ignore[attr-defined]
    assert EPISODE_LIST_V1["postgresql"].create_sql() == revision.EPISODE_LIST_POSTGRESQL  # type: ignore[attr-defined]


def _names(path: Path) -> set[tuple[str, str]]:
    with closing(sqlite3.connect(path)) as raw:
        return set(
            raw.execute(
                "SELECT type, name FROM sqlite_master WHERE name LIKE '%episode%' OR name LIKE 'knowledge%'"
            )
        )


def test_upgrade_builds_fts_and_triggers_and_downgrade_removes_them(db_path: Path) -> None:
    engine = create_vault_engine(sqlite_url(db_path))
    try:
        upgrade(engine, "0005")
        names = _names(db_path)
        assert {
            ("table", "episodes_fts"),
            ("view", "episode_list"),
            ("table", "knowledge_names"),
            ("trigger", "episodes_fts_insert"),
            ("trigger", "episodes_fts_delete"),
            ("trigger", "episodes_fts_update"),
        } <= names
        with closing(sqlite3.connect(db_path)) as raw:
            raw.execute("INSERT INTO athletes VALUES ('ana', 't', 't')")
            raw.execute(
                "INSERT INTO episodes (owner_id, owner_key, type, text, occurred_at, metadata, created_at) "
                "VALUES ('ana', 'kx', 'note', 'jogging by the river', 't', '{}', 't')"
            )
            assert raw.execute(
                "SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH 'jog'"
            ).fetchall() == [(1,)]
            raw.commit()
        downgrade(engine, "0004")
        assert _names(db_path) == set()
    finally:
        engine.dispose()
