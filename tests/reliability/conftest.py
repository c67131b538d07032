"""Helpers for the reliability suite: SQLite files only (these tests read the file itself)."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from vault import open_vault


def fresh_vault(path: Path) -> Path:
    open_vault(path, upgrade=True).close()
    return path


@pytest.fixture
def vault_file(tmp_path: Path) -> Path:
    """An empty vault at head, no connection left open (safe to fork)."""
    return fresh_vault(tmp_path / "vault.db")


def content(path: Path) -> list[str]:
    """Every row and schema object, as SQL text (`iterdump`): equal means the same database."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as raw:
        return list(raw.iterdump())


def fingerprint(path: Path) -> str:
    return hashlib.sha256("\n".join(content(path)).encode()).hexdigest()


def on_disk(path: Path) -> bytes:
    """The bytes of the database and of every side file SQLite may keep next to it."""
    data = b""
    for suffix in ("", "-wal", "-journal", "-shm"):
        side = Path(f"{path}{suffix}")
        if side.exists():
            data += side.read_bytes()
    return data


def rows(path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as raw:
        return raw.execute(sql, params).fetchall()


def integrity(path: Path) -> str:
    with closing(sqlite3.connect(path)) as raw:
        return str(raw.execute("PRAGMA integrity_check").fetchone()[0])


def fork_child(work: Callable[[int], None]) -> tuple[int, int]:
    """Run `work(write_fd)` in a forked child; return (pid, read_fd). The child never returns
    into pytest: it leaves with os._exit (0 when `work` returned, 1 on an exception)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        code = 0
        try:
            work(write_fd)
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            try:
                os.write(write_fd, f"ERROR {type(error).__name__}: {error}\n".encode())
            except OSError:
                pass
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    return pid, read_fd


def report(fd: int, line: str) -> None:
    """What a child tells its parent, one line (written after the fact it reports)."""
    os.write(fd, (line + "\n").encode())


def read_all(fd: int) -> list[str]:
    chunks = []
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode().splitlines()
