"""`Vault`: open a file, then one method per operation, each in its own transaction."""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel, ValidationError
from sqlalchemy import Engine, exc

from vault.domain.errors import (
    AthleteNotFound,
    BusyError,
    ConflictError,
    InvalidInput,
    NotAVaultFile,
    StorageError,
    VaultError,
)
from vault.domain.limits import (
    ARCHIVE_RETENTION_DAYS,
    EPISODE_ARCHIVE_RETENTION_DAYS,
    EPISODE_BUDGET,
    EPISODE_CAP,
    ITEMS_PER_CALL,
    MAX_FACTS,
)
from vault.domain.models import (
    Archived,
    AthleteMemory,
    AthleteSummary,
    Candidate,
    DecayResult,
    Evidence,
    Fact,
    FactIn,
    ForgetResult,
    ListItem,
    MergeResult,
    NoteIn,
    PatternIn,
    Retraction,
    aware_in_range,
    describe_validation_error,
    validated,
    validated_athlete,
)
from vault.domain.rules import DEFAULT_DECAY_POLICY, DecayPolicy
from vault.domain.times import utc_now
from vault.domain.vocabulary import Category, Kind, parse_category
from vault.lazy import LazyModule
from vault.prompt.memory_block import DEFAULT_BUDGET, MemoryBlock, render_rows
from vault.prompt.tokens import DEFAULT_ENCODING
from vault.storage import dialect, queries
from vault.storage import migrations as migrate
from vault.storage.dialect import is_sqlite
from vault.storage.engine import (
    as_url,
    backup_sqlite,
    create_vault_engine,
    default_url,
    display_url,
    sqlite_file,
    writer,
)
from vault.storage.failures import is_busy, storage_failure

if TYPE_CHECKING:
    from vault import extraction
    from vault.domain import episodes as episode_models
    from vault.domain.episodes import (
        AddEpisodesResult,
        Episode,
        EpisodeIn,
        Knowledge,
        KnowledgeIn,
        StorePolicy,
    )
    from vault.extraction import ActivityIn, Extractor, Turn
    from vault.prompt import bootstrap, contract
    from vault.prompt import episodes as episode_sections
    from vault.prompt.bootstrap import Profile
    from vault.prompt.episodes import EpisodeSections
    from vault.prompt.sections import Ranker
    from vault.services import consolidation
    from vault.services import copy as copying
    from vault.services import evidence as evidence_services
    from vault.services import episodes as episode_services
    from vault.services import health, interchange, learning
    from vault.services import memory as services
    from vault.storage import uow as units
    from vault.storage.repositories import episodes as episode_repositories
    from vault.storage.uow import RetryPolicy, UnitOfWork
else:  # imported on first use: `vault prompt` loads only what the MEMORY block needs (start-up)
    extraction = LazyModule("vault.extraction")
    episode_models = LazyModule("vault.domain.episodes")
    bootstrap = LazyModule("vault.prompt.bootstrap")
    contract = LazyModule("vault.prompt.contract")
    episode_sections = LazyModule("vault.prompt.episodes")
    copying = LazyModule("vault.services.copy")
    consolidation = LazyModule("vault.services.consolidation")
    evidence_services = LazyModule("vault.services.evidence")
    episode_services = LazyModule("vault.services.episodes")
    health = LazyModule("vault.services.health")
    interchange = LazyModule("vault.services.interchange")
    learning = LazyModule("vault.services.learning")
    services = LazyModule("vault.services.memory")
    units = LazyModule("vault.storage.uow")
    episode_repositories = LazyModule("vault.storage.repositories.episodes")

_CANDIDATE_TYPES = (FactIn, PatternIn, NoteIn, Retraction)


def open_vault(
    target: str | os.PathLike[str] | None = None,
    *,
    upgrade: bool = False,
    read_only: bool = False,
    synchronous: str | None = None,
    busy_retry: RetryPolicy | None = None,
    decay_policy: DecayPolicy | None = None,
) -> "Vault":
    """Open a vault file (path or database URL; default `$VAULT_DB_URL`, `$VAULT_DB`, ./vault.db).

    A file behind the newest schema is upgraded when `upgrade=True`; otherwise opening it
    raises SchemaOutOfDate naming the command to run. A file from a newer vault is refused.
    `synchronous` is "NORMAL" (default, or `$VAULT_SYNCHRONOUS`) or "FULL" (README,
    "Reliability and privacy"); `busy_retry` says how writes retry a busy lock (RetryPolicy);
    `decay_policy` sets the weekly decay factor per category (default DEFAULT_DECAY_POLICY).
    A file this call created is removed again if opening it fails.
    """
    _decay_policy(decay_policy)  # a bad policy is refused before anything is opened
    url = default_url() if target is None else as_url(target)
    created = _would_create(url, read_only)
    engine = create_vault_engine(url, read_only=read_only, synchronous=synchronous)
    try:
        if upgrade and not read_only:
            migrate.upgrade(engine)
        else:
            migrate.check_schema(engine)
    except exc.DBAPIError as error:
        engine.dispose()
        _remove_unwritten(created)
        raise _open_failure(url, error) from None
    except BaseException:
        engine.dispose()
        _remove_unwritten(created)
        raise
    vault = Vault(engine, decay_policy=decay_policy)
    vault.busy_retry = busy_retry
    return vault


