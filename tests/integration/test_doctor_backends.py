"""`vault doctor` on both backends: a healthy vault passes, a broken invariant is reported."""

from __future__ import annotations

from click.testing import CliRunner

from tests.conftest import T0
from vault import FactIn, NoteIn, PatternIn, Vault
from vault.cli import main


def _fill(vault: Vault) -> None:
    vault.merge(
        "ana",
        [
            FactIn(text="primary sport: running"),
            PatternIn(text="runs on Sundays"),
            NoteIn(text="knee felt fine"),
        ],
        now=T0,
    )
    vault.merge("bob", [FactIn(text="goal: 10k")], now=T0)


def test_doctor_passes_on_a_healthy_vault(vault: Vault) -> None:
    _fill(vault)
    report = vault.admin.doctor()
    failed = [(c.name, c.detail) for c in report.checks if not c.ok]
    assert failed == []
    assert {"revision", "views", "caps", "one active fact per text"} <= {
        c.name for c in report.checks
    }


def test_vault_doctor_command_exits_0_on_a_healthy_vault(vault: Vault, vault_url: str) -> None:
    _fill(vault)
    result = CliRunner().invoke(main, ["--db", vault_url, "doctor"])
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.output


def test_doctor_reports_a_broken_cap(vault: Vault) -> None:
    _fill(vault)
    columns = (
        "athlete_id, category, source, source_ref, extractor, confidence, "
        "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, "
        "updated_at, decay_due_at, inline_tokens, inline_tokens_last"
    )
    with vault.engine.begin() as connection:  # bypass the library: 16 facts for one athlete
        for i in range(16):
            connection.exec_driver_sql(
                f"INSERT INTO facts (text, normalized_text, {columns}) "
                f"SELECT text || ' x{i}', normalized_text || ' x{i}', {columns} "
                "FROM facts WHERE athlete_id = 'bob'"
            )
    report = vault.admin.doctor()
    assert [c.name for c in report.checks if not c.ok] == ["caps"]
