"""Merge, conflict replacement, decay, pruning and caps as pure functions of plain values and `now`.

No SQL here: the repository loads an athlete's active set, `plan_merge` decides, and the
repository writes the outcome set-wise in the same transaction.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Union

from vault.domain.errors import InvalidInput
from vault.domain.limits import (
    ACTIVE_FLOOR,
    BOOST,
    DECAY_FACTOR,
    DECAY_PERIOD,
    DURABLE_DECAY_FACTOR,
    GOAL_DECAY_FACTOR,
    HIGH,
    HIGH_OCCURRENCES,
    MAX_FACTS,
    MAX_NOTES,
    MAX_PATTERNS,
    PROMPT_FLOOR,
)
from vault.domain.models import Candidate, FactIn, NoteIn, PatternIn, Retraction
from vault.domain.text import activity_of, normalize_text
from vault.domain.vocabulary import ArchiveReason, Category, Kind, Source

FLOOR = ACTIVE_FLOOR
CAPS = {Kind.FACT: MAX_FACTS, Kind.PATTERN: MAX_PATTERNS, Kind.NOTE: MAX_NOTES}

# Identity of an item within one plan: (kind, id) for stored items, ("new", n) for new ones.
Key = tuple[str, int]


def stored_key(kind: Kind, item_id: int) -> Key:
    return (kind.value, item_id)


def decayed(
    base: float, last_reinforced_at: datetime, now: datetime, factor: float = DECAY_FACTOR
) -> float:
    """The oasis-memory design's decay as a function of elapsed time: base x factor^(full weeks unreinforced).

    Depends only on `now - last_reinforced_at`, so running decay daily, weekly or twice gives
    the same number, and a read can compute today's value without anyone running decay.
    """
    if now <= last_reinforced_at:
        return base
    weeks = (now - last_reinforced_at) // DECAY_PERIOD
    return round(base * factor**weeks, 6)


@dataclass(frozen=True)
class DecayPolicy:
    """The weekly decay factor per category (issue 12); the oasis-memory design's x0.95 by default.

    Durable categories (context such as kids or a job, sport, level) decay at x0.99 and goals at
    x0.98, so a ten-week break does not erase who the athlete is; time preferences, durations,
    training responses, preferences and injuries keep the coach guide's weekly x0.95 (an injury also ends by
    resolution). Every factor is in (0, 1]; 1.0 means "never decays".
    """

    default: float = DECAY_FACTOR
    by_category: Mapping[Category, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key in self.by_category:
            try:
                Category(key)
            except ValueError:
                raise InvalidInput(f"unknown category {key!r} in the decay policy") from None
        for factor in (self.default, *self.by_category.values()):
            if (
                isinstance(factor, bool)
                or not isinstance(factor, (int, float))
                or not 0 < factor <= 1
            ):
                raise InvalidInput(f"a weekly decay factor must be in (0, 1], got {factor!r}")

    def factor(self, category: Category | str | None) -> float:
        if category is None:
            return self.default
        return self.by_category.get(Category(category), self.default)


DEFAULT_DECAY_POLICY = DecayPolicy(
    by_category={
        Category.CONTEXT: DURABLE_DECAY_FACTOR,
        Category.SPORT: DURABLE_DECAY_FACTOR,
        Category.LEVEL: DURABLE_DECAY_FACTOR,
        Category.GOAL: GOAL_DECAY_FACTOR,
    }
)


def decay_due(last_reinforced_at: datetime, now: datetime) -> datetime:
    """When `decayed` next changes: the end of the current unreinforced week as of `now`."""
    weeks = 0 if now <= last_reinforced_at else (now - last_reinforced_at) // DECAY_PERIOD
    return last_reinforced_at + (weeks + 1) * DECAY_PERIOD


def boosted(confidence: float, occurrences: int) -> float:
    """+0.1 capped at 1.0; three or more occurrences are at least "high"."""
    value = min(1.0, round(confidence + BOOST, 6))
    return max(value, HIGH) if occurrences >= HIGH_OCCURRENCES else value


@dataclass(slots=True)
class FactState:
    """A fact as the planner sees it; `id` is None until the repository inserts it."""

    key: Key
    id: int | None
    text: str
    normalized_text: str
    category: Category
    conflict_key: str | None
    source: Source
    source_ref: str | None
    extractor: str | None
    confidence: float
    base_confidence: float
    occurrences: int
    tags: frozenset[str]
    learned_at: datetime
    observed_at: datetime
    last_reinforced_at: datetime
    updated_at: datetime
    decay_due_at: datetime
    dirty: bool = False
    touched: bool = False
    kind: Kind = Kind.FACT


@dataclass(slots=True)
class ItemState:
    """A pattern or coaching note as the planner sees it."""

    key: Key
    id: int | None
    kind: Kind
    text: str
    normalized_text: str
    source: Source
    source_ref: str | None
    extractor: str | None
    confidence: float
    occurrences: int
    learned_at: datetime
    last_reinforced_at: datetime
    updated_at: datetime
    dirty: bool = False
    touched: bool = False


State = Union[FactState, ItemState]


@dataclass(slots=True)
class Removal:
    """An item leaving the active set; `superseded_by` is the key of what replaced it."""

    item: State
    reason: ArchiveReason
    superseded_by: Key | None = None


@dataclass
class MergePlan:
    """The athlete's active set after the merge, plus what left it and what was ignored."""

    active: dict[Key, State]
    removals: list[Removal] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    added_keys: list[Key] = field(default_factory=list)

    def survivors(self) -> list[State]:
        return list(self.active.values())


