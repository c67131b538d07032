"""Each shipped view version is frozen: its SQL text is pinned by hash, whatever changes later.

A revision replays the view SQL it shipped with; editing VIEWS_V1 would make old revisions
create something different from what devices hold. To change a view, add VIEWS_V2 (and a hash
here) and a revision that calls replace_views(op.execute, VIEWS_V1, VIEWS_V2).
"""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.engine_view import CREATE_VIEW, VIEW_NAME
from vault.storage.episode_tables import CONVERSATION_TOPICS_V1, EPISODE_LIST_V1
from vault.storage.evidence_tables import FACT_EVIDENCE_V2
from vault.storage.migrations import downgrade, upgrade
from vault.storage.views import (
    CURRENT_VIEWS,
    FACT_HISTORY_V2_POSTGRESQL,
    VIEWS_V1,
    VIEWS_V2,
    VIEWS_V3,
    View,
    replace_views,
)

PINNED: dict[str, dict[str, str]] = {
    "V1": {
        "active_facts": "4f5fa520d071c557175c46d496f76de41eefd7abe4374f0696038fdaed5de590",
        "prompt_facts": "40568a75555e79884b6718145e2c975f5dbabcfe0c41eb07a7a650daf3d8a6f5",
        "top_facts": "40052afdc5656801b2c7324ee105df007fb3ef50b494be3922b7ad91deacaa25",
        "active_patterns": "1370e0594c42551554d9ee0dd9cb804309e8b53c5f395d1d720a3c3effee628a",
        "active_notes": "b5d0ded168d60b7a03d1e90b65b32beb3e7e1dcdfdcd93ecfc2f532b32e99ef8",
        "athlete_summary": "837bdc575bb0e734382030492fcbcf4e9dd955697aa729edbc937493cb5f9567",
    },
    "V2": {  # revision 0006: V1 unchanged, plus the history and tag views
        "active_facts": "4f5fa520d071c557175c46d496f76de41eefd7abe4374f0696038fdaed5de590",
        "prompt_facts": "40568a75555e79884b6718145e2c975f5dbabcfe0c41eb07a7a650daf3d8a6f5",
        "top_facts": "40052afdc5656801b2c7324ee105df007fb3ef50b494be3922b7ad91deacaa25",
        "active_patterns": "1370e0594c42551554d9ee0dd9cb804309e8b53c5f395d1d720a3c3effee628a",
        "active_notes": "b5d0ded168d60b7a03d1e90b65b32beb3e7e1dcdfdcd93ecfc2f532b32e99ef8",
        "athlete_summary": "837bdc575bb0e734382030492fcbcf4e9dd955697aa729edbc937493cb5f9567",
        "fact_history": "cf15a92139351d0f400705c4bb2a14c163f9017275bbc431e9420080260aca49",
        "tagged_facts": "d8e605b163cdfe295561edad7b0e8c6ca553d5da9bddd5411d5afc5584e9d1f8",
    },
    "V3": {  # revision 0013: every join pairs the athlete id
        "active_facts": "4f5fa520d071c557175c46d496f76de41eefd7abe4374f0696038fdaed5de590",
        "prompt_facts": "40568a75555e79884b6718145e2c975f5dbabcfe0c41eb07a7a650daf3d8a6f5",
        "top_facts": "40052afdc5656801b2c7324ee105df007fb3ef50b494be3922b7ad91deacaa25",
        "active_patterns": "1370e0594c42551554d9ee0dd9cb804309e8b53c5f395d1d720a3c3effee628a",
        "active_notes": "b5d0ded168d60b7a03d1e90b65b32beb3e7e1dcdfdcd93ecfc2f532b32e99ef8",
        "athlete_summary": "837bdc575bb0e734382030492fcbcf4e9dd955697aa729edbc937493cb5f9567",
        "fact_history": "f0ed6db66c07a150f2fd51cc4ee53a77c6f43d41199f2ffe8b1b03c62dd5e01d",
        "tagged_facts": "528865c108543879dd56def29cf7e09a9c3f46ffe25b4095f5d08f989db112b1",
    },
    "V3 postgresql": {  # fact_history's LATERAL walk, per athlete
        "fact_history": "b8417815b5b0af488f132511368d719f9ca51a632f8d65ac67cfd190a8fec644",
    },
}
VERSIONS: dict[str, tuple[View, ...]] = {
    "V1": VIEWS_V1,
    "V2": VIEWS_V2,
    "V3": VIEWS_V3,
    "V3 postgresql": (FACT_HISTORY_V2_POSTGRESQL,),
}


def _sha256(sql: str) -> str:
    return hashlib.sha256(sql.encode("utf-8")).hexdigest()


def test_every_shipped_view_version_keeps_its_exact_sql() -> None:
    assert VERSIONS.keys() == PINNED.keys(), "pin the hashes of a new view version here"
    for version, views in VERSIONS.items():
        assert {v.name: _sha256(v.create_sql()) for v in views} == PINNED[version], (
            f"the SQL of views {version} changed; ship the change as a new version instead"
        )


def test_the_current_views_are_a_shipped_version() -> None:
    assert any(CURRENT_VIEWS is views for views in VERSIONS.values())


def _stored_views(path: Path) -> dict[str, str]:
    with closing(sqlite3.connect(path)) as raw:
        return dict(raw.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'"))


def test_every_revision_leaves_the_views_it_promises(db_path: Path) -> None:
    engine = create_vault_engine(sqlite_url(db_path))
    try:
        expected = {v.name: v.create_sql() for v in VIEWS_V1}
        for step in ("0001", "0002", "0004"):
            upgrade(engine, step)
            assert _stored_views(db_path) == expected, step
        upgrade(engine, "head")  # 0005 adds the episodes' own view beside the shipped versions
        episodes = EPISODE_LIST_V1["sqlite"]
        assert _stored_views(db_path) == {
            **{v.name: v.create_sql() for v in CURRENT_VIEWS},
            episodes.name: episodes.create_sql(),
            FACT_EVIDENCE_V2.name: FACT_EVIDENCE_V2.create_sql(),  # 0009, 0013: the facts' evidence
            CONVERSATION_TOPICS_V1.name: CONVERSATION_TOPICS_V1.create_sql(),  # 0011: topics
            VIEW_NAME: CREATE_VIEW,  # 0016: the engine's athlete_memory
        }
        downgrade(engine, "0002")
        assert _stored_views(db_path) == expected
    finally:
        engine.dispose()


def test_replace_views_drops_dependents_first_and_creates_in_order() -> None:
    statements: list[str] = []
    old = (View("a", "SELECT 1 AS x"), View("b", "SELECT x FROM a"))
    new = (View("a", "SELECT 2 AS x"), View("b", "SELECT x FROM a"), View("c", "SELECT 3"))
    replace_views(statements.append, old, new)
    assert statements == [
        "DROP VIEW IF EXISTS b",
        "DROP VIEW IF EXISTS a",
        "CREATE VIEW a AS SELECT 2 AS x",
        "CREATE VIEW b AS SELECT x FROM a",
        "CREATE VIEW c AS SELECT 3",
    ]
