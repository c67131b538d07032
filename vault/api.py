"""`Vault`: open a file, then one method per operation, each in its own transaction.

Memory and learning live on `Vault`; the other resources hang off it, one small object each:
`v.items` (corrections of one item by id), `v.episodes`, `v.knowledge`, `v.transfer` (export/import/copy/backup) and `v.admin`
(doctor/erase/stats/sql). CHANGELOG.md lists where the methods of earlier drafts went.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, exc

from vault.domain.errors import AthleteNotFound, InvalidInput
from vault.domain.limits import ACTIVE_FLOOR, ARCHIVE_RETENTION_DAYS, MAX_FACTS
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
    Ignored,
    ListItem,
    MergeResult,
    describe_validation_error,
    validated,
    validated_athlete,
)
from vault.domain.rules import DecayPolicy
from vault.domain.vocabulary import Category, Kind, parse_category
from vault.facade.opening import open_failure, remove_unwritten, would_create
from vault.facade.store import Store, checked_decay_policy, moment
from vault.prompt.memory_block import DEFAULT_BUDGET, MemoryBlock, render_rows
from vault.prompt.tokens import DEFAULT_ENCODING
from vault.storage import migrations as migrate
from vault.storage import queries
from vault.storage.engine import as_url, create_vault_engine, default_url
from vault.storage.uow import RetryPolicy, UnitOfWork

# Start-up (docs/architecture.md): what only some operations need (the extraction rules and
# their regular expressions, learning, episodes, transfer, administration) is imported by the
# method or resource that uses it, so `vault prompt` does not load it.
if TYPE_CHECKING:
    from vault.extraction import ActivityIn, Extractor, Turn
    from vault.facade.admin import Admin
    from vault.facade.episodes import Episodes
    from vault.facade.items import Items
    from vault.facade.knowledge import KnowledgeBase
    from vault.facade.transfer import Transfer
    from vault.prompt.bootstrap import Profile
    from vault.prompt.sections import Ranker


def open_vault(
    target: str | os.PathLike[str] | None = None,
    *,
    upgrade: bool = False,
    read_only: bool = False,
    synchronous: str | None = None,
    busy_retry: RetryPolicy | None = None,
    decay_policy: DecayPolicy | None = None,
) -> Vault:
    """Open a vault file (path or database URL; default `$VAULT_DB_URL`, `$VAULT_DB`, ./vault.db).

    A file behind the newest schema is upgraded when `upgrade=True`; otherwise opening it
    raises SchemaOutOfDate naming the command to run. A file from a newer vault is refused.
    `synchronous` is "NORMAL" (default, or `$VAULT_SYNCHRONOUS`) or "FULL" (docs/reliability.md);
    `busy_retry` says how writes retry a busy lock (RetryPolicy); `decay_policy` sets the
    weekly decay factor per category (default DEFAULT_DECAY_POLICY).
    A file this call created is removed again if opening it fails.
    """
    checked_decay_policy(decay_policy)  # a bad policy is refused before anything is opened
    url = default_url() if target is None else as_url(target)
    created = would_create(url, read_only)
    engine = create_vault_engine(url, read_only=read_only, synchronous=synchronous)
    try:
        if upgrade and not read_only:
            upgrade_schema(engine)
        else:
            migrate.check_schema(engine)
    except exc.DBAPIError as error:
        engine.dispose()
        remove_unwritten(created)
        raise open_failure(url, error) from None
    except BaseException:
        engine.dispose()
        remove_unwritten(created)
        raise
    vault = Vault(engine, decay_policy=decay_policy)
    vault.busy_retry = busy_retry
    if upgrade and not read_only and migrate.engine_sync_pending(engine):
        try:
            vault.admin.sync_engine()
        except BaseException:
            engine.dispose()
            raise
    return vault


def upgrade_schema(engine: Engine) -> int:
    """Upgrade the database to the newest schema in one transaction, counting the tokens of
    items stored without them on the way (the engine's `athlete_memory` view needs them);
    returns how many items it counted."""
    from vault.services.item_pieces import count_all

    return migrate.upgrade(engine, count_items=count_all)


class Vault:
    """The library's front door: an athlete's memory and how it is learned. Every write
    method is one transaction (BEGIN IMMEDIATE)."""

    def __init__(self, engine: Engine, *, decay_policy: DecayPolicy | None = None) -> None:
        self._store = Store(engine, decay_policy)

    @cached_property
    def episodes(self) -> Episodes:
        from vault.facade.episodes import Episodes

        return Episodes(self._store)

    @cached_property
    def items(self) -> Items:
        from vault.facade.items import Items

        return Items(self._store)

    @cached_property
    def knowledge(self) -> KnowledgeBase:
        from vault.facade.knowledge import KnowledgeBase

        return KnowledgeBase(self._store)

    @cached_property
    def transfer(self) -> Transfer:
        from vault.facade.transfer import Transfer

        return Transfer(self._store)

    @cached_property
    def admin(self) -> Admin:
        from vault.facade.admin import Admin

        return Admin(self._store)

    @property
    def engine(self) -> Engine:
        return self._store.engine

    @property
    def decay_policy(self) -> DecayPolicy:
        return self._store.decay_policy

    @decay_policy.setter
    def decay_policy(self, policy: DecayPolicy) -> None:
        self._store.decay_policy = checked_decay_policy(policy)

    @property
    def busy_retry(self) -> RetryPolicy | None:
        """How writes retry a busy lock; None: the default policy ($VAULT_BUSY_RETRIES)."""
        return self._store.busy_retry

    @busy_retry.setter
    def busy_retry(self, policy: RetryPolicy | None) -> None:
        self._store.busy_retry = policy

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Vault:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def unit_of_work(self) -> UnitOfWork:
        """A write unit of work, for callers composing several steps in one transaction: the
        same busy retry, engine upkeep and errors (one VaultError) as every other write."""
        return self._store.unit_of_work()

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
        from vault.facade.candidates import checked_candidates
        from vault.services import memory as services

        athlete = validated_athlete(athlete_id)
        checked = checked_candidates(candidates, trusted=trusted)
        at = moment(now)
        if not checked:
            return MergeResult()
        with self._store.write(at, athlete_id=athlete) as uow:
            return services.merge(uow, athlete, checked, at, self.decay_policy, trusted=trusted)

    def remember(
        self,
        athlete_id: str,
        text: str,
        now: datetime | None = None,
        *,
        trusted: bool = False,
        **fields: Any,
    ) -> MergeResult:
        """Merge one fact given as text (plus any FactIn field); `trusted` as in `merge`."""
        fact = validated(FactIn, {"text": text, **fields})
        return self.merge(athlete_id, [fact], now, trusted=trusted)

    def decay(
        self, now: datetime | None = None, progress: Callable[[int], None] | None = None
    ) -> DecayResult:
        """Apply time decay to every athlete's facts; archive those below 0.3 (one transaction).

        `progress(n)` is called as facts are recomputed; `v.admin.facts_due_count(now)` is the
        total.
        """
        from vault.services import memory as services

        at = moment(now)
        with self._store.write(at) as uow:
            return services.decay(uow, at, progress, self.decay_policy)

    def forget(self, athlete_id: str, query: str, now: datetime | None = None) -> ForgetResult:
        """Erase every fact, pattern, note and archive row that matches `query`.

        Then the WAL is checkpointed and truncated so the text leaves the disk too; when a
        reader's old snapshot keeps that from finishing within `ERASE_WAIT` seconds, the
        result says `erased_from_disk=False` and `v.admin.erase(wait=...)` finishes the job.
        """
        from vault.services import memory as services

        athlete = validated_athlete(athlete_id)
        if not isinstance(query, str):
            raise InvalidInput(f"the query must be text, got {type(query).__name__}")
        at = moment(now)
        with self._store.erasing(), self._store.write(at, athlete_id=athlete) as uow:
            result = services.forget(uow, athlete, query, at)
        return result.model_copy(update={"erased_from_disk": self._store.checkpoint()})

    def delete_athlete(self, athlete_id: str, now: datetime | None = None) -> dict[str, int]:
        """Erase everything about one athlete; return rows deleted per table.

        The WAL is checkpointed as after `forget`; `v.admin.erasure_pending()` tells whether
        that finished (False afterwards means the text is gone from every file)."""
        from vault.services import memory as services

        athlete = validated_athlete(athlete_id)
        at = moment(now)
        with self._store.erasing(), self._store.write(at) as uow:
            counts = services.delete_athlete(uow, athlete, at)
        self._store.checkpoint()
        return counts

    def cleanup_archive(
        self, now: datetime | None = None, retention_days: int = ARCHIVE_RETENTION_DAYS
    ) -> int:
        """Delete archive rows older than `retention_days`; return how many."""
        from vault.services import memory as services

        at = moment(now)
        with self._store.write(at) as uow:
            return services.cleanup_archive(uow, at, retention_days)

    # -- reads, as of `now` (default: the clock)
    def facts(
        self,
        athlete_id: str,
        now: datetime | None = None,
        *,
        category: Category | str | None = None,
        min_confidence: float = ACTIVE_FLOOR,
        limit: int | None = None,
    ) -> list[Fact]:
        """The athlete's facts with confidence >= `min_confidence` as of `now`, best first
        (confidence, most recently reinforced, oldest id); only `category`'s when given, at
        most `limit`. Every fact read goes through here."""
        chosen = _category(category)
        if (
            isinstance(limit, bool)
            or not (limit is None or isinstance(limit, int))
            or (limit is not None and limit < 1)
        ):
            raise InvalidInput(f"limit must be a whole number >= 1, got {limit!r}")
        if isinstance(min_confidence, bool) or not isinstance(min_confidence, (int, float)):
            raise InvalidInput(f"min_confidence must be a number, got {min_confidence!r}")
        athlete = validated_athlete(athlete_id)
        self._store.settle_before_reading()
        with self._store.read_one() as connection:
            found = queries.facts(
                connection,
                athlete,
                moment(now),
                self.decay_policy,
                floor=max(float(min_confidence), ACTIVE_FLOOR),
            )
        if chosen is not None:
            found = [f for f in found if f.category == chosen]
        return found if limit is None else found[:limit]

    def top_facts(
        self, athlete_id: str, limit: int = MAX_FACTS, now: datetime | None = None
    ) -> list[Fact]:
        """The athlete's best `limit` facts (at most 15) as of `now`."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_FACTS:
            raise InvalidInput(f"limit must be a whole number from 1 to {MAX_FACTS}, got {limit!r}")
        return self.facts(athlete_id, now, limit=limit)

    def memory(self, athlete_id: str, now: datetime | None = None) -> AthleteMemory:
        """Everything active for the athlete as of `now`: facts, patterns, notes."""
        athlete = validated_athlete(athlete_id)
        self._store.settle_before_reading()
        with self._store.read() as connection:
            return queries.memory(connection, athlete, moment(now), self.decay_policy)

    def patterns(self, athlete_id: str) -> list[ListItem]:
        self._store.settle_before_reading()
        with self._store.read() as connection:
            return queries.list_items(connection, validated_athlete(athlete_id), Kind.PATTERN)

    def notes(self, athlete_id: str) -> list[ListItem]:
        self._store.settle_before_reading()
        with self._store.read() as connection:
            return queries.list_items(connection, validated_athlete(athlete_id), Kind.NOTE)

    def archive(self, athlete_id: str) -> list[Archived]:
        with self._store.read_units() as uow:
            return uow.archive.for_athlete(validated_athlete(athlete_id))

    def why(self, fact_ids: Sequence[int]) -> dict[int, list[Evidence]]:
        """The evidence each active fact rests on (source, ref, time, words), oldest first.

        Raises FactNotFound for an id that is not an active fact."""
        from vault.services import evidence as evidence_services

        ids = [_fact_id(i) for i in fact_ids]
        with self._store.read() as connection:
            return evidence_services.why(connection, ids)

    def history(self, fact_id: int) -> tuple[list[Archived], int | None]:
        """What `fact_id` replaced (oldest first) and which fact is active for it today."""
        from vault.services import memory as services

        with self._store.read_units() as uow:
            return services.fact_history(uow, fact_id)

    def summary(self, athlete_id: str) -> AthleteSummary | None:
        self._store.settle_before_reading()
        with self._store.read() as connection:
            return queries.summary(connection, validated_athlete(athlete_id))

    def summaries(self) -> list[AthleteSummary]:
        self._store.settle_before_reading()
        with self._store.read() as connection:
            return queries.all_summaries(connection)

    # -- learning: extract first (no lock held), then one merge transaction
    def ingest_message(
        self,
        athlete_id: str,
        text: str,
        *,
        now: datetime | None = None,
        extractor: Extractor | None = None,
    ) -> MergeResult:
        """Extract facts from a message the athlete wrote at `now` and merge them."""
        from vault.services import learning

        at = moment(now)
        return self._learn(athlete_id, learning.from_message(text, at, extractor=extractor), at)

    def ingest_activity(
        self,
        athlete_id: str,
        activity: ActivityIn | dict[str, Any],
        *,
        now: datetime | None = None,
        extractor: Extractor | None = None,
    ) -> MergeResult:
        """Extract facts from an activity's notes and merge them (as of `now`, else its time),
        and record the episodes it is worth (the session and its outcome, an injury, a race)
        in the same transaction, so PAST EXPERIENCE fills itself."""
        from vault.facade.candidates import checked_candidates
        from vault.services import activity_episodes, consolidation, learning, privacy_gate
        from vault.services import episodes as episode_services
        from vault.services import memory as services

        athlete = validated_athlete(athlete_id)
        found, happened = learning.from_activity(activity, extractor=extractor)
        refused: list[str] = []
        checked = privacy_gate.kept_candidates(checked_candidates(found, trusted=False), refused)
        # the raw notes become episodes, personal data redacted; one the gate refuses is left out
        episodes = activity_episodes.episodes_from_activity(activity)
        at = moment(now) if now is not None else happened
        with self._store.write(at) as uow:
            result = _with_refused(
                services.merge(uow, athlete, checked, at, self.decay_policy)
                if checked
                else MergeResult(),
                refused,
            )
            if episodes:
                episode_services.add_episodes(uow, athlete, episodes, at, strict=False)
                consolidated = consolidation.run(uow, athlete, at, self.decay_policy)
                result = consolidation.combined(result, consolidated)
            return result

    def consolidate(self, athlete_id: str, now: datetime | None = None) -> MergeResult:
        """Turn the athlete's recorded activity sessions into durable facts (idempotent):
        a body part hurting in 3+ sessions, the activities logged, a race named ahead, runs
        with others; each with its sessions as evidence (docs/learning.md)."""
        from vault.services import consolidation

        athlete = validated_athlete(athlete_id)
        at = moment(now)
        with self._store.write(at) as uow:
            return consolidation.run(uow, athlete, at, self.decay_policy)

    def ingest_conversation(
        self,
        athlete_id: str,
        turns: Sequence[Turn | dict[str, Any]],
        *,
        now: datetime | None = None,
        extractor: Extractor | None = None,
    ) -> MergeResult:
        """Extract facts from the athlete's turns of a conversation and merge them; a fact the
        privacy gate refuses is left out (listed in `ignored`), the rest is merged."""
        from vault.services import learning

        return self._learn(
            athlete_id, learning.from_conversation(turns, extractor=extractor), moment(now)
        )

    def learn_patterns(
        self,
        athlete_id: str,
        activities: Sequence[ActivityIn | dict[str, Any]],
        now: datetime | None = None,
    ) -> MergeResult:
        """Detect recurring patterns in the activity history and merge them."""
        from vault.services import learning

        at = moment(now)
        facts = self.facts(athlete_id, at)
        return self._learn(athlete_id, learning.patterns_from(activities, facts, at), at)

    def bootstrap(
        self, athlete_id: str, profile: Profile | dict[str, Any], now: datetime | None = None
    ) -> MergeResult:
        """Seed a (new) athlete's memory from their profile: sport, level, goal, weekly hours."""
        from pydantic import ValidationError

        from vault.prompt.bootstrap import facts_from_profile

        at = moment(now)
        try:
            facts = facts_from_profile(profile, at)
        except ValidationError as error:
            raise InvalidInput(describe_validation_error(error)) from None
        return self._learn(athlete_id, facts, at)

    def _learn(self, athlete_id: str, found: Sequence[Candidate], at: datetime) -> MergeResult:
        """Merge what an extractor found: what the privacy gate refuses is left out and listed
        in `ignored` (its reason, never its text), the rest is merged in one transaction."""
        from vault.facade.candidates import checked_candidates
        from vault.services import privacy_gate

        refused: list[str] = []
        kept = privacy_gate.kept_candidates(checked_candidates(found, trusted=False), refused)
        return _with_refused(self.merge(athlete_id, kept, at), refused)

    @staticmethod
    def extract_message(text: str, now: datetime | None = None) -> list[Candidate]:
        """What the rule-based extractor finds in one message (pure: no database, no lock)."""
        from vault.services import learning

        return learning.from_message(text, moment(now))

    # -- what the coach sees
    def memory_block(
        self,
        athlete_id: str,
        *,
        budget: int = DEFAULT_BUDGET,
        encoding: str = DEFAULT_ENCODING,
        now: datetime | None = None,
    ) -> MemoryBlock:
        """The MEMORY block for the athlete as of `now`, within `budget` tokens, with a drop
        report."""
        athlete = validated_athlete(athlete_id)
        at = moment(now)
        rows = None
        if self._store.has_engine_inbox:  # the read also says whether the engine left rows
            with self._store.read_one() as connection:
                rows = queries.prompt_rows_or_waiting(connection, athlete, at, self.decay_policy)
            if rows is None:
                self._store.settle_engine("reading memory", wait=False)
        if rows is None:
            with self._store.read_one() as connection:
                rows = queries.prompt_rows(connection, athlete, at, self.decay_policy)
        return render_rows(rows, budget=budget, encoding=encoding)

    def contract(
        self, athlete_id: str, *, with_times: bool = False, now: datetime | None = None
    ) -> dict[str, Any]:
        """The athlete's memory as the engine's `athlete_memory` JSON object, checked against
        its schema. `with_times=True` adds `learned_at` / `updated_at`, which LEAVES the
        contract (its schema has no top-level `updated_at`).

        Raises:
            AthleteNotFound: the vault holds nothing about the athlete.
        """
        from vault.prompt.contract import to_contract, validate_contract

        athlete = validated_athlete(athlete_id)
        if self.summary(athlete) is None:
            raise AthleteNotFound(athlete)
        document = to_contract(self.memory(athlete, now), with_times=with_times)
        validate_contract(document, with_times=with_times)
        return document

    def relevance_ranker(self, now: datetime | None = None) -> Ranker:
        """The relevance scoring as the ranker `render_sections` takes."""
        from vault.extraction import rank_relevant

        at = moment(now)
        return lambda items, context, limit: rank_relevant(items, context, at, limit)

    def relevant(
        self, athlete_id: str, context: str, limit: int = 5, now: datetime | None = None
    ) -> list[Fact | ListItem]:
        """The athlete's facts, patterns and notes most relevant to `context`."""
        if not isinstance(context, str):
            raise InvalidInput(f"the context must be text, got {type(context).__name__}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise InvalidInput(f"limit must be a whole number >= 1, got {limit!r}")
        memory = self.memory(athlete_id, now)
        items: list[Fact | ListItem] = [*memory.facts, *memory.patterns, *memory.notes]
        return list(self.relevance_ranker(now)(items, context, limit))


def _with_refused(result: MergeResult, refused: list[str]) -> MergeResult:
    if not refused:
        return result
    extra = tuple(Ignored(text="", reason=f"privacy: {reason}") for reason in refused)
    return result.model_copy(update={"ignored": result.ignored + extra})


def _category(category: Category | str | None) -> Category | None:
    if category is None or isinstance(category, Category):
        return category
    try:
        return parse_category(category)
    except (ValueError, AttributeError) as error:
        raise InvalidInput(str(error)) from None


def _fact_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"a fact id is a whole number >= 1, got {value!r}")
    return value
