"""Whole-vault decay on SQLite as three SQL statements, with the pure rule as SQL functions.

The rule (`vault.domain.rules.decayed` / `decay_due`) is registered on the connection for the
duration of one decay, with `now` bound in: SQLite calls the very same Python functions the
merge planner uses, so the stored numbers agree by construction (SQLite's own `round()` and
date arithmetic differ from Python's at the edges; nothing here uses them). The row loop runs
inside SQLite: no row crosses into Python but the two values a function returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import Connection, text

from vault.domain.limits import ACTIVE_FLOOR
from vault.domain.rules import DecayPolicy, decay_due, decayed
from vault.domain.times import format_utc, parse_utc
from vault.domain.vocabulary import Category
from vault.storage.repositories._sql import rowcount

# A bigger page cache while the whole facts table is rewritten (default 2 MB); KiB, negative.
BULK_CACHE_KIB = 65536

_UPDATE = text(
    "UPDATE facts SET confidence = vault_decayed(base_confidence, last_reinforced_at, category), "
    "decay_due_at = vault_decay_due(last_reinforced_at) WHERE decay_due_at <= :now"
)
_ARCHIVE = text(
    "INSERT INTO archive (athlete_id, kind, original_id, original_text, category, conflict_key, "
    "source, confidence, occurrences, learned_at, superseded_by, reason, archived_at) "
    "SELECT athlete_id, 'fact', id, text, category, conflict_key, source, confidence, "
    "occurrences, learned_at, NULL, 'decayed', :now FROM facts WHERE confidence < :floor"
)
_ARCHIVE_TAGS = text(
    "INSERT INTO archive_tags (athlete_id, archive_id, tag) SELECT a.athlete_id, a.id, t.tag "
    "FROM archive AS a JOIN fact_tags AS t ON t.athlete_id = a.athlete_id "
    "AND t.fact_id = a.original_id "
    "WHERE a.kind = 'fact' AND a.reason = 'decayed' AND a.archived_at = :now"
)
_DELETE = text(
    "DELETE FROM facts WHERE id IN (SELECT original_id FROM archive "
    "WHERE reason = 'decayed' AND archived_at = :now AND kind = 'fact' "
    "AND archive.athlete_id = facts.athlete_id)"
)


PROGRESS_EVERY = 5000  # rows between two progress reports


class _Rule:
    """The decay rule for one `now`; the two functions share one parse per row. Counting the
    rows it is called for is the only way to report progress from inside one UPDATE."""

    def __init__(
        self, now: datetime, policy: DecayPolicy, progress: Callable[[int], None] | None
    ) -> None:
        self.now = now
        # the stored category text -> its factor, looked up once per row without an enum
        self._factors = {category.value: policy.factor(category) for category in Category}
        self._default = policy.default
        self._text: str | None = None
        self._parsed = now
        self._progress = progress
        self._unreported = 0

    def flush(self) -> None:
        if self._progress is not None and self._unreported:
            self._progress(self._unreported)
        self._unreported = 0

    def _last(self, last_text: str) -> datetime:
        if last_text != self._text:
            self._parsed, self._text = parse_utc(last_text), last_text
        return self._parsed

    def confidence(self, base: float, last_text: str, category: str) -> float:
        self._unreported += 1
        if self._unreported >= PROGRESS_EVERY:
            self.flush()
        factor = self._factors.get(category, self._default)
        return decayed(base, self._last(last_text), self.now, factor)

    def due(self, last_text: str) -> str:
        return format_utc(decay_due(self._last(last_text), self.now))


@contextmanager
def _rule_functions(
    connection: Connection,
    now: datetime,
    policy: DecayPolicy,
    progress: Callable[[int], None] | None,
) -> Iterator[None]:
    driver = connection.connection.driver_connection
    assert driver is not None
    rule = _Rule(now, policy, progress)
    driver.create_function("vault_decayed", 3, rule.confidence, deterministic=True)
    driver.create_function("vault_decay_due", 1, rule.due, deterministic=True)
    (cache,) = driver.execute("PRAGMA cache_size").fetchone()
    driver.execute(f"PRAGMA cache_size = -{BULK_CACHE_KIB}")
    try:
        yield
        rule.flush()
    finally:
        driver.execute(f"PRAGMA cache_size = {int(cache)}")
        driver.create_function("vault_decayed", 3, None)
        driver.create_function("vault_decay_due", 1, None)


def decay_all(
    connection: Connection,
    now: datetime,
    policy: DecayPolicy,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Decay every due fact and archive those below the floor; (rows recomputed, archived).

    Runs in the caller's transaction (the unit of work's), which holds the write lock.
    `progress(n)` is told every few thousand rows recomputed.
    """
    params = {"now": format_utc(now), "floor": ACTIVE_FLOOR}
    with _rule_functions(connection, now, policy, progress):
        recomputed = rowcount(connection.execute(_UPDATE, params))
    if not recomputed:
        return 0, 0
    archived = rowcount(connection.execute(_ARCHIVE, params))
    if archived:
        connection.execute(_ARCHIVE_TAGS, params)  # the archive keeps body parts, times, ...
        connection.execute(_DELETE, params)
    return recomputed, archived
