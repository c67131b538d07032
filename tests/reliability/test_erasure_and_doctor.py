"""Erasure you can verify, with readers open; `vault doctor` (issue 9, items 4 and 5)."""

from __future__ import annotations

import json
import sqlite3
import stat
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import T0
from tests.reliability.conftest import on_disk
from vault import FactIn, NoteIn, PatternIn, open_vault
from vault.cli import main
from vault.facade.store import Store
from vault.services import health

SECRET = b"zebra"


def _store_secret(path: Path) -> None:
    with open_vault(path) as vault:
        vault.merge(
            "ana",
            [
                FactIn(text="has secret zebra issue", category="injury"),
                PatternIn(text="zebra pattern"),
                NoteIn(text="zebra note"),
                FactIn(text="goal: 10k"),
            ],
            now=T0,
        )
        vault.merge(
            "ana",
            [
                FactIn(text="knee zebra pain", category="injury", tags={"body:knee"}),
                FactIn(text="goal: half marathon"),
            ],
            now=T0 + timedelta(days=1),
        )
        vault.merge("bob", [FactIn(text="likes zebra stripes")], now=T0)


def _old_snapshot(path: Path) -> sqlite3.Connection:
    """A second connection holding a read transaction (an old snapshot) open."""
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM facts").fetchall()
    return reader


def test_forget_with_a_reader_holding_an_old_snapshot_says_so_then_erase_finishes(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "ERASE_WAIT", 0.0)  # one checkpoint attempt, no waiting
    _store_secret(vault_file)
    reader = _old_snapshot(vault_file)
    try:
        with open_vault(vault_file) as vault:
            result = vault.forget("ana", "zebra", now=T0 + timedelta(days=2))
            assert (result.facts, result.patterns, result.notes) == (2, 1, 1)
            assert result.erased_from_disk is False  # the reader pins the old pages in the WAL
            assert vault.admin.erasure_pending()
            report = vault.admin.doctor()
            assert not report.healthy
            assert [c.name for c in report.checks if not c.ok] == ["erasure"]
            assert vault.admin.erase(wait=0) is False  # still pinned: said, not hidden
    finally:
        reader.close()
    runner = CliRunner()
    doctor = runner.invoke(main, ["--db", str(vault_file), "doctor"])
    assert doctor.exit_code == 1 and "FAIL  erasure" in doctor.output
    erased = runner.invoke(main, ["--db", str(vault_file), "erase", "--wait"])
    assert erased.exit_code == 0, erased.output
    assert runner.invoke(main, ["--db", str(vault_file), "doctor"]).exit_code == 0
    data = on_disk(vault_file)
    assert b"has secret" not in data and b"zebra note" not in data and b"knee zebra" not in data
    assert b"likes zebra stripes" in data  # bob's fact was not asked to be forgotten


def test_forget_and_delete_leave_no_trace_in_the_file_or_the_wal(vault_file: Path) -> None:
    _store_secret(vault_file)
    with open_vault(vault_file) as vault:
        assert vault.forget("ana", "zebra").erased_from_disk is True
        vault.delete_athlete("bob")
        assert not vault.admin.erasure_pending()
        assert vault.admin.doctor().healthy
    assert SECRET not in on_disk(vault_file)


def test_delete_with_a_reader_open_is_finished_by_erase_once_the_reader_lets_go(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "ERASE_WAIT", 0.0)
    _store_secret(vault_file)
    reader = _old_snapshot(vault_file)
    with open_vault(vault_file) as vault:
        vault.delete_athlete("bob")
        assert vault.admin.erasure_pending()
        reader.close()
        assert vault.admin.erase(wait=1.0) is True
        assert not vault.admin.erasure_pending()
    assert b"stripes" not in on_disk(vault_file)


