"""Erased words leave every byte of the file and its WAL, search indexes included.

The check is generic: a unique marker is looked for in the whole database file and every side
file SQLite keeps, so it covers any table or index (FTS5 segments, vectors, archives) that
holds a copy of the text, whichever branch added it.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import T0
from tests.reliability.conftest import on_disk
from vault import FactIn, open_vault
from vault.cli import main
from vault.services import health

MARKER = "qxvzmarker"


def _store(path: Path, owners: tuple[str, ...] = ("ana", "bob")) -> None:
    with open_vault(path) as vault:
        for owner in owners:
            vault.merge(owner, [FactIn(text=f"goal: 10k {owner}")], now=T0)
            for i in range(30):  # enough rows for several FTS5 segments
                vault.episodes.add_one(
                    owner, f"session {i} felt {'heavy' if i % 2 else 'easy'}", now=T0
                )
            vault.episodes.add(
                owner,
                [{"text": f"knee {MARKER}{owner} pain after the long run"}],
                now=T0,
                embed=lambda _text, o=owner: _vector_of(o),
            )
    assert MARKER.encode() in on_disk(path)
    assert _vector_bytes("ana") in on_disk(path)


def _vector_of(owner: str) -> list[float]:
    """A vector whose stored bytes spell a marker of its own (little-endian float32)."""
    return list(struct.unpack("<4f", _vector_bytes(owner)))


def _vector_bytes(owner: str) -> bytes:
    return (b"VEC" + owner[0].encode()) * 4


def _assert_gone(path: Path, owner: str, *, vectors: bool = True) -> None:
    assert f"{MARKER}{owner}".encode() not in on_disk(path)
    if vectors:
        assert _vector_bytes(owner) not in on_disk(path)


def test_forget_leaves_no_erased_word_in_the_fts_index(vault_file: Path) -> None:
    _store(vault_file)
    with open_vault(vault_file) as vault:
        result = vault.forget("ana", f"{MARKER}ana")
        assert result.episodes == 1 and result.erased_from_disk is True
        assert not vault.admin.erasure_pending() and vault.admin.doctor().healthy
        assert vault.episodes.recall("bob", f"{MARKER}bob")  # the other owner's index still answers
    _assert_gone(vault_file, "ana")
    assert f"{MARKER}bob".encode() in on_disk(vault_file)


def test_delete_athlete_leaves_no_erased_word_in_the_fts_index(vault_file: Path) -> None:
    _store(vault_file)
    with open_vault(vault_file) as vault:
        vault.delete_athlete("ana")
        assert not vault.admin.erasure_pending() and vault.admin.doctor().healthy
    _assert_gone(vault_file, "ana")


def test_forget_episodes_leaves_no_erased_word_and_is_an_erasure(vault_file: Path) -> None:
    _store(vault_file)
    with open_vault(vault_file) as vault:
        assert vault.episodes.forget("ana", f"{MARKER}ana")["episodes"] == 1
        assert not vault.admin.erasure_pending()
    _assert_gone(vault_file, "ana")


def test_a_reader_pinning_the_wal_is_reported_then_erase_wait_clears_every_byte(
    vault_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    monkeypatch.setattr(health, "ERASE_WAIT", 0.0)
    _store(vault_file)
    reader = sqlite3.connect(vault_file, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM episodes").fetchall()
    try:
        with open_vault(vault_file) as vault:
            assert vault.forget("ana", f"{MARKER}ana").erased_from_disk is False
            assert [c.name for c in vault.admin.doctor().checks if not c.ok] == ["erasure"]
    finally:
        reader.close()
    runner = CliRunner()
    assert runner.invoke(main, ["--db", str(vault_file), "erase", "--wait"]).exit_code == 0
    assert runner.invoke(main, ["--db", str(vault_file), "doctor"]).exit_code == 0
    _assert_gone(vault_file, "ana")


def test_expired_then_cleaned_episodes_leave_no_word_in_the_index(vault_file: Path) -> None:
    from datetime import timedelta

    _store(vault_file, owners=("ana",))
    later = T0 + timedelta(days=400)
    with open_vault(vault_file) as vault:
        assert vault.episodes.expire(30, now=later) == 31  # moved to the archive
        assert (
            vault.episodes.cleanup_archive(now=later + timedelta(days=400), retention_days=1) == 31
        )
        vault.admin.erase(wait=1)
    _assert_gone(vault_file, "ana", vectors=False)