class Vault:
    """The library's front door. Every write method is one transaction (BEGIN IMMEDIATE)."""

    def __init__(self, engine: Engine, *, decay_policy: DecayPolicy | None = None) -> None:
        self.engine = engine
        self.decay_policy = _decay_policy(decay_policy)
        self._writer = writer(engine)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Vault":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def unit_of_work(self) -> UnitOfWork:
        """A write unit of work, for callers composing several steps in one transaction."""
        return units.UnitOfWork(self._writer)

    @contextmanager
    def _write(self) -> Iterator[UnitOfWork]:
        """One write transaction. BEGIN IMMEDIATE is retried while the lock is busy (never a
        half-done transaction); a database failure becomes one VaultError: BusyError,
        StorageError (read-only, disk full), ConflictError or VaultError."""
        try:
            with units.UnitOfWork(self._writer, retry=self.busy_retry) as uow:
                yield uow
                uow.commit()
        except exc.IntegrityError as error:
            raise ConflictError(f"the change breaks an integrity rule: {error.orig}") from None
        except exc.DBAPIError as error:
            raise storage_failure(error) from None

    @contextmanager
    def _read(self) -> Iterator[Any]:
        with self.engine.connect() as connection:
            yield connection

    # -- writes
    def merge(
        self,
        athlete_id: str,
        candidates: Sequence[Candidate | dict[str, Any]],
        now: datetime | None = None,
        *,
        trusted: bool = False,
    ) -> MergeResult:
        """Merge facts, patterns, notes and retractions into an athlete's memory (one transaction).

        Privacy at the storage boundary: every fact, pattern and note is checked
        (`vault.extraction.check_candidate`: contact data, card numbers, IBANs, document
        numbers, dates of birth, credentials, other people's names, text addressed to a model,
        slot values that are not values); a refused one is InvalidInput and nothing is
        written. `trusted=True` skips that check for a manual entry its author vouches for.
        At most ITEMS_PER_CALL candidates per call.
        """
        athlete = validated_athlete(athlete_id)
        checked = _checked_candidates(candidates, trusted=trusted)
        moment = _now(now)
        if not checked:
            return MergeResult()
        with self._write() as uow:
            return services.merge(uow, athlete, checked, moment, self.decay_policy)

    def remember(
        self, athlete_id: str, text: str, now: datetime | None = None, *, trusted: bool = False,
        **fields: Any,
    ) -> MergeResult:
        """Merge one fact given as text (plus any FactIn field); `trusted` as in `merge`."""
        fact = validated(FactIn, {"text": text, **fields})
        return self.merge(athlete_id, [fact], now, trusted=trusted)

    def decay(
        self, now: datetime | None = None, progress: Callable[[int], None] | None = None
    ) -> DecayResult:
        """Apply time decay to every athlete's facts; archive those below 0.3 (one transaction).

        `progress(n)` is called as facts are recomputed; `facts_due_count(now)` is the total.
        """
        moment = _now(now)
        with self._write() as uow:
            return services.decay(uow, moment, progress, self.decay_policy)

    def forget(self, athlete_id: str, query: str, now: datetime | None = None) -> ForgetResult:
        """Erase every fact, pattern, note and archive row that matches `query`.

        Then the WAL is checkpointed and truncated so the text leaves the disk too; when a
        reader's old snapshot keeps that from finishing within `ERASE_WAIT` seconds, the
        result says `erased_from_disk=False` and `erase(wait=...)` finishes the job.
        """
        athlete = validated_athlete(athlete_id)
        if not isinstance(query, str):
            raise InvalidInput(f"the query must be text, got {type(query).__name__}")
        moment = _now(now)
        with self._erasing():
            with self._write() as uow:
                result = services.forget(uow, athlete, query, moment)
        return result.model_copy(update={"erased_from_disk": self._checkpoint()})

    def delete_athlete(self, athlete_id: str) -> dict[str, int]:
        """Erase everything about one athlete; return rows deleted per table.

        The WAL is checkpointed as after `forget`; `erasure_pending()` tells whether that
        finished (False afterwards means the text is gone from every file)."""
        athlete = validated_athlete(athlete_id)
        with self._erasing():
            with self._write() as uow:
                counts = services.delete_athlete(uow, athlete)
        self._checkpoint()
        return counts

    def cleanup_archive(self, now: datetime | None = None, retention_days: int = ARCHIVE_RETENTION_DAYS) -> int:
        """Delete archive rows older than `retention_days`; return how many."""
        moment = _now(now)
        with self._write() as uow:
            return services.cleanup_archive(uow, moment, retention_days)

    # -- reads: facts as of `now` (default: the clock), patterns, notes and summaries from the views
    def memory(self, athlete_id: str, now: datetime | None = None) -> AthleteMemory:
        athlete = validated_athlete(athlete_id)
        with self._read() as connection:
            return queries.memory(connection, athlete, _now(now), self.decay_policy)

    def active_facts(self, athlete_id: str, now: datetime | None = None) -> list[Fact]:
        """Facts with confidence >= 0.3 as of `now`, best first."""
        athlete = validated_athlete(athlete_id)
        with self._read() as connection:
            return queries.active_facts(connection, athlete, _now(now), self.decay_policy)

    def prompt_facts(self, athlete_id: str, now: datetime | None = None) -> list[Fact]:
        """Facts with confidence >= 0.5 as of `now`, best first."""
        athlete = validated_athlete(athlete_id)
        with self._read() as connection:
            return queries.prompt_facts(connection, athlete, _now(now), self.decay_policy)

    def top_facts(
        self, athlete_id: str, limit: int = MAX_FACTS, now: datetime | None = None
    ) -> list[Fact]:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_FACTS:
            raise InvalidInput(f"limit must be a whole number from 1 to {MAX_FACTS}, got {limit!r}")
        athlete = validated_athlete(athlete_id)
        with self._read() as connection:
            return queries.top_facts(connection, athlete, _now(now), self.decay_policy, limit)

    def facts_by_category(
        self, athlete_id: str, category: Category | str, now: datetime | None = None
    ) -> list[Fact]:
        try:
            chosen = category if isinstance(category, Category) else parse_category(category)
        except (ValueError, AttributeError) as error:
            raise InvalidInput(str(error)) from None
        athlete = validated_athlete(athlete_id)
        with self._read() as connection:
            return queries.facts_by_category(
                connection, athlete, chosen, _now(now), self.decay_policy
            )

    def patterns(self, athlete_id: str) -> list[ListItem]:
        with self._read() as connection:
            return queries.list_items(connection, validated_athlete(athlete_id), Kind.PATTERN)

    def notes(self, athlete_id: str) -> list[ListItem]:
        with self._read() as connection:
            return queries.list_items(connection, validated_athlete(athlete_id), Kind.NOTE)

    def archive(self, athlete_id: str) -> list[Archived]:
        with units.UnitOfWork(self.engine) as uow:
            return uow.archive.for_athlete(validated_athlete(athlete_id))

    def history(self, fact_id: int) -> tuple[list[Archived], int | None]:
        """What `fact_id` replaced (oldest first) and which fact is active for it today."""
        with units.UnitOfWork(self.engine) as uow:
            return services.fact_history(uow, fact_id)

    def summary(self, athlete_id: str) -> AthleteSummary | None:
        with self._read() as connection:
            return queries.summary(connection, validated_athlete(athlete_id))

    def summaries(self) -> list[AthleteSummary]:
        with self._read() as connection:
            return queries.all_summaries(connection)

    # -- learning: extract first (no lock held), then one merge transaction
    def ingest_message(self, athlete_id: str, text: str, *, now: datetime | None = None,
                       extractor: Extractor | None = None) -> MergeResult:
        """Extract facts from a message the athlete wrote at `now` and merge them."""
        moment = _now(now)
        return self.merge(athlete_id, learning.from_message(text, moment, extractor=extractor), moment)

    def ingest_activity(self, athlete_id: str, activity: ActivityIn | dict[str, Any], *,
                        now: datetime | None = None,
                        extractor: Extractor | None = None) -> MergeResult:
        """Extract facts from an activity's notes and merge them (as of `now`, else its time),
        and record the episodes it is worth (the session and its outcome, an injury, a race:
        seed 003) in the same transaction, so PAST EXPERIENCE fills itself."""
        athlete = validated_athlete(athlete_id)
        found, happened = learning.from_activity(activity, extractor=extractor)
        checked = _checked_candidates(found, trusted=False)
        episodes = episode_services.episodes_from_activity(activity)
        moment = _now(now) if now is not None else happened
        with self._write() as uow:
            result = (
                services.merge(uow, athlete, checked, moment, self.decay_policy)
                if checked
                else MergeResult()
            )
            if episodes:
                episode_services.add_episodes(uow, athlete, episodes, moment)
                consolidated = consolidation.run(uow, athlete, moment, self.decay_policy)
                result = consolidation.combined(result, consolidated)
            return result

    def ingest_conversation(self, athlete_id: str, turns: Sequence[Turn | dict[str, Any]], *,
                            now: datetime | None = None,
                            extractor: Extractor | None = None) -> MergeResult:
        """Extract facts from the athlete's turns of a conversation and merge them."""
        return self.merge(athlete_id, learning.from_conversation(turns, extractor=extractor), now)

    def learn_patterns(self, athlete_id: str, activities: Sequence[ActivityIn | dict[str, Any]],
                       now: datetime | None = None) -> MergeResult:
        """Detect recurring patterns in the activity history and merge them."""
        moment = _now(now)
        facts = self.active_facts(athlete_id)
        return self.merge(athlete_id, learning.patterns_from(activities, facts, moment), moment)

    # -- what the coach sees
    def memory_block(
        self,
        athlete_id: str,
        *,
        budget: int = DEFAULT_BUDGET,
        encoding: str = DEFAULT_ENCODING,
        now: datetime | None = None,
    ) -> MemoryBlock:
        """Seed 000's MEMORY block for the athlete as of `now`, within `budget` tokens, with a
        drop report."""
        athlete = validated_athlete(athlete_id)
        moment = _now(now)
        rows = queries.prompt_rows(self.engine, athlete, moment, self.decay_policy)
        return render_rows(rows, budget=budget, encoding=encoding)

    def contract(
        self, athlete_id: str, *, with_times: bool = False, now: datetime | None = None
    ) -> dict[str, Any]:
        """The athlete's memory as seed 001's `athlete_memory` JSON object, checked against the
        seed's own schema. `with_times=True` adds `learned_at` / `updated_at`, which LEAVES the
        seed's contract (its schema has no top-level `updated_at`).

        Raises:
            AthleteNotFound: the vault holds nothing about the athlete.
        """
        athlete = validated_athlete(athlete_id)
        if self.summary(athlete) is None:
            raise AthleteNotFound(athlete)
        document = contract.to_contract(self.memory(athlete, now), with_times=with_times)
        contract.validate_contract(document, with_times=with_times)
        return document

    def bootstrap(
        self, athlete_id: str, profile: Profile | dict[str, Any], now: datetime | None = None
    ) -> MergeResult:
        """Seed a (new) athlete's memory from their profile: sport, level, goal, weekly hours."""
        moment = _now(now)
        try:
            facts = bootstrap.facts_from_profile(profile, moment)
        except ValidationError as error:
            raise InvalidInput(describe_validation_error(error)) from None
        return self.merge(athlete_id, facts, moment)

    def relevance_ranker(self, now: datetime | None = None) -> Ranker:
        """Seed 002's relevance scoring as the ranker `render_sections` takes."""
        moment = _now(now)
        return lambda items, context, limit: extraction.rank_relevant(items, context, moment, limit)

    def relevant(
        self, athlete_id: str, context: str, limit: int = 5, now: datetime | None = None
    ) -> list[Fact | ListItem]:
        """The athlete's facts, patterns and notes most relevant to `context` (seed 002 §5.5)."""
        if not isinstance(context, str):
            raise InvalidInput(f"the context must be text, got {type(context).__name__}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be a whole number >= 1, got {limit!r}")
        memory = self.memory(athlete_id, now)
        items: list[Fact | ListItem] = [*memory.facts, *memory.patterns, *memory.notes]
        return list(self.relevance_ranker(now)(items, context, limit))

    def _checkpoint(self, wait: float | None = None) -> bool:
        """Move WAL pages into the main file and truncate the WAL, so erased text leaves disk.

        Checks the checkpoint's busy result and retries (at most `wait` seconds, default
        ERASE_WAIT) while readers hold old snapshots. True when the WAL is empty.
        """
        done = health.truncate_wal(self.engine, health.ERASE_WAIT if wait is None else wait)
        if not done:
            health.mark_erasure(self.engine)  # may have been cleared by another process
        return done

    # -- erasure and health
    busy_retry: RetryPolicy | None = None  # None: the default policy ($VAULT_BUSY_RETRIES)

    @contextmanager
    def _erasing(self) -> Iterator[None]:
        """Mark an erasure as pending before its transaction (a crash after the commit stays
        visible to `doctor`); unmark if the transaction did not commit and nothing else was."""
        already = health.erasure_pending(self.engine)
        health.mark_erasure(self.engine)
        try:
            yield
        except BaseException:
            if not already:
                health.clear_erasure(self.engine)
            raise

    def erase(self, wait: float = 30.0) -> bool:
        """Finish every pending erasure: checkpoint and truncate the WAL, waiting up to `wait`
        seconds for readers holding old snapshots. True when no erased text remains on disk."""
        if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 <= wait <= 86400:
            raise InvalidInput(f"wait must be a number of seconds from 0 to 86400, got {wait!r}")
        return self._checkpoint(float(wait))

    def erasure_pending(self) -> bool:
        """True when a forget or delete may still have copies of its text in the WAL."""
        return health.erasure_pending(self.engine)

    def doctor(self) -> health.HealthReport:
        """Integrity, foreign keys, revision, views, memory invariants, pending erasure."""
        return health.diagnose(self.engine)

    # -- interchange: vault-export documents and seed 002's memories.yaml
    def export(self, athlete_id: str) -> dict[str, Any]:
        """One athlete's whole memory as a `vault-export` v1 document (one read transaction)."""
        athlete = validated_athlete(athlete_id)
        with units.UnitOfWork(self.engine) as uow:
            return interchange.export_athlete(uow, athlete)

    def import_document(
        self, document: dict[str, Any] | interchange.ExportDocument, *, trusted: bool = False
    ) -> interchange.ImportReport:
        """Restore the document's athlete exactly (ids renumbered); nothing written if invalid.

        Texts pass the privacy filter unless `trusted` (a document this vault exported).
        """
        doc = interchange.validate_document(document)
        if not trusted:
            interchange.check_privacy(doc)
        with self._write() as uow:
            return interchange.restore(uow, doc)

    def import_memories_yaml(
        self,
        path: str | os.PathLike[str],
        athlete_id: str,
        replace: bool = False,
        *,
        now: datetime | None = None,
    ) -> interchange.ImportReport:
        """Import seed 002's memories.yaml (a path, or the YAML text as a `str`) as the athlete's."""
        athlete = validated_athlete(athlete_id)
        text, where = interchange.read_source(path)
        moment = _now(now)
        with self._write() as uow:
            return interchange.import_memories_yaml(
                uow, text, athlete, replace=replace, now=moment, where=where
            )

    # -- bulk: whole-vault work with progress reports, backup, streams of documents
    def facts_due_count(self, now: datetime | None = None) -> int:
        """How many facts a `decay(now)` would recompute (the length of its progress bar)."""
        moment = _now(now)
        with self._read() as connection:
            return queries.facts_due_count(connection, moment)

    def athlete_count(self) -> int:
        with self._read() as connection:
            return queries.athlete_count(connection)

    def stats(self) -> dict[str, dict[str, int]]:
        """Rows per vault table (`tables`) and stored facts per category (`facts_by_category`),
        from one read transaction."""
        with self._read() as connection:
            return {
                "tables": queries.table_counts(connection),
                "facts_by_category": queries.facts_per_category(connection),
            }

    @contextmanager
    def run_query(
        self, query: str, *, timeout: float = 5.0, limit: int | None = None
    ) -> Iterator[tuple[list[str], Iterator[tuple[Any, ...]]]]:
        """`with vault.run_query(sql) as (headers, rows):` one analyst query that only reads.

        The query is checked by a SQL parser first (`vault.storage.dialect.check_query`), then
        run in a read-only transaction cancelled after `timeout` seconds; `rows` streams the
        result (at most `limit` rows). A refused, failing or row-less statement is a VaultError.
        """
        explain = dialect.check_query(query, self.engine.dialect.name)
        errors = self.engine.dialect.loaded_dbapi.Error
        with self.engine.connect() as connection:
            try:
                with dialect.read_only_query(connection, timeout, stream=not explain) as cursor:
                    cursor.execute(query)
                    if cursor.description is None:
                        raise InvalidInput("the statement returns no rows; `vault sql` only reads")
                    yield [column[0] for column in cursor.description], _fetched(cursor, limit)
            except errors as error:
                first = (str(error).strip().splitlines() or [type(error).__name__])[0]
                raise InvalidInput(f"query failed: {first}") from None

    def export_all(self, page: int = 500) -> Iterator[dict[str, Any]]:
        """Every athlete's `vault-export` document, by athlete id, from ONE read transaction.

        A generator: one page of athlete ids and one athlete's rows are held at a time, so
        memory stays flat however large the vault is; the documents form one consistent snapshot.
        """
        with units.UnitOfWork(self.engine) as uow:
            last = ""
            while ids := queries.athlete_ids_after(uow.connection, last, page):
                for athlete in ids:
                    yield interchange.export_athlete(uow, athlete)
                last = ids[-1]

    def import_documents(
        self,
        documents: Iterable[dict[str, Any] | interchange.ExportDocument],
        *,
        trusted: bool = False,
    ) -> list[interchange.ImportReport]:
        """Restore several documents in ONE transaction (all or nothing); idempotent like
        `import_document`. Every document is validated before anything is written."""
        docs = [interchange.validate_document(d) for d in documents]
        if not trusted:
            for doc in docs:
                interchange.check_privacy(doc)
        if not docs:
            return []
        with self._write() as uow:
            return [interchange.restore(uow, doc) for doc in docs]

    def copy_to(
        self, destination: "Vault", *, on_batch: Callable[[int], None] | None = None
    ) -> copying.CopyReport:
        """Copy every athlete of this vault into `destination` (SQLite or PostgreSQL, either
        way), in one transaction there, verified by rows per athlete and a checksum; CopyError
        (a VaultError) when it cannot start or the verification fails. `on_batch(n)` reports
        athletes copied (`athlete_count()` is the total)."""
        return copying.copy_vault(
            self.engine, destination.engine, on_batch=on_batch or (lambda _n: None)
        )

    def backup(self, destination: str | os.PathLike[str], *, overwrite: bool = False) -> Path:
        """A consistent copy of the whole SQLite file at `destination`, taken while it is live.

        SQLite's online backup API copies every page in one read snapshot (writers elsewhere
        are not blocked); the copy is written beside the destination and renamed into place,
        so a crash never leaves half a backup (`vault.storage.engine.backup_sqlite`). An
        existing destination is refused unless `overwrite=True`; a missing directory is
        InvalidInput, a failing copy StorageError. The copy is readable by its owner only.
        """
        if not is_sqlite(self.engine):
            raise InvalidInput("backup copies SQLite files; back up PostgreSQL with pg_dump")
        target = Path(destination)
        if target.exists() and not overwrite:
            raise InvalidInput(f"{target} exists; choose another name or overwrite it (--force)")
        if target.is_dir():
            raise InvalidInput(f"{target} is a directory; give a file name")
        directory = target.parent
        if not directory.is_dir():
            raise InvalidInput(f"cannot back up to {target}: the directory {directory} does not exist")
        source = self.engine.url.database
        if source and target.resolve() == Path(source).resolve():
            raise InvalidInput("the backup must not replace the vault it copies")
        return backup_sqlite(self.engine, target)

    # -- episodes: what happened, recalled when it matters (seed 003; vault.services.episodes)
    def add_episodes(
        self,
        owner_id: str,
        items: Sequence[EpisodeIn | dict[str, Any]],
        *,
        now: datetime | None = None,
        policy: StorePolicy | None = None,
        cap: int = EPISODE_CAP,
        embed: episode_services.Embed | None = None,
        model: str = "app",
    ) -> AddEpisodesResult:
        """Record episodes in one transaction (set-wise); a known `ref` is rewritten in place.

        `policy` (seed 003's triggers) skips what it would not remember; past `cap` the
        owner's oldest episodes move to `episode_archive`. `embed` stores a vector per episode.
        """
        owner = validated_athlete(owner_id)
        checked = [validated(episode_models.EpisodeIn, item) for item in items]
        with self._write() as uow:
            return episode_services.add_episodes(
                uow, owner, checked, _now(now), policy=policy, cap=cap, embed=embed, model=model
            )

    def import_episodes(
        self,
        owner_id: str,
        items: Iterable[EpisodeIn | dict[str, Any]],
        *,
        now: datetime | None = None,
        batch: int = 2000,
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, int]:
        """Record a stream of episodes in ONE transaction, `batch` at a time (flat memory).

        `items` is read lazily, inside the transaction: an invalid item (InvalidInput) writes
        nothing. `progress(n)` is called after each batch with its size. Returns the counts
        `episodes`, `added`, `updated` and `archived`.
        """
        owner = validated_athlete(owner_id)
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise InvalidInput(f"batch must be a whole number >= 1, got {batch!r}")
        moment = _now(now)
        counts = dict.fromkeys(("episodes", "added", "updated", "archived"), 0)
        stream = iter(items)
        with self._write() as uow:
            while chunk := [validated(episode_models.EpisodeIn, i) for i in itertools.islice(stream, batch)]:
                result = episode_services.add_episodes(uow, owner, chunk, moment)
                counts["episodes"] += len(chunk)
                counts["added"] += len(result.added)
                counts["updated"] += len(result.updated)
                counts["archived"] += result.archived
                if progress is not None:
                    progress(len(chunk))
        return counts

    def add_episode(
        self, owner_id: str, text: str, *, now: datetime | None = None, **fields: Any
    ) -> AddEpisodesResult:
        """Record one episode (`type`, `outcome`, `at`, `ref`, `meta` as in EpisodeIn)."""
        return self.add_episodes(owner_id, [{"text": text, **fields}], now=now)

    def recall(
        self,
        owner_id: str,
        query: str,
        *,
        k: int = 3,
        now: datetime | None = None,
        filters: dict[str, Any] | None = None,
        embed: episode_services.Embed | None = None,
        model: str = "app",
    ) -> list[Episode]:
        """The owner's `k` episodes most relevant to `query`, best first, with score parts."""
        owner = validated_athlete(owner_id)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 100:
            raise InvalidInput(f"k must be a whole number from 1 to 100, got {k!r}")
        if not isinstance(query, str):
            raise InvalidInput("query must be a string")
        with self._read() as connection:
            return episode_services.recall(
                episode_repositories.EpisodeRepository(connection), owner, query, _now(now), k=k, filters=filters,
                embed=embed, model=model,
            )  # fmt: skip

    def record_activity_episodes(
        self,
        owner_id: str,
        activity: ActivityIn | dict[str, Any],
        *,
        now: datetime | None = None,
        policy: StorePolicy | None = None,
    ) -> AddEpisodesResult:
        """The episodes an activity is worth (session with outcome, injury, race), recorded."""
        found = episode_services.episodes_from_activity(activity, policy=policy)
        return self.add_episodes(owner_id, found, now=now) if found else episode_models.AddEpisodesResult()

    def forget_episodes(self, owner_id: str, query: str) -> dict[str, int]:
        """Erase the owner's episodes and archived episodes matching every word of `query`."""
        owner = validated_athlete(owner_id)
        with self._write() as uow:
            counts = episode_services.forget_episodes(uow, owner, query)
        self._checkpoint()
        return counts

    def expire_episodes(self, max_age_days: int, now: datetime | None = None) -> int:
        """Archive (`expired`) every episode older than `max_age_days`; return how many."""
        with self._write() as uow:
            return episode_services.expire_episodes(uow, _now(now), max_age_days)

    def cleanup_episode_archive(
        self, now: datetime | None = None, retention_days: int = EPISODE_ARCHIVE_RETENTION_DAYS
    ) -> int:
        """Delete archived episodes older than `retention_days`; return how many."""
        with self._write() as uow:
            return episode_services.cleanup_episode_archive(uow, _now(now), retention_days)

    @staticmethod
    def read_knowledge(paths: Sequence[str | os.PathLike[str]]) -> list[KnowledgeIn]:
        """Parse knowledge JSON files (a directory means every *.json in it), touching no
        database: check the input before opening a vault for `load_knowledge`."""
        return episode_services.load_knowledge_files([Path(p) for p in paths])

    @staticmethod
    def extract_message(text: str, now: datetime | None = None) -> list[Candidate]:
        """What the rule-based extractor finds in one message (pure: no database, no lock)."""
        return learning.from_message(text, _now(now))

    def load_knowledge(
        self,
        source: str | os.PathLike[str] | Sequence[KnowledgeIn | dict[str, Any]],
        *,
        now: datetime | None = None,
    ) -> tuple[int, int]:
        """Load reference knowledge (a JSON file, a directory of them, or rows); (added, updated)."""
        if isinstance(source, (str, os.PathLike)):
            items = episode_services.load_knowledge_files([Path(source)])
        else:
            items = [validated(episode_models.KnowledgeIn, item) for item in source]
        with self._write() as uow:
            return episode_services.store_knowledge(uow, items, _now(now))

    def knowledge_for(self, context: str) -> list[Knowledge]:
        """Knowledge rows whose name or alias appears in `context`."""
        with self._read() as connection:
            return episode_services.lookup_knowledge(episode_repositories.KnowledgeRepository(connection), context)

    def experience_sections(
        self,
        owner_id: str,
        context: str,
        *,
        k: int = 3,
        now: datetime | None = None,
        budget: int = EPISODE_BUDGET,
        encoding: str = DEFAULT_ENCODING,
    ) -> EpisodeSections:
        """Seed 003's KNOWLEDGE / PAST EXPERIENCE for `context`, within `budget` tokens."""
        recalled = self.recall(owner_id, context, k=k, now=now) if context.strip() else []
        return episode_sections.render_episode_sections(
            self.knowledge_for(context), recalled, budget=budget, encoding=encoding
        )

    # --- issue 20 ---
    def why(self, fact_ids: Sequence[int]) -> dict[int, list[Evidence]]:
        """The evidence each active fact rests on (source, ref, time, words), oldest first.

        Raises FactNotFound for an id that is not an active fact."""
        ids = [_fact_id(i) for i in fact_ids]
        with self._read() as connection:
            return evidence_services.why(connection, ids)

    def consolidate(self, athlete_id: str, now: datetime | None = None) -> MergeResult:
        """Turn the athlete's recorded activity sessions into durable facts (idempotent)."""
        athlete = validated_athlete(athlete_id)
        with self._write() as uow:
            return consolidation.run(uow, athlete, _now(now), self.decay_policy)


