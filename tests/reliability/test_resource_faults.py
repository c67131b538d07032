"""Resource faults: one clear VaultError, no partial write, no traceback (issue 9, item 6);
the wrong error under a lock, and read commands that changed files (issue 9, defects)."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from tests.conftest import T0
from tests.reliability.conftest import fingerprint, fork_child, read_all, report
from vault import FactIn, NotAVaultFile, SchemaOutOfDate, SchemaTooNew, VaultError, open_vault
from vault.domain.errors import BusyError, StorageError
from vault.storage import engine as engine_module

NOBODY = 65534


def _as_nobody(work: object) -> list[str]:
    """Run `work(fd)` in a forked child that dropped root (file modes then really apply)."""

    def child(fd: int) -> None:
        os.setgid(NOBODY)
        os.setuid(NOBODY)
        work(fd)  # type: ignore[operator]

    pid, fd = fork_child(child)
    lines = read_all(fd)
    os.waitpid(pid, 0)
    return lines


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to drop to another user")


def _outcome(fd: int, call: object) -> None:
    try:
        result = call()  # type: ignore[operator]
        report(fd, f"ok {result}")
    except VaultError as error:
        report(fd, f"{type(error).__name__}: {error}")


@pytest.fixture
def world_readable() -> Iterator[Path]:
    """A directory another user can reach (pytest's tmp_path sits in a 0700 tree)."""
    where = Path(tempfile.mkdtemp(prefix="vault-faults-"))
    os.chmod(where, 0o755)
    yield where
    shutil.rmtree(where, ignore_errors=True)


@needs_root
def test_a_read_in_a_read_only_directory_works(world_readable: Path) -> None:
    tmp_path = world_readable
    shared = tmp_path / "shared"
    shared.mkdir()
    path = shared / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
    os.chmod(path, 0o644)  # readable by others; the directory (root's, 0755) is not writable
    os.chmod(shared, 0o755)
    os.chmod(tmp_path, 0o755)
    before = fingerprint(path)
    listing = sorted(p.name for p in shared.iterdir())

    def read(fd: int) -> None:
        with open_vault(path, read_only=True) as vault:
            _outcome(fd, lambda: [f.text for f in vault.facts("ana")])

    assert _as_nobody(read) == ["ok ['goal: 10k']"]

    def write(fd: int) -> None:
        _outcome(fd, lambda: open_vault(path).merge("ana", [FactIn(text="goal: 5k")], now=T0))

    [line] = _as_nobody(write)
    assert line.startswith(("StorageError", "NotAVaultFile")) and "\n" not in line
    assert fingerprint(path) == before
    assert sorted(p.name for p in shared.iterdir()) == listing


@needs_root
def test_a_read_only_file_refuses_writes_with_one_clear_error(world_readable: Path) -> None:
    tmp_path = world_readable
    os.chmod(tmp_path, 0o777)
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
    os.chmod(path, 0o444)
    before = fingerprint(path)

    def write(fd: int) -> None:
        with open_vault(path) as vault:
            _outcome(fd, lambda: vault.merge("ana", [FactIn(text="goal: 5k")], now=T0))

    [line] = _as_nobody(write)
    assert line.startswith("StorageError") and "read-only" in line
    assert fingerprint(path) == before


def _mount_tiny_tmpfs(where: Path, size: int) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    where.mkdir(exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True
    )
    return done.returncode == 0


def test_a_full_disk_is_one_clear_error_and_no_partial_write(tmp_path: Path) -> None:
    """A 64 KB tmpfs when we may mount one, else a file-size limit in a child process."""
    disk = tmp_path / "disk"
    seed = _seeded(tmp_path)
    mounted = _mount_tiny_tmpfs(disk, 64 * 1024)
    try:
        if not mounted:
            disk.mkdir(exist_ok=True)
        path = disk / "vault.db"
        if mounted:
            # the schema itself does not fit in 64 KB: the create fails cleanly, nothing left
            with pytest.raises(StorageError, match="full"):
                open_vault(path, upgrade=True)
            assert list(disk.iterdir()) == []
            subprocess.run(["umount", str(disk)], check=True)
            assert _mount_tiny_tmpfs(disk, seed.stat().st_size + 48 * 1024)
            shutil.copy(seed, path)  # a small vault that just fits
            with closing(sqlite3.connect(path)) as raw:
                raw.execute("PRAGMA journal_mode=WAL")
            limit = None
        else:
            shutil.copy(seed, path)
            limit = path.stat().st_size + 4096

        def fill(fd: int) -> None:
            if limit is not None:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
            with open_vault(path) as vault:
                for n in range(10_000):
                    try:
                        vault.merge(f"athlete {n}", [FactIn(text=f"fact {n} " + "x" * 150)], now=T0)
                    except VaultError as error:
                        report(fd, f"{type(error).__name__}: {error}")
                        return
                    report(fd, f"committed athlete {n}")

        pid, fd = fork_child(fill)
        lines = read_all(fd)
        os.waitpid(pid, 0)
        assert lines[-1].startswith("StorageError"), lines[-3:]
        committed = {line.split(" ", 1)[1] for line in lines if line.startswith("committed")}
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            stored = {a for (a,) in raw.execute("SELECT id FROM athletes")}
            assert stored - {"ana"} == committed  # all committed there, the failed one absent
    finally:
        if mounted:
            subprocess.run(["umount", str(disk)], check=False)


def _seeded(tmp_path: Path) -> Path:
    seed = tmp_path / "seed.db"
    with open_vault(seed, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="goal: 10k")], now=T0)
    with closing(sqlite3.connect(seed)) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        raw.execute("VACUUM")
    return seed


