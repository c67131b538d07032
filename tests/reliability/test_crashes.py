"""SIGKILL at random points: nothing committed is lost, nothing uncommitted shows, the file is
never corrupt (issue 9, item 2).

Each child is forked, opens the vault itself, and writes one line to a pipe AFTER a write
returned (i.e. committed). The parent kills it after a random delay, then checks the file with
plain sqlite3. Kill points are random; what is asserted never depends on timing.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import T0
from tests.engine.engine_statements import ENSURE_TABLE
from tests.reliability.conftest import (
    content,
    fork_child,
    fresh_vault,
    integrity,
    read_all,
    report,
    rows,
)
from vault import FactIn, NoteIn, PatternIn, open_vault
from vault.services.engine_sync import ROWS_PER_TRANSACTION
from vault.storage.migrations import head_revision

SEED = int(os.environ.get("VAULT_CRASH_SEED", "20260302"))
KILLS: dict[str, int] = {}  # scenario -> children killed while they ran (figures for the report)


def _kill_after(pid: int, delay: float, *, after_first_report: int | None = None) -> bool:
    """SIGKILL `pid` after `delay` s; True when it was still running (a real crash).

    With `after_first_report=fd` the delay starts once the child has written its first line
    (without consuming it): on a loaded machine a child may need longer than any fixed delay to
    start, and the kill must still land among its commits.
    """
    if after_first_report is not None:
        select.select([after_first_report], [], [], 60.0)
    time.sleep(delay)
    finished, _ = os.waitpid(pid, os.WNOHANG)
    if finished:
        return False
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return True


@pytest.fixture(autouse=True, scope="module")
def _figures() -> Iterator[None]:
    yield
    print(f"\ncrash figures (children killed while running): {KILLS}")


def _count(scenario: str, killed: bool) -> None:
    KILLS[scenario] = KILLS.get(scenario, 0) + int(killed)


# -- merges: a long-lived athlete file, killed over and over


def _merging_child(path: Path, start: int, fd: int) -> None:
    with open_vault(path) as vault:
        step = start
        while True:
            step += 1
            vault.merge(
                "ana",
                [
                    FactIn(text="counter fact", confidence=0.9),
                    FactIn(text=f"pair a: {step}", confidence=0.95),
                    FactIn(text=f"pair b: {step}", confidence=0.95),
                    PatternIn(text=f"pattern {step % 9}"),
                    NoteIn(text=f"note {step}"),
                ],
                now=T0 + timedelta(minutes=step),
            )
            report(fd, str(step))


def test_merges_killed_at_random_points_keep_every_committed_merge_whole(tmp_path: Path) -> None:
    path = fresh_vault(tmp_path / "vault.db")
    rng = random.Random(SEED)
    committed = 0  # merges the children reported committed, in all
    last = 0  # the last step the file holds
    for round_ in range(100):
        pid, fd = fork_child(lambda fd, s=last: _merging_child(path, s, fd))
        # odd rounds: anywhere from the start (opening included); even rounds: among the merges
        among_merges = fd if round_ % 2 == 0 else None
        killed = _kill_after(pid, rng.uniform(0.0, 0.02), after_first_report=among_merges)
        _count("merge", killed)
        reported = [int(line) for line in read_all(fd) if line.isdigit()]
        assert integrity(path) == "ok"
        facts = dict(
            rows(path, "SELECT conflict_key, text FROM facts WHERE conflict_key LIKE 'pair %'")
        )
        counter = rows(path, "SELECT occurrences FROM facts WHERE text = 'counter fact'")
        occurrences = counter[0][0] if counter else 0
        # the pair is whole: both halves from the same merge, never one old and one new
        assert facts.get("pair a", "").split(": ")[-1] == facts.get("pair b", "").split(": ")[-1]
        stored = int(facts["pair a"].split(": ")[1]) if facts else 0
        # every reported merge is there; at most one more (committed, killed before reporting)
        expected = reported[-1] if reported else last
        assert stored in (expected, expected + 1)
        committed += len(reported)
        assert occurrences == stored  # the counter saw exactly the merges that committed
        notes = rows(path, "SELECT text FROM notes")
        assert len(notes) <= 5 and (stored == 0 or ("note " + str(stored),) in notes)
        last = stored
    assert committed > 0


# -- import of many athletes (export / import_document)


def _documents(tmp_path: Path, count: int) -> list[dict[str, Any]]:
    source = fresh_vault(tmp_path / "source.db")
    docs = []
    with open_vault(source) as vault:
        for n in range(count):
            athlete = f"athlete-{n:03d}"
            vault.merge(
                athlete,
                [
                    FactIn(text=f"goal: race {n}"),
                    FactIn(text="primary sport: running"),
                    FactIn(text=f"likes route {n}", confidence=0.6),
                    NoteIn(text=f"note for {n}"),
                ],
                now=T0,
            )
            vault.merge(athlete, [FactIn(text=f"goal: race {n + 1}")], now=T0 + timedelta(days=1))
            docs.append(vault.transfer.export(athlete))
    return docs


def _importing_child(path: Path, docs: list[dict[str, Any]], fd: int) -> None:
    with open_vault(path) as vault:
        for doc in docs:
            vault.transfer.import_document(doc)
            report(fd, doc["athlete"]["id"])


def _without_ids(doc: dict[str, Any]) -> Any:
    """A document's content, ids left out (they are renumbered on import)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                k: strip(v)
                for k, v in value.items()
                if k not in ("id", "original_id", "superseded_by", "fact_id")
            }
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(doc)


