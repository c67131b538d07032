"""The engine's rows pass the privacy gate too: an upgrade that adopts `athlete_memory` rows
holding personal data stops and leaves the file as it was, unless the rows are vouched for."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.migrations.test_legacy_adoption import digest, fact, legacy_file, memory_json, rows
from vault import InvalidInput, open_vault
from vault.cli import main

SECRET = "hunter2zq"
LEAKY = [
    ("ana", memory_json([fact("primary sport: running"), fact(f"my password {SECRET}")],
                        patterns=["skips Mondays"], coaching_notes=[]), "2026-02-18 10:00:01"),
    ("ben", memory_json([fact("läuft gern früh | Knie ok")]), None),
]  # fmt: skip


def test_open_vault_upgrade_refuses_adopted_personal_data_and_changes_nothing(db_path: Path) -> None:
    legacy_file(db_path, LEAKY)
    before = digest(db_path)
    with pytest.raises(InvalidInput, match="legacy facts id .* of 'ana' text refused: holds personal data"):
        open_vault(db_path, upgrade=True)
    assert digest(db_path) == before  # still the engine's file, nothing adopted
    assert rows(db_path, "SELECT name FROM sqlite_master WHERE name IN ('alembic_version', 'facts')") == []
    assert len(rows(db_path, "SELECT * FROM athlete_memory")) == 2


def test_trusted_legacy_adopts_the_rows_as_they_are(db_path: Path) -> None:
    legacy_file(db_path, LEAKY)
    open_vault(db_path, upgrade=True, trusted_legacy=True).close()
    assert (f"my password {SECRET}",) in rows(db_path, "SELECT text FROM facts")


def test_vault_upgrade_refuses_in_one_line_and_adopts_with_trusted(db_path: Path) -> None:
    legacy_file(db_path, LEAKY)
    runner = CliRunner()
    refused = runner.invoke(main, ["--db", str(db_path), "upgrade"])
    assert refused.exit_code == 1 and "refused: holds personal data (credential)" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
    adopted = runner.invoke(main, ["--db", str(db_path), "upgrade", "--trusted"])
    assert adopted.exit_code == 0, adopted.output
    assert rows(db_path, "SELECT COUNT(*) FROM facts WHERE athlete_id = 'ana'") == [(2,)]


def test_rows_without_personal_data_adopt_whatever_their_language(db_path: Path) -> None:
    legacy_file(db_path, LEAKY[1:])
    open_vault(db_path, upgrade=True).close()
    assert rows(db_path, "SELECT text FROM facts") == [("läuft gern früh | Knie ok",)]