def _candidate(candidate: Candidate | dict[str, Any]) -> Candidate:
    if isinstance(candidate, _CANDIDATE_TYPES):
        return candidate
    if isinstance(candidate, dict):
        kind = candidate.get("kind", "fact")
        data = {k: v for k, v in candidate.items() if k != "kind"}
        models: dict[str, type[BaseModel]] = {"fact": FactIn, "pattern": PatternIn, "note": NoteIn}
        model = models.get(kind)
        if model is None:
            raise InvalidInput(f"kind must be fact, pattern or note, got {kind!r}")
        return cast(Candidate, validated(model, data))
    raise InvalidInput(f"cannot merge a {type(candidate).__name__}; give a FactIn, PatternIn, NoteIn or dict")


_FETCH = 500  # rows per fetch of an analyst query (a server-side cursor on PostgreSQL)


def _fetched(cursor: Any, limit: int | None) -> Iterator[tuple[Any, ...]]:
    """The cursor's rows in chunks of _FETCH, up to `limit`."""
    left = limit
    while left is None or left > 0:
        chunk = cursor.fetchmany(_FETCH if left is None else min(_FETCH, left))
        if not chunk:
            return
        if left is not None:
            left -= len(chunk)
        yield from (tuple(row) for row in chunk)


def _decay_policy(policy: DecayPolicy | None) -> DecayPolicy:
    if policy is None:
        return DEFAULT_DECAY_POLICY
    if not isinstance(policy, DecayPolicy):
        raise InvalidInput(f"decay_policy must be a DecayPolicy, got {policy!r}")
    return policy