def test_the_checkpoint_retries_while_a_reader_holds_a_snapshot_and_counts_attempts(
    vault_file: Path,
) -> None:
    _store_secret(vault_file)
    reader = _old_snapshot(vault_file)
    sleeps: list[float] = []
    with open_vault(vault_file) as vault:
        vault.merge("ana", [FactIn(text="goal: 5k")], now=T0 + timedelta(days=3))

        def sleep(seconds: float) -> None:  # the reader finishes after the third attempt
            sleeps.append(seconds)
            if len(sleeps) == 3:
                reader.execute("COMMIT")

        ticks = iter(range(1000))
        assert (
            health.truncate_wal(vault.engine, 100.0, sleep=sleep, clock=lambda: float(next(ticks)))
            is True
        )
    reader.close()
    assert len(sleeps) == 3
    wal = Path(f"{vault_file}-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_an_erasure_that_crashed_before_its_checkpoint_is_visible_to_doctor(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _store_secret(vault_file)
    with open_vault(vault_file) as vault:
        monkeypatch.setattr(
            Store, "checkpoint", lambda self, wait=None: (_ for _ in ()).throw(KeyboardInterrupt())
        )
        with pytest.raises(KeyboardInterrupt):
            vault.forget("ana", "zebra")
    monkeypatch.undo()
    with open_vault(vault_file, read_only=True) as reader:
        assert [c.name for c in reader.admin.doctor().checks if not c.ok] == ["erasure"]
    with open_vault(vault_file) as vault:
        assert vault.admin.erase(wait=1) is True


def test_a_failed_forget_does_not_leave_an_erasure_marked(vault_file: Path) -> None:
    with open_vault(vault_file) as vault:
        with pytest.raises(Exception, match="no memory"):
            vault.forget("nobody", "zebra")
        assert not vault.admin.erasure_pending()


def test_new_files_are_readable_by_their_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "private.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
        for suffix in ("", "-wal", "-shm"):
            side = Path(f"{path}{suffix}")
            if side.exists():
                assert stat.S_IMODE(side.stat().st_mode) == 0o600, suffix
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# -- doctor


def _doctor(path: Path) -> tuple[int, dict[str, object]]:
    result = CliRunner().invoke(main, ["--db", str(path), "doctor", "--json"])
    return result.exit_code, json.loads(result.output)


def _failing(report: dict[str, object]) -> list[str]:
    return [c["name"] for c in report["checks"] if not c["ok"]]  # type: ignore[attr-defined,index]


def test_doctor_on_a_healthy_vault_exits_0(vault_file: Path) -> None:
    _store_secret(vault_file)
    code, report = _doctor(vault_file)
    assert code == 0 and report["healthy"] is True
    names = {c["name"] for c in report["checks"]}  # type: ignore[attr-defined,index]
    assert {
        "integrity",
        "foreign keys",
        "revision",
        "views",
        "caps",
        "one active fact per text",
        "one active fact per conflict key",
        "confidences in 0..1",
        "history points at real facts",
        "erasure",
    } <= names


@pytest.mark.parametrize(
    ("damage", "failing"),
    [
        (
            "UPDATE archive SET superseded_by = 424242 WHERE superseded_by IS NOT NULL",
            "history points at real facts",
        ),
        (
            "PRAGMA foreign_keys=OFF; INSERT INTO notes (athlete_id, text, normalized_text, source,"
            " confidence, occurrences, learned_at, last_reinforced_at, updated_at) VALUES ('ghost',"
            " 'x', 'x', 'manual', 0.5, 1, '2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z',"
            " '2026-01-01T00:00:00.000000Z')",
            "foreign keys",
        ),
        ("UPDATE alembic_version SET version_num = '0003'", "revision"),
        ("DROP VIEW top_facts; CREATE VIEW top_facts AS SELECT nope FROM facts", "views"),
    ],
)
def test_doctor_names_what_is_broken_and_exits_1(
    vault_file: Path, damage: str, failing: str
) -> None:
    _store_secret(vault_file)
    with closing(sqlite3.connect(vault_file, isolation_level=None)) as raw:
        raw.executescript(damage)
    code, report = _doctor(vault_file)
    assert code == 1 and report["healthy"] is False
    assert failing in _failing(report)


def test_doctor_counts_caps_and_duplicates_without_the_unique_rules(vault_file: Path) -> None:
    _store_secret(vault_file)
    with closing(sqlite3.connect(vault_file, isolation_level=None)) as raw:
        columns = (
            "athlete_id, text, normalized_text, source, confidence, occurrences, learned_at, "
            "last_reinforced_at, updated_at, inline_tokens, inline_tokens_last"
        )
        for n in range(6):  # counted as vault counts them: only the cap is broken
            raw.execute(
                f"INSERT INTO patterns ({columns}) VALUES ('ana', ?, ?, 'behavior', 0.7, 1, "
                "'2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:00.000000Z', "
                "'2026-01-01T00:00:00.000000Z', 2, 3)",
                (f"p{n}", f"p{n}"),
            )
    code, report = _doctor(vault_file)
    assert code == 1 and _failing(report) == ["caps"]


def test_doctor_on_something_that_is_not_a_vault_is_one_report_not_a_traceback(
    tmp_path: Path,
) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database at all" * 200)
    result = CliRunner().invoke(main, ["--db", str(junk), "doctor"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.exception
    assert "FAIL" in result.output
    assert junk.read_bytes() == b"this is not a database at all" * 200
