"""`v.admin`: looking after the file: health, pending erasures, counts, analyst SQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from vault.domain.errors import InvalidInput
from vault.facade.store import Store, moment
from vault.storage import queries, sql_firewall
from vault.storage.repositories.engine_skips import SkippedItem, skipped_items
from vault.storage.repositories.engine_table import waiting_counts

if TYPE_CHECKING:  # imported by the methods that use them (start-up of `vault prompt`)
    from vault.services import engine_sync, health


class Admin:
    """Doctor, erase, stats, read-only SQL, and the engine table's upkeep."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def doctor(self) -> health.HealthReport:
        """Integrity, foreign keys, revision, views, memory invariants, pending erasure."""
        from vault.services import health

        return health.diagnose(self._store.engine)

    def erase(self, wait: float = 30.0) -> bool:
        """Finish every pending erasure: checkpoint and truncate the WAL, waiting up to `wait`
        seconds for readers holding old snapshots. True when no erased text remains on disk."""
        if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 <= wait <= 86400:
            raise InvalidInput(f"wait must be a number of seconds from 0 to 86400, got {wait!r}")
        return self._store.checkpoint(float(wait))

    def sync_engine(self, now: datetime | None = None) -> engine_sync.EngineSyncReport:
        """Apply the engine's waiting `athlete_memory` writes (and queued legacy rows), a batch
        per transaction (docs/engine.md). Every write applies a batch too; `open_vault(upgrade=
        True)`, `vault upgrade` and the reading commands run this when rows wait."""
        return self._store.sync_engine(None if now is None else moment(now))

    def engine_items_left_out(self, limit: int = 10) -> tuple[int, list[SkippedItem]]:
        """Items of the engine's applied rows that vault could not take: how many the record
        holds, and the latest `limit`, newest first (never their text; docs/engine.md)."""
        with self._store.read() as connection:
            return skipped_items(connection, limit)

    def engine_writes_waiting(self) -> int:
        """How many rows the engine wrote that vault has not applied yet (0 on PostgreSQL, and
        on a file from before the engine's table, revision 0007)."""
        if not self._store.has_engine_inbox:
            return 0
        with self._store.read() as connection:
            return waiting_counts(connection)[0]

    def erasure_pending(self) -> bool:
        """True when a forget or delete may still have copies of its text in the WAL."""
        from vault.services import health

        return health.erasure_pending(self._store.engine)

    def stats(self) -> dict[str, dict[str, int]]:
        """Rows per vault table (`tables`) and stored facts per category (`facts_by_category`),
        from one read transaction."""
        self._store.settle_before_reading()
        with self._store.read() as connection:
            return {
                "tables": queries.table_counts(connection),
                "facts_by_category": queries.facts_per_category(connection),
            }

    def athlete_count(self) -> int:
        with self._store.read() as connection:
            return queries.athlete_count(connection)

    def facts_due_count(self, now: datetime | None = None) -> int:
        """How many facts a `decay(now)` would recompute (the length of its progress bar)."""
        at = moment(now)
        with self._store.read() as connection:
            return queries.facts_due_count(connection, at)

    @contextmanager
    def sql(
        self,
        query: str,
        *,
        timeout: float = 5.0,
        limit: int | None = None,
        max_bytes: int = sql_firewall.MAX_RESULT_BYTES,
    ) -> Iterator[tuple[list[str], Iterator[tuple[Any, ...]]]]:
        """`with v.admin.sql(query) as (headers, rows):` one analyst query that only reads.

        The query is checked by a SQL parser first (`vault.storage.sql_firewall.check_query`),
        then run in a read-only transaction; `timeout` seconds bound the whole run, fetching
        included, and `max_bytes` the rows returned; `rows` streams the result (at most `limit`
        rows). A refused, failing, too slow, too large or row-less statement is a VaultError.
        """
        engine = self._store.engine
        explain = sql_firewall.check_query(query, engine.dialect.name)
        self._store.settle_before_reading()
        errors = engine.dialect.loaded_dbapi.Error
        with engine.connect() as connection:
            try:
                with sql_firewall.read_only_query(
                    connection, timeout, stream=not explain, max_bytes=max_bytes
                ) as cursor:
                    cursor.execute(query)
                    if cursor.description is None:
                        raise InvalidInput("the statement returns no rows; `vault sql` only reads")
                    yield [column[0] for column in cursor.description], cursor.rows(limit)
            except errors as error:
                first = (str(error).strip().splitlines() or [type(error).__name__])[0]
                raise InvalidInput(f"query failed: {first}") from None