def test_an_import_of_many_athletes_killed_leaves_each_athlete_whole_or_absent(
    tmp_path: Path,
) -> None:
    docs = _documents(tmp_path, 30)
    expected = {doc["athlete"]["id"]: _without_ids(doc) for doc in docs}
    rng = random.Random(SEED + 1)
    base = fresh_vault(tmp_path / "base.db")
    path = tmp_path / "vault.db"
    started = time.perf_counter()
    shutil.copy(base, path)
    pid, fd = fork_child(lambda fd: _importing_child(path, docs, fd))
    os.waitpid(pid, 0)
    read_all(fd)
    full = time.perf_counter() - started  # only to spread the kill points over the run
    for _ in range(25):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        shutil.copy(base, path)
        pid, fd = fork_child(lambda fd: _importing_child(path, docs, fd))
        _count("import", _kill_after(pid, rng.uniform(0.0, full)))
        reported = set(read_all(fd))
        assert integrity(path) == "ok"
        present = {a for (a,) in rows(path, "SELECT id FROM athletes")}
        assert reported <= present and len(present - reported) <= 1  # one may commit unreported
        with open_vault(path, read_only=True) as vault:
            for athlete in present:
                assert _without_ids(vault.transfer.export(athlete)) == expected[athlete]
        orphans = rows(
            path, "SELECT COUNT(*) FROM facts WHERE athlete_id NOT IN (SELECT id FROM athletes)"
        )
        assert orphans == [(0,)]


# -- whole-vault decay: one transaction over every athlete


def test_whole_vault_decay_killed_is_all_or_nothing(tmp_path: Path) -> None:
    base = fresh_vault(tmp_path / "base.db")
    with open_vault(base) as vault:
        for n in range(30):
            vault.merge(
                f"a{n}",
                [FactIn(text=f"fact {n} {k}", confidence=0.5 + k / 40) for k in range(12)],
                now=T0,
            )
    before = content(base)
    path = tmp_path / "vault.db"
    shutil.copy(base, path)
    moment = T0 + timedelta(weeks=14)  # some facts fall below 0.3 and are archived, others drop
    started = time.perf_counter()
    with open_vault(path) as vault:
        result = vault.decay(moment)
    full = time.perf_counter() - started
    assert result.archived > 0 and result.lowered > 0
    after = content(path)
    rng = random.Random(SEED + 2)
    outcomes = {"old": 0, "new": 0}
    for _ in range(40):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        shutil.copy(base, path)

        def decay(fd: int) -> None:
            with open_vault(path) as vault:
                vault.decay(moment)
            report(fd, "committed")

        pid, fd = fork_child(decay)
        _count("decay", _kill_after(pid, rng.uniform(0.0, full * 1.5)))
        said = read_all(fd)
        assert integrity(path) == "ok"
        now_content = content(path)
        assert now_content in (before, after)  # the old file, or the new one complete
        if said == ["committed"]:
            assert now_content == after
        outcomes["old" if now_content == before else "new"] += 1
    assert outcomes["old"] + outcomes["new"] == 40


