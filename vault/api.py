"""`Vault`: open a file, then one method per operation, each in its own transaction."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, cast

from pydantic import BaseModel, ValidationError
from sqlalchemy import Engine, exc

from vault.domain.errors import ConflictError, InvalidInput, NotAVaultFile, VaultError
from vault.domain.models import (
    Archived,
    AthleteMemory,
    AthleteSummary,
    Candidate,
    DecayResult,
    Fact,
    FactIn,
    ForgetResult,
    ListItem,
    MergeResult,
    NoteIn,
    PatternIn,
    Retraction,
    describe_validation_error,
    validated,
    validated_athlete,
)
from vault.domain.times import require_aware, utc_now
from vault.domain.vocabulary import Category, Kind, parse_category
from vault.extraction import ActivityIn, Extractor, Turn, rank_relevant
from vault.prompt import (
    DEFAULT_BUDGET,
    DEFAULT_ENCODING,
    MemoryBlock,
    Profile,
    Ranker,
    facts_from_profile,
    render_rows,
    to_contract,
    validate_contract,
)
from vault.services import interchange, learning
from vault.services import memory as services
from vault.storage import migrations as migrate
from vault.storage import queries
from vault.storage.engine import as_url, create_vault_engine, default_url, single_reader, writer
from vault.storage.uow import UnitOfWork

_CANDIDATE_TYPES = (FactIn, PatternIn, NoteIn, Retraction)


def open_vault(
    target: str | os.PathLike[str] | None = None, *, upgrade: bool = False, read_only: bool = False
) -> "Vault":
    """Open a vault file (path or database URL; default `$VAULT_DB_URL`, `$VAULT_DB`, ./vault.db).

    A file behind the newest schema is upgraded when `upgrade=True`; otherwise opening it
    raises SchemaOutOfDate naming the command to run. A file from a newer vault is refused.
    """
    url = default_url() if target is None else as_url(target)
    engine = create_vault_engine(url, read_only=read_only)
    try:
        if upgrade and not read_only:
            migrate.upgrade(engine)
        else:
            migrate.check_schema(engine)
    except exc.DatabaseError as error:
        engine.dispose()
        raise NotAVaultFile(f"cannot open {url}: {error.orig}") from None
    except BaseException:
        engine.dispose()
        raise
    return Vault(engine)


class Vault:
    """The library's front door. Every write method is one transaction (BEGIN IMMEDIATE)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writer = writer(engine)
        self._single_reader = single_reader(engine)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Vault":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def unit_of_work(self) -> UnitOfWork:
        """A write unit of work, for callers composing several steps in one transaction."""
        return UnitOfWork(self._writer)

    @contextmanager
    def _write(self) -> Iterator[UnitOfWork]:
        try:
            with self.unit_of_work() as uow:
                yield uow
                uow.commit()
        except exc.IntegrityError as error:
            raise ConflictError(f"the change breaks an integrity rule: {error.orig}") from None
        except exc.OperationalError as error:
            raise VaultError(f"database error: {error.orig}") from None

    @contextmanager
    def _read(self) -> Iterator[Any]:
        with self.engine.connect() as connection:
            yield connection

    # -- writes
    def merge(
        self, athlete_id: str, candidates: Sequence[Candidate | dict[str, Any]], now: datetime | None = None
    ) -> MergeResult:
        """Merge facts, patterns, notes and retractions into an athlete's memory (one transaction)."""
        athlete = validated_athlete(athlete_id)
        checked = [_candidate(c) for c in candidates]
        moment = _now(now)
        if not checked:
            return MergeResult()
        with self._write() as uow:
            return services.merge(uow, athlete, checked, moment)

    def remember(self, athlete_id: str, text: str, now: datetime | None = None, **fields: Any) -> MergeResult:
        """Merge one fact given as text (plus any FactIn field)."""
        return self.merge(athlete_id, [validated(FactIn, {"text": text, **fields})], now)

    def decay(self, now: datetime | None = None) -> DecayResult:
        """Apply time decay to every athlete's facts; archive those below 0.3."""
        moment = _now(now)
        with self._write() as uow:
            return services.decay(uow, moment)

    def forget(self, athlete_id: str, query: str, now: datetime | None = None) -> ForgetResult:
        """Erase every fact, pattern, note and archive row that matches `query`."""
        athlete = validated_athlete(athlete_id)
        moment = _now(now)
        with self._write() as uow:
            result = services.forget(uow, athlete, query, moment)
        self._checkpoint()
        return result

    def delete_athlete(self, athlete_id: str) -> dict[str, int]:
        """Erase everything about one athlete; return rows deleted per table."""
        athlete = validated_athlete(athlete_id)
        with self._write() as uow:
            counts = services.delete_athlete(uow, athlete)
        self._checkpoint()
        return counts

    def cleanup_archive(self, now: datetime | None = None, retention_days: int = 90) -> int:
        """Delete archive rows older than `retention_days`; return how many."""
        moment = _now(now)
        with self._write() as uow:
            return services.cleanup_archive(uow, moment, retention_days)

    # -- reads (straight from the SQL views)
    def memory(self, athlete_id: str) -> AthleteMemory:
        athlete = validated_athlete(athlete_id)
        with self._read() as connection:
            return queries.memory(connection, athlete)

    def active_facts(self, athlete_id: str) -> list[Fact]:
        with self._read() as connection:
            return queries.active_facts(connection, validated_athlete(athlete_id))

    def prompt_facts(self, athlete_id: str) -> list[Fact]:
        with self._read() as connection:
            return queries.prompt_facts(connection, validated_athlete(athlete_id))

    def top_facts(self, athlete_id: str, limit: int = 15) -> list[Fact]:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 15:
            raise InvalidInput(f"limit must be a whole number from 1 to 15, got {limit!r}")
        with self._read() as connection:
            return queries.top_facts(connection, validated_athlete(athlete_id), limit)

    def facts_by_category(self, athlete_id: str, category: Category | str) -> list[Fact]:
        try:
            chosen = category if isinstance(category, Category) else parse_category(category)
        except (ValueError, AttributeError) as error:
            raise InvalidInput(str(error)) from None
        with self._read() as connection:
            return queries.facts_by_category(connection, validated_athlete(athlete_id), chosen)

    def patterns(self, athlete_id: str) -> list[ListItem]:
        with self._read() as connection:
            return queries.list_items(connection, validated_athlete(athlete_id), Kind.PATTERN)

    def notes(self, athlete_id: str) -> list[ListItem]:
        with self._read() as connection:
            return queries.list_items(connection, validated_athlete(athlete_id), Kind.NOTE)

    def archive(self, athlete_id: str) -> list[Archived]:
        with UnitOfWork(self.engine) as uow:
            return uow.archive.for_athlete(validated_athlete(athlete_id))

    def history(self, fact_id: int) -> tuple[list[Archived], int | None]:
        """What `fact_id` replaced (oldest first) and which fact is active for it today."""
        with UnitOfWork(self.engine) as uow:
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
        """Extract facts from an activity's notes and merge them (as of `now`, else its time)."""
        found, happened = learning.from_activity(activity, extractor=extractor)
        return self.merge(athlete_id, found, _now(now) if now is not None else happened)

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
        self, athlete_id: str, *, budget: int = DEFAULT_BUDGET, encoding: str = DEFAULT_ENCODING
    ) -> MemoryBlock:
        """Seed 000's MEMORY block for the athlete, within `budget` tokens, with a drop report."""
        athlete = validated_athlete(athlete_id)
        with self._single_reader.connect() as connection:
            rows = queries.prompt_rows(connection, athlete)
        return render_rows(rows, budget=budget, encoding=encoding)

    def contract(self, athlete_id: str) -> dict[str, Any]:
        """The athlete's memory as seed 001's `athlete_memory` JSON object (schema-checked)."""
        document = to_contract(self.memory(athlete_id))
        validate_contract(document)
        return document

    def bootstrap(
        self, athlete_id: str, profile: Profile | dict[str, Any], now: datetime | None = None
    ) -> MergeResult:
        """Seed a (new) athlete's memory from their profile: sport, level, goal, weekly hours."""
        moment = _now(now)
        try:
            facts = facts_from_profile(profile, moment)
        except ValidationError as error:
            raise InvalidInput(describe_validation_error(error)) from None
        return self.merge(athlete_id, facts, moment)

    def relevance_ranker(self, now: datetime | None = None) -> Ranker:
        """Seed 002's relevance scoring as the ranker `render_sections` takes."""
        moment = _now(now)
        return lambda items, context, limit: rank_relevant(items, context, moment, limit)

    def relevant(
        self, athlete_id: str, context: str, limit: int = 5, now: datetime | None = None
    ) -> list[Fact | ListItem]:
        """The athlete's facts, patterns and notes most relevant to `context` (seed 002 §5.5)."""
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be a whole number >= 1, got {limit!r}")
        memory = self.memory(athlete_id)
        items: list[Fact | ListItem] = [*memory.facts, *memory.patterns, *memory.notes]
        return list(self.relevance_ranker(now)(items, context, limit))

    def _checkpoint(self) -> None:
        """Move WAL pages into the main file and truncate the WAL, so erased text leaves disk."""
        if self.engine.dialect.name != "sqlite":
            return
        raw = self.engine.raw_connection()  # outside any transaction, or the checkpoint waits
        try:
            raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            raw.close()

    # -- interchange: vault-export documents and seed 002's memories.yaml
    def export(self, athlete_id: str) -> dict[str, Any]:
        """One athlete's whole memory as a `vault-export` v1 document (one read transaction)."""
        athlete = validated_athlete(athlete_id)
        with UnitOfWork(self.engine) as uow:
            return interchange.export_athlete(uow, athlete)

    def import_document(
        self, document: dict[str, Any] | interchange.ExportDocument
    ) -> interchange.ImportReport:
        """Restore the document's athlete exactly (ids renumbered); nothing written if invalid."""
        doc = interchange.validate_document(document)
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


def _now(now: datetime | None) -> datetime:
    if now is None:
        return utc_now()
    try:
        return require_aware(now, "now")
    except (ValueError, AttributeError) as error:
        raise InvalidInput(str(error)) from None
