"""PostgreSQL specifics: views on the server, `pg_vault` for tests that pair both backends.

The rest of the suite runs on PostgreSQL through the parametrized `vault` fixture
(tests/conftest.py); this module holds what only makes sense there.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from tests.conftest import T0
from vault import FactIn, PatternIn, Vault, open_vault
from vault.storage.views import CURRENT_VIEWS

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_vault(pg_server_url: str, _pg_cleaner) -> Iterator[Vault]:  # type: ignore[no-untyped-def]
    """An empty vault in this run's PostgreSQL database (beside a test's SQLite `vault`)."""
    from tests.conftest import empty_pg_vault

    empty_pg_vault(_pg_cleaner)
    with open_vault(pg_server_url) as vault:
        yield vault


def test_views_exist_and_merge_replaces_and_caps_on_postgresql(pg_vault: Vault) -> None:
    with pg_vault.engine.connect() as connection:
        names = set(
            connection.exec_driver_sql(
                "SELECT table_name FROM information_schema.views WHERE table_schema = 'public'"
            ).scalars()
        )
    assert {view.name for view in CURRENT_VIEWS} <= names
    pg_vault.merge(
        "ana",
        [FactIn(text=f"fact {i}", confidence=0.31 + i / 100) for i in range(17)]
        + [FactIn(text="primary sport: running"), PatternIn(text="skips Mondays")],
        now=T0,
    )
    result = pg_vault.merge(
        "ana", [FactIn(text="primary sport: cycling")], now=T0 + timedelta(days=1)
    )
    assert [a.original_text for a in result.archived if a.reason.value == "superseded"] == [
        "primary sport: running"
    ]
    top = pg_vault.top_facts("ana", now=T0 + timedelta(days=1))
    assert len(top) == 15 and top[0].text == "primary sport: cycling"
    summary = pg_vault.summary("ana")
    assert summary is not None and (summary.fact_count, summary.pattern_count) == (15, 1)
    assert pg_vault.delete_athlete("ana")["athletes"] == 1


def test_times_are_timestamptz_on_the_server(pg_vault: Vault) -> None:
    with pg_vault.engine.connect() as connection:
        types = dict(
            connection.exec_driver_sql(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = 'facts' AND column_name LIKE '%%_at'"
            ).all()
        )
    assert set(types.values()) == {"timestamp with time zone"}