def test_a_missing_directory_is_one_clear_error_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="does not exist"):
        open_vault(tmp_path / "no" / "such" / "vault.db", upgrade=True)
    assert not (tmp_path / "no").exists()


def test_a_non_sqlite_file_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_bytes(b"hello, I am a text file\n" * 100)
    for kwargs in ({}, {"upgrade": True}, {"read_only": True}):
        with pytest.raises(NotAVaultFile):
            open_vault(path, **kwargs)  # type: ignore[arg-type]
    assert path.read_bytes() == b"hello, I am a text file\n" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_truncated_vault_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    shutil.copy(_seeded(tmp_path), path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(VaultError):
        with open_vault(path, read_only=True) as vault:
            vault.facts("ana")
            vault.admin.doctor()
            raise NotAVaultFile("reads passed on a truncated file")  # doctor must say it
    assert path.read_bytes() == data[: len(data) // 3]


def test_a_truncated_vault_is_unhealthy_for_doctor(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    shutil.copy(_seeded(tmp_path), path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    from vault.services.health import diagnose
    from vault.storage.engine import create_vault_engine, sqlite_url

    engine = create_vault_engine(sqlite_url(path), read_only=True)
    try:
        assert not diagnose(engine).healthy
    finally:
        engine.dispose()


def test_a_file_from_a_newer_revision_is_refused_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    shutil.copy(_seeded(tmp_path), path)
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("UPDATE alembic_version SET version_num = '9999'")
        raw.commit()
    before = path.read_bytes()
    for kwargs in ({}, {"upgrade": True}, {"read_only": True}):
        with pytest.raises(SchemaTooNew):
            open_vault(path, **kwargs)  # type: ignore[arg-type]
    assert path.read_bytes() == before


# -- read opens change nothing (defects: WAL switch on another app's file, 0-byte files)


@pytest.mark.parametrize("read_only", [False, True])
def test_opening_another_applications_sqlite_file_changes_nothing(
    tmp_path: Path, read_only: bool
) -> None:
    other = tmp_path / "other-app.db"
    with closing(sqlite3.connect(other)) as raw:
        raw.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT)")
        raw.execute("INSERT INTO things (name) VALUES ('kept')")
        raw.commit()
    before = other.read_bytes()
    with pytest.raises(SchemaOutOfDate):
        open_vault(other, read_only=read_only)
    assert other.read_bytes() == before  # still journal_mode=delete, not switched to WAL
    with closing(sqlite3.connect(other)) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other-app.db"]


@pytest.mark.parametrize("read_only", [False, True])
def test_opening_a_zero_byte_file_leaves_it_zero_bytes(tmp_path: Path, read_only: bool) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    with pytest.raises(SchemaOutOfDate):
        open_vault(empty, read_only=read_only)
    assert empty.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def test_opening_a_missing_file_without_upgrade_leaves_nothing_behind(tmp_path: Path) -> None:
    with pytest.raises(SchemaOutOfDate):
        open_vault(tmp_path / "vault.db")
    assert list(tmp_path.iterdir()) == []


def test_a_create_that_fails_removes_its_empty_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vault.storage import migrations

    def broken(*_: object, **__: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(migrations, "_migration_connection", broken)
    with pytest.raises(Exception):
        open_vault(tmp_path / "vault.db", upgrade=True)
    assert list(tmp_path.iterdir()) == []


def test_an_upgrade_at_head_under_a_lock_opens_without_taking_the_lock(vault_file: Path) -> None:
    holder = sqlite3.connect(vault_file, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with open_vault(vault_file, upgrade=True) as vault:  # nothing to upgrade: no lock taken
            assert vault.facts("ana") == []
    finally:
        holder.close()


def test_an_upgrade_that_cannot_get_the_lock_says_so_not_not_a_vault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vault.storage.engine import create_vault_engine, sqlite_url
    from vault.storage.migrations import downgrade

    path = tmp_path / "vault.db"
    open_vault(path, upgrade=True).close()
    engine = create_vault_engine(sqlite_url(path))
    downgrade(engine, "0003")
    engine.dispose()
    monkeypatch.setattr(engine_module, "BUSY_TIMEOUT_MS", 1)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(BusyError, match="write lock"):
            open_vault(path, upgrade=True)
    finally:
        holder.close()
    with closing(sqlite3.connect(path)) as raw:
        assert raw.execute("SELECT version_num FROM alembic_version").fetchone() == ("0003",)


def test_synchronous_full_is_a_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True, synchronous="FULL") as vault:
        with vault.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    monkeypatch.setenv("VAULT_SYNCHRONOUS", "full")
    with open_vault(path) as vault, vault.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    monkeypatch.delenv("VAULT_SYNCHRONOUS")
    with open_vault(path) as vault, vault.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    from vault import InvalidInput

    with pytest.raises(InvalidInput):
        open_vault(path, synchronous="OFF")
