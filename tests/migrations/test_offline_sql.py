"""`alembic upgrade head --sql`: the whole upgrade as a script a DBA can review, on both backends.

Offline mode never connects (only the dialect is used), so the PostgreSQL case needs no server.
Revision 0002 cannot adopt legacy rows in a script; it says so in a comment and guards the script
against a database that holds the legacy table.
"""

from __future__ import annotations

import io
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from alembic.config import Config

from alembic import command
from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.migrations import head_revision, upgrade

REPO = Path(__file__).resolve().parents[2]
POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def offline(monkeypatch: pytest.MonkeyPatch, url: str, step: str = "upgrade") -> str:
    """Run `alembic <step> ... --sql` with the repository's alembic.ini; return the script."""
    monkeypatch.setenv("VAULT_DB_URL", url)
    buffer = io.StringIO()
    config = Config(
        str(REPO / "alembic.ini"), output_buffer=buffer, attributes={"configure_logger": False}
    )
    if step == "upgrade":
        command.upgrade(config, "head", sql=True)
    else:
        command.downgrade(config, f"{head_revision()}:base", sql=True)
    return buffer.getvalue()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_upgrade_head_renders_as_one_sql_script(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "never-opened.db"
    sql = offline(monkeypatch, sqlite_url(target) if backend == "sqlite" else POSTGRES_URL)
    assert "CREATE TABLE facts" in sql and "CREATE VIEW active_facts AS SELECT" in sql
    assert "-- Running upgrade 0001 -> 0002" in sql
    assert "offline SQL script cannot do" in sql  # 0002 explains why it adopts nothing here
    assert f"version_num='{head_revision()}'" in sql
    assert sql.rstrip().endswith("COMMIT;")
    assert not target.exists(), "offline mode must not touch the database"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_downgrade_to_base_renders_too(
    backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = sqlite_url(tmp_path / "never-opened.db") if backend == "sqlite" else POSTGRES_URL
    sql = offline(monkeypatch, url, "downgrade")
    assert "DROP VIEW IF EXISTS active_facts" in sql and "DROP TABLE facts" in sql


def _schema(path: Path) -> list[tuple[str, str, str]]:
    """Tables, indexes and views (the offline script indents with spaces, DDL online with tabs)."""
    with closing(sqlite3.connect(path)) as raw:
        found = raw.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
        ).fetchall()
    return [(kind, name, " ".join((sql or "").split())) for kind, name, sql in found]


def test_the_sqlite_script_builds_what_an_online_upgrade_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted, online = tmp_path / "scripted.db", tmp_path / "online.db"
    sql = offline(monkeypatch, sqlite_url(scripted))
    with closing(sqlite3.connect(scripted)) as raw:
        raw.executescript(sql)
    engine = create_vault_engine(sqlite_url(online))
    try:
        upgrade(engine)
    finally:
        engine.dispose()
    assert _schema(scripted) == _schema(online)
    with closing(sqlite3.connect(scripted)) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (head_revision(),)
        ]


def test_the_script_stops_on_a_file_holding_the_legacy_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    device = tmp_path / "device.db"
    with closing(sqlite3.connect(device)) as raw:
        raw.execute("CREATE TABLE athlete_memory (athlete_id TEXT PRIMARY KEY, memory_json TEXT)")
        raw.execute("INSERT INTO athlete_memory VALUES ('ana', '{}')")
        raw.commit()
    sql = offline(monkeypatch, sqlite_url(device))
    with closing(sqlite3.connect(device)) as raw:
        with pytest.raises(sqlite3.OperationalError, match="athlete_memory already exists"):
            raw.executescript(sql)
        raw.rollback()
    assert [row[1] for row in _schema(device)] == ["athlete_memory"]