# -- an upgrade adopting a large legacy table


def fact(text: str, confidence: float) -> dict[str, Any]:
    return {
        "fact": text,
        "source": "conversation",
        "confidence": confidence,
        "learned_at": "2026-02-16T08:00:00Z",
    }


def memory_json(facts: list[dict[str, Any]], **rest: Any) -> str:
    return json.dumps({"key_facts": facts, **rest}, separators=(",", ":"))


def memory_rows(path: Path) -> tuple[list[tuple[Any, ...]], ...]:
    """What adoption wrote, without the clock's times (adoption stamps the time it ran)."""
    return (
        rows(path, "SELECT athlete_id, text, confidence, occurrences FROM facts ORDER BY 1, 2"),
        rows(path, "SELECT COUNT(*) FROM athlete_memory"),
        rows(
            path,
            "SELECT athlete_id, text FROM patterns UNION ALL SELECT athlete_id, text "
            "FROM notes ORDER BY 1, 2",
        ),
    )


def legacy_file(path: Path, legacy_rows: list[tuple[str, str, str]]) -> Path:
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute(ENSURE_TABLE)
        raw.executemany("INSERT INTO athlete_memory VALUES (?, ?, ?)", legacy_rows)
        raw.commit()
    return path


def test_an_upgrade_adopting_a_large_legacy_table_killed_leaves_old_or_new_complete(
    tmp_path: Path,
) -> None:
    legacy_rows = [
        (
            f"legacy-{n:04d}",
            memory_json(
                [
                    fact(f"goal: race {n}", 0.8),
                    fact("primary sport: running", 0.9),
                    fact(f"has kids {n}", 0.6),
                ],
                patterns=[f"skips day {n % 7}"],
                coaching_notes=[f"note {n}"],
            ),
            "2026-02-16 08:00:00",
        )
        for n in range(150)
    ]
    base = legacy_file(tmp_path / "legacy.db", legacy_rows)
    old = content(base)
    path = tmp_path / "vault.db"
    shutil.copy(base, path)
    started = time.perf_counter()
    open_vault(path, upgrade=True).close()
    full = time.perf_counter() - started
    new = memory_rows(path)
    assert len(new[0]) == 450 and new[1] == [(150,)]
    rng = random.Random(SEED + 3)
    for _ in range(25):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        shutil.copy(base, path)

        def upgrade(fd: int) -> None:
            open_vault(path, upgrade=True).close()
            report(fd, "upgraded")

        pid, fd = fork_child(upgrade)
        _count("upgrade", _kill_after(pid, rng.uniform(0.0, full * 1.3)))
        said = read_all(fd)
        assert integrity(path) == "ok"
        now_content = content(path)
        if now_content == old:
            assert said == []
            continue
        # migrated (one transaction), then adopted a batch of rows per transaction: every
        # row is either adopted whole or still queued, at a batch's boundary
        assert rows(path, "SELECT version_num FROM alembic_version") == [(head_revision(),)]
        assert rows(path, "SELECT COUNT(*) FROM legacy_athlete_memory") == [(150,)]
        ((adopted,),) = rows(path, "SELECT COUNT(*) FROM athletes")
        ((queued,),) = rows(path, "SELECT COUNT(*) FROM engine_inbox")
        assert adopted + queued == 150 and adopted % ROWS_PER_TRANSACTION == 0
        open_vault(path, upgrade=True).close()  # the next open finishes the adoption
        assert memory_rows(path) == new
