"""What the CLI promises about files and privacy: reads change nothing, a 0-byte leftover is a
missing file, the privacy filter has an explicit opt-out, erasure is reported truthfully."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from vault.cli import main
from vault.services import health


def run(db: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["--db", str(db), *args])


def test_reading_commands_leave_the_file_and_its_wal_alone(db_path: Path) -> None:
    assert run(db_path, "remember", "ana", "goal: 10k").exit_code == 0
    assert run(db_path, "erase", "--wait", "1").exit_code == 0  # WAL folded into the file
    before = db_path.read_bytes()
    for args in (
        ("facts", "ana", "--all"),
        ("prompt", "ana"),
        ("history", "1"),
        ("relevant", "ana", "a 10k race"),
    ):
        assert run(db_path, *args).exit_code == 0, args
    assert db_path.read_bytes() == before
    wal = db_path.with_name(db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def test_a_zero_byte_file_left_by_a_killed_create_is_created_by_the_next_write(
    db_path: Path,
) -> None:
    db_path.write_bytes(b"")
    assert "no vault" in run(db_path, "facts", "ana").output
    result = run(db_path, "remember", "ana", "goal: 10k")
    assert result.exit_code == 0, result.output
    assert "goal: 10k" in run(db_path, "facts", "ana").output


def test_contact_data_needs_the_trusted_opt_out(db_path: Path) -> None:
    refused = run(db_path, "remember", "ana", "email me at ana@example.com")
    assert refused.exit_code == 1 and isinstance(refused.exception, SystemExit), refused.exception
    assert (
        run(db_path, "remember", "ana", "email me at ana@example.com", "--trusted").exit_code == 0
    )


def test_forget_under_an_open_reader_says_the_erasure_is_unfinished_until_erase(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "ERASE_WAIT", 0.05)
    assert run(db_path, "remember", "ana", "has secret zebra issue").exit_code == 0
    reader = sqlite3.connect(db_path)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM facts").fetchone()  # an old snapshot pins the WAL
    try:
        result = run(db_path, "forget", "ana", "zebra")
        assert result.exit_code == 1 and "vault erase --wait" in result.output
    finally:
        reader.close()
    assert run(db_path, "erase", "--wait", "1").exit_code == 0
    on_disk = db_path.read_bytes()
    wal = db_path.with_name(db_path.name + "-wal")
    assert b"zebra" not in on_disk and (not wal.exists() or b"zebra" not in wal.read_bytes())
