"""The same migrations, views and merge on the PostgreSQL server of this machine (127.0.0.1:5432).

Skipped, with the reason shown, only where no server answers; .ci/run starts it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest

from tests.conftest import T0
from vault import FactIn, PatternIn, Vault, open_vault
from vault.storage.views import CURRENT_VIEWS

psycopg = pytest.importorskip("psycopg")
ADMIN = os.environ.get("VAULT_TEST_PG", "host=127.0.0.1 port=5432 dbname=test user=postgres")

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_vault() -> Iterator[Vault]:
    try:
        admin = psycopg.connect(ADMIN, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        pytest.skip(f"no PostgreSQL server: {error}")
    name = f"vault_test_{uuid.uuid4().hex[:10]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    params = psycopg.conninfo.conninfo_to_dict(ADMIN)
    url = f"postgresql+psycopg://{params.get('user', 'postgres')}@{params['host']}:{params.get('port', 5432)}/{name}"
    vault = open_vault(url, upgrade=True)
    try:
        yield vault
    finally:
        vault.close()
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        admin.close()


def test_views_exist_and_merge_replaces_and_caps_on_postgresql(pg_vault: Vault) -> None:
    with pg_vault.engine.connect() as connection:
        names = set(connection.exec_driver_sql(
            "SELECT table_name FROM information_schema.views WHERE table_schema = 'public'"
        ).scalars())
    assert names == {view.name for view in CURRENT_VIEWS}
    pg_vault.merge("ana", [FactIn(text=f"fact {i}", confidence=0.31 + i / 100) for i in range(17)]
                   + [FactIn(text="primary sport: running"), PatternIn(text="skips Mondays")], now=T0)
    result = pg_vault.merge("ana", [FactIn(text="primary sport: cycling")], now=T0 + timedelta(days=1))
    assert [a.original_text for a in result.archived if a.reason.value == "superseded"] == [
        "primary sport: running"
    ]
    top = pg_vault.top_facts("ana")
    assert len(top) == 15 and top[0].text == "primary sport: cycling"
    summary = pg_vault.summary("ana")
    assert summary is not None and (summary.fact_count, summary.pattern_count) == (15, 1)
    assert pg_vault.delete_athlete("ana")["athletes"] == 1
