"""Shared fixtures: every test gets its own vault file; no test touches a user's ./vault.db."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

from vault import Vault, open_vault

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


@pytest.fixture(autouse=True)
def _isolated_default_vault(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VAULT_DB_URL", raising=False)
    monkeypatch.setenv("VAULT_DB", str(tmp_path / "default-vault.db"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "vault.db"


@pytest.fixture
def vault(db_path: Path) -> Iterator[Vault]:
    with open_vault(db_path, upgrade=True) as opened:
        yield opened
