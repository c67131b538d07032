"""Revision 0008 on a file written at 0006 with raw SQL: ids that are one athlete once
NFC-normalized are renamed (every row follows, the full-text index too) or, when both spellings
exist, kept and reported; nothing is lost."""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from contextlib import closing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from tests.migrations.test_canonical_times import migrate, rows
from vault import open_vault

T = "2026-03-01T00:00:00.000000Z"
NOW = datetime(2026, 3, 2, tzinfo=timezone.utc)
NFD_JOSE, JOSE = "Jose\u0301", "Jos\u00e9"
NFD_ZOE, ZOE = "Zoe\u0308", "Zo\u00eb"
FACT = (
    "INSERT INTO facts (athlete_id, text, normalized_text, category, source, confidence, "
    "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at, "
    "decay_due_at) VALUES (:a, :text, :text, 'general', 'manual', 0.9, 0.9, 1, :t, :t, :t, :t, :t)"
)
EPISODE = (
    "INSERT INTO episodes (owner_id, owner_key, type, text, occurred_at, metadata, created_at) "
    "VALUES (:a, :key, 'note', :text, :t, '{}', :t)"
)


def _key(owner: str) -> str:
    return "k" + hashlib.sha1(owner.encode("utf-8")).hexdigest()[:15]


def _file_at_0006(path: Path) -> None:
    migrate(path, "0006")
    with closing(sqlite3.connect(path)) as raw, raw:
        for athlete, text in (
            (NFD_JOSE, "likes hills"),
            (NFD_ZOE, "likes track"),
            (ZOE, "likes trails"),
        ):
            raw.execute("INSERT INTO athletes VALUES (:a, :t, :t)", {"a": athlete, "t": T})
            raw.execute(FACT, {"a": athlete, "text": text, "t": T})
            raw.execute(
                EPISODE, {"a": athlete, "key": _key(athlete), "text": f"{text} episode", "t": T}
            )
        raw.execute(
            "INSERT INTO notes (athlete_id, text, normalized_text, source, confidence, "
            "occurrences, learned_at, last_reinforced_at, updated_at) VALUES "
            "(:a, 'knee fine', 'knee fine', 'manual', 0.7, 1, :t, :t, :t)",
            {"a": NFD_JOSE, "t": T},
        )


def test_0008_renames_ids_to_nfc_and_every_row_follows(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    _file_at_0006(path)
    before = (
        rows(path, "SELECT COUNT(*) FROM facts")[0][0],
        rows(path, "SELECT COUNT(*) FROM episodes")[0][0],
    )
    migrate(path, "head")
    after = (
        rows(path, "SELECT COUNT(*) FROM facts")[0][0],
        rows(path, "SELECT COUNT(*) FROM episodes")[0][0],
    )
    assert before == after == (3, 3)  # nothing lost
    assert sorted(r[0] for r in rows(path, "SELECT id FROM athletes")) == sorted(
        [JOSE, NFD_ZOE, ZOE]
    )
    assert rows(path, "SELECT athlete_id, text FROM facts WHERE text = 'likes hills'") == [
        (JOSE, "likes hills")
    ]
    assert rows(path, "SELECT athlete_id FROM notes") == [(JOSE,)]
    assert rows(
        path, "SELECT owner_id, owner_key FROM episodes WHERE text = 'likes hills episode'"
    ) == [(JOSE, _key(JOSE))]
    with open_vault(path) as vault:
        assert [f.text for f in vault.facts(NFD_JOSE, now=NOW)] == [
            "likes hills"
        ]  # typed either way
        assert [e.text for e in vault.episodes.recall(JOSE, "hills", now=NOW)] == [
            "likes hills episode"
        ]


def test_0008_keeps_and_reports_ids_that_collide_and_delete_erases_both(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    _file_at_0006(path)
    migrate(path, "head")
    assert rows(path, "SELECT athlete_id FROM facts WHERE text = 'likes track'") == [(NFD_ZOE,)]
    # `vault upgrade` after a plain alembic upgrade: the items' tokens for the engine's view
    with open_vault(path, upgrade=True) as vault:
        report = vault.admin.doctor()
        failing = {c.name: c.detail for c in report.checks if not c.ok}
        assert list(failing) == ["athlete ids"] and ascii(NFD_ZOE) in failing["athlete ids"]
        counts = vault.delete_athlete(ZOE)
        assert counts["facts"] == 2 and counts["episodes"] == 2 and counts["athletes"] == 2
        assert vault.admin.doctor().healthy
    assert rows(path, "SELECT COUNT(*) FROM facts WHERE text LIKE 'likes t%'") == [(0,)]


def test_0008_on_a_file_without_odd_ids_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    migrate(path, "0006")
    with closing(sqlite3.connect(path)) as raw, raw:
        raw.execute("INSERT INTO athletes VALUES ('ana', :t, :t)", {"t": T})
        raw.execute(FACT, {"a": "ana", "text": "goal: 10k", "t": T})
    migrate(path, "head")
    assert rows(path, "SELECT id FROM athletes") == [("ana",)]
    assert rows(path, "SELECT athlete_id, text FROM facts") == [("ana", "goal: 10k")]


@pytest.mark.postgres
def test_0008_on_postgresql_renames_and_reports_like_on_sqlite(pg_admin_url: str) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from vault.storage.engine import create_vault_engine
    from vault.storage.migrations import upgrade

    admin_url = make_url(pg_admin_url)
    if "+" not in admin_url.drivername:
        admin_url = admin_url.set(drivername="postgresql+psycopg")
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    name = f"vault_nfc_{secrets.token_hex(4)}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = admin_url.set(database=name).render_as_string(hide_password=False)
    engine = create_vault_engine(url)
    try:
        upgrade(engine, "0006")
        with engine.begin() as connection:
            for athlete, fact_text in (
                (NFD_JOSE, "likes hills"),
                (NFD_ZOE, "likes track"),
                (ZOE, "likes trails"),
            ):
                connection.execute(
                    text("INSERT INTO athletes VALUES (:a, :t, :t)"), {"a": athlete, "t": NOW}
                )
                connection.execute(text(FACT), {"a": athlete, "text": fact_text, "t": NOW})
                connection.execute(
                    text(EPISODE),
                    {"a": athlete, "key": _key(athlete), "text": f"{fact_text} episode", "t": NOW},
                )
        upgrade(engine)
        with engine.connect() as connection:
            assert sorted(
                r[0] for r in connection.execute(text("SELECT id FROM athletes"))
            ) == sorted([JOSE, NFD_ZOE, ZOE])
            assert connection.execute(text("SELECT COUNT(*) FROM facts")).scalar() == 3
        with open_vault(url) as vault:
            assert [f.text for f in vault.facts(NFD_JOSE, now=NOW)] == ["likes hills"]
            assert [e.text for e in vault.episodes.recall(JOSE, "hills", now=NOW)] == [
                "likes hills episode"
            ]
            assert [c.name for c in vault.admin.doctor().checks if not c.ok] == ["athlete ids"]
            assert vault.delete_athlete(ZOE)["athletes"] == 2
            assert vault.admin.doctor().healthy
    finally:
        engine.dispose()
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()
