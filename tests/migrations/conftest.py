from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_alembic.config import Config
from sqlalchemy import Engine

from vault.storage.engine import create_vault_engine, sqlite_url
from vault.storage.migrations import script_location


@pytest.fixture
def alembic_config() -> Config:
    return Config(config_options={"script_location": str(script_location())})


@pytest.fixture
def alembic_engine(tmp_path: Path) -> Iterator[Engine]:
    engine = create_vault_engine(sqlite_url(tmp_path / "migrations.db"), foreign_keys=False)
    yield engine
    engine.dispose()
