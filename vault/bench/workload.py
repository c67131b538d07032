"""A deterministic athlete population, loaded set-wise, and the merge turns replayed on it.

Every athlete `i` has 15 facts (one `body:*` injury fact, five conflict-key slots, nine plain
facts), 3 patterns and 2 notes; `profile(seed, i)` rebuilds them from `random.Random`, so the
population is never held in memory. Row ids are assigned here (athlete i owns fact ids
15*i+1 .. 15*i+15), so the same rows can be written to SQLite and to PostgreSQL.
"""

from __future__ import annotations

import functools
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from sqlalchemy import Engine, insert, text
from sqlalchemy.dialects import sqlite

from vault.domain.rules import DEFAULT_DECAY_POLICY, decay_due, decayed
from vault.domain.text import category_of, conflict_key_of, entity_tags, normalize_text
from vault.domain.vocabulary import Category
from vault.prompt.memory_block import item_pieces
from vault.storage.repositories._sql import INLINE_COLUMNS
from vault.storage.tables import (
    athletes_table,
    fact_tags_table,
    facts_table,
    notes_table,
    patterns_table,
)
from vault.storage.types import UTCDateTime

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # "now" of the generated population
FACTS, PATTERNS, NOTES = 15, 3, 2

SPORTS = ("running", "cycling", "swimming", "triathlon", "rowing", "trail running", "hiking")
GOALS = ("sub-4 marathon", "first 10k", "finish an ironman", "lose 5 kg", "ride 200 km")
LEVELS = ("beginner", "intermediate", "advanced")
TIMES = ("morning", "evening", "lunchtime", "weekend")
PARTS = ("knee", "ankle", "calf", "hip", "achilles", "shoulder", "back")
PLAIN = (
    "has two kids",
    "works night shifts",
    "trains with a club",
    "uses a heart rate monitor",
    "commutes by bike",
    "owns a treadmill",
    "travels for work monthly",
    "has a dog",
    "sleeps about 7 hours",
    "follows a vegetarian diet",
    "races twice a year",
    "does yoga on sundays",
    "lives near a lake",
    "has a standing desk",
    "coaches juniors",
    "stretches after every run",
    "tracks sleep with a watch",
    "drinks coffee before runs",
    "has asthma under control",
    "started training in 2020",
    "uses a foam roller",
)
PATTERN_TEXTS = (
    "skips mondays frequently",
    "tends to skip after rest days",
    "runs faster on weekends",
    "cuts long runs short in the heat",
    "trains harder after a rest week",
    "misses sessions when travelling",
    "logs activities late in the evening",
)
NOTE_TEXTS = (
    "responds well to data-driven framing",
    "prefers short direct answers",
    "needs encouragement after bad races",
    "likes a weekly summary",
    "asks about nutrition often",
)

_FACT_COLUMNS = (
    "id",
    "athlete_id",
    "text",
    "normalized_text",
    "category",
    "conflict_key",
    "source",
    "source_ref",
    "extractor",
    "confidence",
    "base_confidence",
    "occurrences",
    "learned_at",
    "observed_at",
    "last_reinforced_at",
    "updated_at",
    "decay_due_at",
    *INLINE_COLUMNS,
)
_ITEM_COLUMNS = (
    "id",
    "athlete_id",
    "text",
    "normalized_text",
    "source",
    "source_ref",
    "extractor",
    "confidence",
    "occurrences",
    "learned_at",
    "last_reinforced_at",
    "updated_at",
    *INLINE_COLUMNS,
)


@dataclass(frozen=True)
class Candidate:
    """A fact to merge, as plain data: the vault side wraps it in FactIn, the raw side does not."""

    text: str
    category: Category
    confidence: float


@dataclass(frozen=True)
class Turn:
    athlete: str
    candidates: tuple[Candidate, ...]
    now: datetime


@dataclass(frozen=True)
class Profile:
    """One athlete's generated rows, as dicts keyed by column name (times are aware datetimes)."""

    athlete: dict[str, Any]
    facts: list[dict[str, Any]]
    tags: list[dict[str, Any]]
    patterns: list[dict[str, Any]]
    notes: list[dict[str, Any]]