class _Planner:
    def __init__(self, active: list[State], now: datetime, policy: DecayPolicy) -> None:
        self.now = now
        self.policy = policy
        self.plan = MergePlan(active={item.key: item for item in active})
        self._new_keys = (("new", n) for n in itertools.count(1))

    # -- lookups over the current active set
    def _facts(self) -> list[FactState]:
        return [s for s in self.plan.active.values() if isinstance(s, FactState)]

    def _find_fact(self, normalized: str) -> FactState | None:
        return next((f for f in self._facts() if f.normalized_text == normalized), None)

    def _find_item(self, kind: Kind, normalized: str) -> ItemState | None:
        return next(
            (
                s
                for s in self.plan.active.values()
                if isinstance(s, ItemState) and s.kind is kind and s.normalized_text == normalized
            ),
            None,
        )

    def _remove(self, item: State, reason: ArchiveReason, by: Key | None = None) -> None:
        del self.plan.active[item.key]
        self.plan.removals.append(Removal(item, reason, by))
        # whatever pointed at an item replaced in this same merge now points at its successor
        for removal in self.plan.removals:
            if removal.superseded_by == item.key:
                removal.superseded_by = by

    # -- decay as of now, so boosts and floors work on today's confidence; a fact stored within
    # the unreinforced week `now` falls in holds it already (a merge dated before or after that
    # week, a late activity or a planned one, recomputes it)
    def apply_decay(self) -> None:
        for fact in self._facts():
            if fact.decay_due_at - DECAY_PERIOD <= self.now < fact.decay_due_at:
                continue
            factor = self.policy.factor(fact.category)
            current = decayed(fact.base_confidence, fact.last_reinforced_at, self.now, factor)
            if current != fact.confidence:
                fact.confidence = current
                fact.decay_due_at = decay_due(fact.last_reinforced_at, self.now)
                fact.dirty = True

    # -- candidates
    def merge_fact(self, candidate: FactIn) -> None:
        observed = candidate.observed_at or self.now
        normalized = normalize_text(candidate.text)
        same = self._find_fact(normalized) or self._liking_holding(candidate.text)
        if same is not None:
            self._reinforce_fact(same, observed, candidate.confidence)
            self._displace_rival(same, candidate)
            return
        rival = self._rival(candidate)
        if rival is not None:
            existing, reason = rival
            if observed < existing.observed_at:
                self.plan.ignored.append(
                    (candidate.text, f"older than the stored fact {existing.text!r}")
                )
                return
            if (
                reason is ArchiveReason.MERGED
                and candidate.confidence < PROMPT_FLOOR <= existing.confidence
            ):
                # one passing reading ("I will take on the role of babysitter") does not take a
                # believed fact's place through a shared topic: it would inherit a belief, and
                # cite evidence, that never said it. It waits beside it, below the prompt, and
                # takes the place when it is read again on another day (`_displace_rival`)
                self._insert_fact(candidate, normalized, observed, 1)
                return
            occurrences = existing.occurrences + 1 if reason is ArchiveReason.MERGED else 1
            new = self._insert_fact(candidate, normalized, observed, occurrences)
            if reason is ArchiveReason.MERGED:
                # the same thing observed again in new words: a reinforcement, never a demotion
                lifted = (
                    existing.confidence
                    if existing.confidence < PROMPT_FLOOR and _same_day(existing, observed)
                    else boosted(existing.confidence, occurrences)
                )
                new.confidence = new.base_confidence = max(new.confidence, lifted)
                new.learned_at = min(new.learned_at, existing.learned_at)
            self._remove(existing, reason, by=new.key)
            return
        self._insert_fact(candidate, normalized, observed, 1)

    def _displace_rival(self, fact: FactState, candidate: FactIn) -> None:
        """A passing reading that waited beside a believed fact of the same topic ("works as a
        teacher" beside "works at the bank") and is now believed, read again on another day,
        takes that fact's place, as a newer reading of the topic would have."""
        if fact.confidence < PROMPT_FLOOR or not fact.tags:
            return
        rival = next(
            (
                other
                for other in self._facts()
                if other is not fact
                and other.category is fact.category
                and other.tags & fact.tags
                and other.conflict_key == fact.conflict_key
                and other.confidence >= PROMPT_FLOOR
                and other.observed_at < fact.learned_at
            ),
            None,
        )
        if rival is not None and candidate.tags and rival.tags & candidate.tags:
            self._remove(rival, ArchiveReason.MERGED, by=fact.key)

    def _liking_holding(self, text: str) -> FactState | None:
        """The stored `likes X` that an incoming `also does X` only repeats."""
        activity = activity_of(text)
        if activity is None or activity[0] != "also does":
            return None
        return self._find_fact(normalize_text(f"likes {activity[1]}"))

    def _rival(self, candidate: FactIn) -> tuple[FactState, ArchiveReason] | None:
        """The engine guide's conflict key first, then the M13 spec's same category + shared entity tag."""
        facts = self._facts()
        activity = activity_of(candidate.text)
        if activity is not None and activity[0] == "likes":
            doing = self._find_fact(normalize_text(f"also does {activity[1]}"))
            if doing is not None:
                return doing, ArchiveReason.MERGED  # `likes yoga` takes over `also does yoga`
        if candidate.conflict_key:
            for fact in facts:
                if fact.conflict_key == candidate.conflict_key:
                    return fact, ArchiveReason.SUPERSEDED
        tags = candidate.tags or frozenset()
        if tags:
            for fact in facts:
                if fact.category is candidate.category and fact.tags & tags:
                    return fact, ArchiveReason.MERGED
        return None

    def _reinforce_fact(self, fact: FactState, observed: datetime, reading: float) -> None:
        fact.occurrences += 1
        passing = fact.confidence < PROMPT_FLOOR
        if passing and _same_day(fact, observed):
            pass  # belief needs another day: a reading repeated within one day lifts nothing
        else:
            fact.confidence = boosted(fact.confidence, fact.occurrences)
        if passing:
            # a reading believed on its own ("I've been running farther") is not swallowed by
            # an earlier passing one ("Been running longer"): the fact is at least it. A fact
            # already believed is reinforced by +0.1 only, as every upsert is.
            fact.confidence = max(fact.confidence, reading)
        fact.base_confidence = fact.confidence
        fact.last_reinforced_at = max(fact.last_reinforced_at, self.now)
        fact.decay_due_at = decay_due(fact.last_reinforced_at, self.now)
        fact.observed_at = max(fact.observed_at, observed)
        fact.updated_at = self.now
        fact.dirty = fact.touched = True

    def _insert_fact(
        self, candidate: FactIn, normalized: str, observed: datetime, occurrences: int
    ) -> FactState:
        confidence = candidate.confidence
        if occurrences >= HIGH_OCCURRENCES:
            confidence = max(confidence, HIGH)
        assert candidate.category is not None  # derived by FactIn
        fact = FactState(
            key=next(self._new_keys),
            id=None,
            text=candidate.text,
            normalized_text=normalized,
            category=candidate.category,
            conflict_key=candidate.conflict_key,
            source=candidate.source,
            source_ref=candidate.source_ref,
            extractor=candidate.extractor,
            confidence=confidence,
            base_confidence=confidence,
            occurrences=occurrences,
            tags=candidate.tags or frozenset(),
            learned_at=observed,
            observed_at=observed,
            last_reinforced_at=max(observed, self.now),
            updated_at=self.now,
            decay_due_at=decay_due(max(observed, self.now), self.now),
            dirty=True,
            touched=True,
        )
        self.plan.active[fact.key] = fact
        self.plan.added_keys.append(fact.key)
        return fact

    def merge_item(self, candidate: PatternIn | NoteIn) -> None:
        kind = Kind.PATTERN if isinstance(candidate, PatternIn) else Kind.NOTE
        observed = candidate.observed_at or self.now
        normalized = normalize_text(candidate.text)
        same = self._find_item(kind, normalized)
        if same is not None:
            same.occurrences += 1
            same.confidence = boosted(same.confidence, same.occurrences)
            same.last_reinforced_at = max(same.last_reinforced_at, self.now)
            same.updated_at = self.now
            same.dirty = same.touched = True
            return
        item = ItemState(
            key=next(self._new_keys),
            id=None,
            kind=kind,
            text=candidate.text,
            normalized_text=normalized,
            source=candidate.source,
            source_ref=candidate.source_ref,
            extractor=candidate.extractor,
            confidence=candidate.confidence,
            occurrences=1,
            learned_at=observed,
            last_reinforced_at=max(observed, self.now),
            updated_at=self.now,
            dirty=True,
            touched=True,
        )
        self.plan.active[item.key] = item
        self.plan.added_keys.append(item.key)

    def retract(self, retraction: Retraction) -> None:
        observed = retraction.observed_at or self.now
        matched = False
        for fact in self._facts():
            by_key = retraction.conflict_key and fact.conflict_key == retraction.conflict_key
            by_tag = fact.category is retraction.category and fact.tags & retraction.tags
            if not (by_key or by_tag):
                continue
            matched = True
            if fact.observed_at > observed:
                self.plan.ignored.append((fact.text, "stated after the retraction; kept"))
                continue
            self._remove(fact, ArchiveReason.RESOLVED)
        if not matched:
            target = retraction.conflict_key or ", ".join(sorted(retraction.tags))
            self.plan.ignored.append((target, "nothing active to resolve"))

    # -- floors and caps
    def prune_and_cap(self) -> None:
        for fact in self._facts():
            if fact.confidence < FLOOR:
                self._remove(fact, ArchiveReason.DECAYED)
        for kind, cap in CAPS.items():
            ranked = sorted((s for s in self.plan.active.values() if s.kind is kind), key=priority)
            for item in ranked[cap:]:
                self._remove(item, ArchiveReason.CAPPED)


