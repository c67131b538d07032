"""Our own migration checks: views match vault.storage.views, transactional upgrades, version guards."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from vault import SchemaOutOfDate, SchemaTooNew, open_vault
from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.engine_view import CREATE_VIEW, VIEW_NAME
from vault.storage.episode_tables import CONVERSATION_TOPICS_V1, EPISODE_LIST_V1
from vault.storage.evidence_tables import FACT_EVIDENCE_V2
from vault.storage.migrations import head_revision, upgrade
from vault.storage.views import CURRENT_VIEWS

REPO = Path(__file__).resolve().parents[2]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_views_in_the_file_are_exactly_the_canonical_sql(db_path: Path) -> None:
    open_vault(db_path, upgrade=True).close()
    with sqlite3.connect(db_path) as raw:
        stored = dict(raw.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'"))
    assert stored == {
        **{view.name: view.create_sql() for view in CURRENT_VIEWS},
        EPISODE_LIST_V1["sqlite"].name: EPISODE_LIST_V1["sqlite"].create_sql(),
        FACT_EVIDENCE_V2.name: FACT_EVIDENCE_V2.create_sql(),
        CONVERSATION_TOPICS_V1.name: CONVERSATION_TOPICS_V1.create_sql(),
        VIEW_NAME: CREATE_VIEW,  # 0016: the engine's athlete_memory
    }


def test_opening_an_empty_file_without_upgrade_names_the_command(db_path: Path) -> None:
    sqlite3.connect(db_path).close()
    with pytest.raises(SchemaOutOfDate, match="vault upgrade"):
        open_vault(db_path)


def test_a_file_from_a_newer_vault_is_refused_and_left_untouched(db_path: Path) -> None:
    open_vault(db_path, upgrade=True).close()
    with sqlite3.connect(db_path) as raw:
        raw.execute("UPDATE alembic_version SET version_num = 'f00dfeed'")
    before = _digest(db_path)
    for attempt in (lambda: open_vault(db_path), lambda: open_vault(db_path, upgrade=True)):
        with pytest.raises(SchemaTooNew, match="newer"):
            attempt()
    assert _digest(db_path) == before


def test_a_failing_upgrade_leaves_the_file_as_it_was(db_path: Path) -> None:
    # A pre-existing table called `notes` makes revision 1 fail halfway through.
    with sqlite3.connect(db_path) as raw:
        raw.execute("CREATE TABLE notes (anything TEXT)")
        raw.execute("INSERT INTO notes VALUES ('keep me')")
    engine = create_vault_engine(sqlite_url(db_path))
    with pytest.raises(Exception, match="already exists"):
        upgrade(engine)
    engine.dispose()
    with sqlite3.connect(db_path) as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert tables == {"notes"}, "nothing of the half-applied revision may remain"
        assert raw.execute("SELECT anything FROM notes").fetchall() == [("keep me",)]


def test_alembic_command_line_upgrades_and_downgrades_the_file_in_VAULT_DB_URL(
    tmp_path: Path,
) -> None:
    target = tmp_path / "cli.db"
    env = {**os.environ, "VAULT_DB_URL": sqlite_url(target)}
    alembic = [sys.executable, "-m", "alembic"]
    subprocess.run([*alembic, "upgrade", "head"], cwd=REPO, env=env, check=True)
    with sqlite3.connect(target) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchone() == (
            head_revision(),
        )
    subprocess.run([*alembic, "check"], cwd=REPO, env=env, check=True, capture_output=True)
    subprocess.run([*alembic, "downgrade", "base"], cwd=REPO, env=env, check=True)
    with sqlite3.connect(target) as raw:
        names = {
            r[0]
            for r in raw.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        }
    assert names == {"alembic_version"}


def test_the_shipped_revision_list_matches_the_scripts() -> None:
    from alembic.script import ScriptDirectory

    from vault.storage.migrations import REVISIONS, alembic_config

    scripts = ScriptDirectory.from_config(alembic_config())
    walked = [s.revision for s in scripts.walk_revisions()]  # newest first
    assert tuple(reversed(walked)) == REVISIONS
    assert scripts.get_current_head() == REVISIONS[-1]