def _fact_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"a fact id is a whole number >= 1, got {value!r}")
    return value


def _now(now: datetime | None) -> datetime:
    if now is None:
        return utc_now()
    try:
        return aware_in_range(now, "now")  # naive, or outside 1900..2500 UTC: InvalidInput
    except (ValueError, AttributeError) as error:
        raise InvalidInput(str(error)) from None


# -- erasure and health: helpers


def _checked_candidates(candidates: Any, *, trusted: bool) -> list[Candidate]:
    """Validated candidates (at most ITEMS_PER_CALL, read lazily), privacy-checked unless
    `trusted`; InvalidInput for anything else."""
    if isinstance(trusted, bool) is False:
        raise InvalidInput(f"trusted must be True or False, got {trusted!r}")
    if candidates is None or isinstance(candidates, (str, bytes, dict, BaseModel)):
        raise InvalidInput("candidates must be a list of FactIn, PatternIn, NoteIn, Retraction or dicts")
    try:
        taken = list(itertools.islice(iter(candidates), ITEMS_PER_CALL + 1))
    except TypeError:
        raise InvalidInput(
            f"candidates must be a list, got {type(candidates).__name__}"
        ) from None
    if len(taken) > ITEMS_PER_CALL:
        raise InvalidInput(f"at most {ITEMS_PER_CALL} candidates per merge")
    checked = [_candidate(c) for c in taken]
    if not trusted:
        for position, candidate in enumerate(checked, 1):
            problem = extraction.check_candidate(candidate)
            if problem is not None:
                raise InvalidInput(
                    f"candidate {position} refused: {problem} (nothing was written; "
                    "pass trusted=True for a manual entry you vouch for)"
                )
    return checked