def athlete_id(index: int) -> str:
    return f"athlete-{index:06d}"


@functools.cache
def _derived(fact_text: str) -> tuple[str, Category, str | None, frozenset[str]]:
    """What FactIn would derive from the text: normalized text, category, conflict key, tags."""
    category = category_of(fact_text)
    return (
        normalize_text(fact_text),
        category,
        conflict_key_of(fact_text),
        entity_tags(fact_text, category),
    )


def fact_texts(rng: random.Random) -> list[str]:
    slots = [
        f"primary sport: {rng.choice(SPORTS)}",
        f"goal: {rng.choice(GOALS)}",
        f"typical duration: {rng.choice((30, 45, 60, 75, 90))} min",
        f"level: {rng.choice(LEVELS)}",
        f"prefers {rng.choice(TIMES)} sessions",
        f"has {rng.choice(('left', 'right'))} {rng.choice(PARTS)} pain",
    ]
    return slots + rng.sample(PLAIN, FACTS - len(slots))


def profile(seed: int, index: int) -> Profile:
    rng = random.Random(seed * 1_000_003 + index)
    athlete = athlete_id(index)
    created = T0 - timedelta(days=120)
    facts: list[dict[str, Any]] = []
    tags: list[dict[str, Any]] = []
    for n, fact_text in enumerate(fact_texts(rng)):
        normalized, category, key, fact_tags = _derived(fact_text)
        reinforced = T0 - timedelta(seconds=rng.randint(3600, 60 * 86400))
        base = round(rng.uniform(0.55, 1.0), 2)
        fact_id = index * FACTS + n + 1
        facts.append(
            {
                "id": fact_id,
                "athlete_id": athlete,
                "text": fact_text,
                "normalized_text": normalized,
                "category": category.value,
                "conflict_key": key,
                "source": "manual",
                "source_ref": None,
                "extractor": None,
                "confidence": decayed(base, reinforced, T0, DEFAULT_DECAY_POLICY.factor(category)),
                "base_confidence": base,
                "occurrences": rng.randint(1, 3),
                "learned_at": reinforced - timedelta(days=10),
                "observed_at": reinforced,
                "last_reinforced_at": reinforced,
                "updated_at": reinforced,
                "decay_due_at": decay_due(reinforced, T0),
                **_inline(fact_text),
            }
        )
        tags.extend(
            {"athlete_id": athlete, "fact_id": fact_id, "tag": tag} for tag in sorted(fact_tags)
        )
    patterns = _items(rng, athlete, index, PATTERNS, PATTERN_TEXTS)
    notes = _items(rng, athlete, index, NOTES, NOTE_TEXTS)
    return Profile(
        {"id": athlete, "created_at": created, "updated_at": T0}, facts, tags, patterns, notes
    )


def _items(
    rng: random.Random, athlete: str, index: int, count: int, pool: tuple[str, ...]
) -> list[dict[str, Any]]:
    rows = []
    for n, item_text in enumerate(rng.sample(pool, count)):
        reinforced = T0 - timedelta(seconds=rng.randint(3600, 30 * 86400))
        rows.append(
            {
                "id": index * count + n + 1,
                "athlete_id": athlete,
                "text": item_text,
                "normalized_text": normalize_text(item_text),
                "source": "pattern_analysis",
                "source_ref": None,
                "extractor": None,
                "confidence": round(rng.uniform(0.5, 0.95), 2),
                "occurrences": rng.randint(1, 4),
                "learned_at": reinforced - timedelta(days=5),
                "last_reinforced_at": reinforced,
                "updated_at": reinforced,
                **_inline(item_text),
            }
        )
    return rows


def _inline(item_text: str) -> dict[str, Any]:
    """The item's inline text and token counts, as vault stores them with every item."""
    return dict(zip(INLINE_COLUMNS, item_pieces(item_text)))