def _same_day(fact: FactState, observed: datetime) -> bool:
    """True when every observation of `fact` so far, and `observed`, fall on one (UTC) day."""
    day = observed.astimezone(timezone.utc).date()
    return (
        fact.learned_at.astimezone(timezone.utc).date() == day
        and fact.observed_at.astimezone(timezone.utc).date() == day
    )


def priority(item: State) -> tuple[float, float, int, int]:
    """Highest confidence first, then most recently reinforced, then oldest id (new items last)."""
    return (
        -item.confidence,
        -item.last_reinforced_at.timestamp(),
        0 if item.id is not None else 1,
        item.id if item.id is not None else item.key[1],
    )


def plan_merge(
    active: list[State],
    candidates: list[Candidate],
    now: datetime,
    policy: DecayPolicy = DEFAULT_DECAY_POLICY,
) -> MergePlan:
    """Decide how `candidates` change one athlete's active set (merge, replace, prune, cap).

    Candidates apply in order of observation time, so "newer wins" means observed later,
    whatever order they arrive in. Facts are first brought to `now` under `policy`, except
    those stored within the unreinforced week `now` falls in (their confidence is today's).
    """
    planner = _Planner(active, now, policy)
    planner.apply_decay()
    ordered = sorted(candidates, key=lambda c: c.observed_at or now)
    for candidate in ordered:
        if isinstance(candidate, FactIn):
            planner.merge_fact(candidate)
        elif isinstance(candidate, Retraction):
            planner.retract(candidate)
        else:
            planner.merge_item(candidate)
    planner.prune_and_cap()
    return planner.plan