def _would_create(url: str, read_only: bool) -> Path | None:
    """The SQLite file opening `url` would create, if it does not exist yet."""
    path = None if read_only else sqlite_file(url)
    return None if path is None or path.exists() else path


def _remove_unwritten(created: Path | None) -> None:
    """Remove a file this open created when nothing was committed to it (no 0-byte leftovers
    that later read as "schema out of date")."""
    if created is None or not created.exists():
        return
    if created.stat().st_size > 0:
        try:
            with closing(sqlite3.connect(f"file:{created}?mode=ro", uri=True)) as raw:
                if raw.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                    return  # it holds a schema after all (another process created it)
        except sqlite3.Error:
            pass  # unreadable (e.g. a torn header): nothing of value, remove it
    for leftover in ("", "-wal", "-shm", "-journal"):
        Path(f"{created}{leftover}").unlink(missing_ok=True)


def _open_failure(url: str, error: exc.DBAPIError) -> VaultError:
    """Why a file could not be opened, as the right VaultError (never "not a vault" for a
    lock or a read-only directory)."""
    if is_busy(error):
        return BusyError(
            f"cannot open {display_url(url)}: another process holds the database's write lock (an upgrade "
            f"waited for it and gave up); try again when it is done ({error.orig})"
        )
    failure = storage_failure(error, "opening")
    if isinstance(failure, StorageError):
        return failure
    return NotAVaultFile(f"cannot open {display_url(url)}: {error.orig}")