def turns(seed: int, athletes: int, count: int) -> list[Turn]:
    """`count` merge turns on random athletes, one second apart."""
    rng = random.Random(seed)
    return [turn(rng, seed, rng.randrange(athletes), n) for n in range(count)]


def turn(rng: random.Random, seed: int, index: int, n: int) -> Turn:
    """Turn `n` for athlete `index`: one repeat (boost), one `primary sport:` (replace), one new fact."""
    own = fact_texts(random.Random(seed * 1_000_003 + index))
    repeat = rng.choice(own[6:])  # a plain fact (it may have been capped out since: re-added)
    return Turn(
        athlete=athlete_id(index),
        candidates=(
            Candidate(repeat, Category.GENERAL, 0.8),
            Candidate(f"primary sport: {rng.choice(SPORTS)}", Category.SPORT, 0.8),
            Candidate(
                f"ran a {rng.randint(5, 42)} km race in week {n}",
                Category.GENERAL,
                round(rng.uniform(0.6, 0.9), 2),
            ),
        ),
        now=T0 + timedelta(seconds=n + 1),
    )


# -- loading


_SQLITE = sqlite.dialect()
_BIND_TIME = UTCDateTime().dialect_impl(_SQLITE).bind_processor(_SQLITE)


def sqlite_time(value: datetime) -> str:
    """The text vault's UTCDateTime stores on SQLite for `value` (whatever its format is today)."""
    return str(_BIND_TIME(value) if _BIND_TIME is not None else value)


def parse_sqlite_time(value: str) -> datetime:
    """A stored SQLite time back as an aware UTC datetime."""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _row(values: dict[str, Any], columns: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(
        sqlite_time(values[c]) if isinstance(values[c], datetime) else values[c] for c in columns
    )


def _insert_sql(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def populate_sqlite(path: str, seed: int, athletes: int) -> None:
    """Write the population into a vault-migrated SQLite file: executemany, one transaction."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=OFF")
        connection.execute("BEGIN IMMEDIATE")
        for chunk in _chunks(seed, athletes, 2000):
            connection.executemany(
                _insert_sql("athletes", ("id", "created_at", "updated_at")),
                [_row(p.athlete, ("id", "created_at", "updated_at")) for p in chunk],
            )
            connection.executemany(
                _insert_sql("facts", _FACT_COLUMNS),
                [_row(f, _FACT_COLUMNS) for p in chunk for f in p.facts],
            )
            connection.executemany(
                "INSERT INTO fact_tags (athlete_id, fact_id, tag) VALUES (?, ?, ?)",
                [(t["athlete_id"], t["fact_id"], t["tag"]) for p in chunk for t in p.tags],
            )
            for table, attr in (("patterns", "patterns"), ("notes", "notes")):
                connection.executemany(
                    _insert_sql(table, _ITEM_COLUMNS),
                    [_row(r, _ITEM_COLUMNS) for p in chunk for r in getattr(p, attr)],
                )
        connection.execute("COMMIT")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def populate_engine(engine: Engine, seed: int, athletes: int) -> None:
    """The same rows through SQLAlchemy Core (for a server database), after emptying its tables."""
    tables = [athletes_table, facts_table, fact_tags_table, patterns_table, notes_table]
    with engine.begin() as connection:
        names = "athletes, facts, fact_tags, patterns, notes, archive, forget_log"
        connection.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        for chunk in _chunks(seed, athletes, 2000):
            rows = (
                [p.athlete for p in chunk],
                [f for p in chunk for f in p.facts],
                [t for p in chunk for t in p.tags],
                [r for p in chunk for r in p.patterns],
                [r for p in chunk for r in p.notes],
            )
            for table, values in zip(tables, rows):
                if values:
                    connection.execute(insert(table), values)
        for name in ("facts", "patterns", "notes"):
            connection.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {name}), false)"
                )
            )


def _chunks(seed: int, athletes: int, size: int) -> Iterator[list[Profile]]:
    for start in range(0, athletes, size):
        yield [profile(seed, i) for i in range(start, min(athletes, start + size))]
