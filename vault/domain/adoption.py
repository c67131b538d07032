"""Turn a foreign memory store (the engine guide's JSON, the M13 spec's memories.yaml) into rows that keep
the vault's invariants. Pure: plain values in, a plan out; no SQL, no clock.

A foreign store may hold what the vault never allows at rest, and `resolve` settles it the
same way every time (so an adoption can be replayed and gives the same rows):

1. **Same normalized text** (the `(athlete, normalized_text)` unique key): the copies become
   one fact. It keeps the text, source and tags of the most confident copy (then the most
   recently observed, then the first listed), the *highest* confidence, the *earliest*
   learned time, the *latest* observed time and the *sum* of occurrences. Nothing is archived:
   a copy is an observation, not a different memory.
2. **Same conflict key** (the `(athlete, conflict_key)` unique key): the newest observation
   wins (then the higher confidence, then the later listed), as in a merge; the others are
   archived as `superseded` with `superseded_by` = the winner.
3. Confidence below the floor (0.3): archived as `decayed`, as the vault would.
4. Caps: at most 15 facts (highest confidence, then most recently observed, then listed
   first) and 5 patterns / 5 notes (first listed); the rest are archived as `capped`.

Facts sharing only an entity tag (two `body:knee` injury facts) are both kept: adoption moves
what the old store holds and only resolves what the unique constraints forbid.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime

from vault.domain.models import FactIn
from vault.domain.rules import CAPS, FLOOR
from vault.domain.text import normalize_text
from vault.domain.vocabulary import ArchiveReason, Category, Kind, Source


@dataclass(frozen=True)
class ProtoFact:
    """A fact read from a foreign store, already validated and with its derived keys."""

    position: int
    label: str  # where it came from, for messages: "key_facts[3]", "memories[1] (mem_a1)"
    text: str
    normalized_text: str
    category: Category
    conflict_key: str | None
    tags: frozenset[str]
    source: Source
    source_ref: str | None
    confidence: float
    occurrences: int
    learned_at: datetime
    observed_at: datetime
    refs: frozenset[str] = frozenset()  # foreign ids merged into this fact (the M13 spec's mem_...)

    @classmethod
    def from_fact_in(
        cls,
        fact: FactIn,
        *,
        position: int,
        label: str,
        occurrences: int,
        learned_at: datetime,
        observed_at: datetime,
        refs: frozenset[str] = frozenset(),
    ) -> ProtoFact:
        """A proto fact from a validated `FactIn` (category, conflict key and tags derived)."""
        assert fact.category is not None and fact.tags is not None  # derived by FactIn
        return cls(
            position=position,
            label=label,
            text=fact.text,
            normalized_text=normalize_text(fact.text),
            category=fact.category,
            conflict_key=fact.conflict_key,
            tags=fact.tags,
            source=fact.source,
            source_ref=fact.source_ref,
            confidence=fact.confidence,
            occurrences=occurrences,
            learned_at=learned_at,
            observed_at=observed_at,
            refs=refs,
        )


@dataclass(frozen=True)
class ProtoItem:
    """A pattern or coaching note read from a foreign store."""

    position: int
    label: str
    kind: Kind
    text: str
    normalized_text: str
    occurrences: int = 1


@dataclass(frozen=True)
class Dropped:
    """Something going straight to the archive; `superseded_by` indexes `Resolution.facts`."""

    item: ProtoFact | ProtoItem
    reason: ArchiveReason
    superseded_by: int | None = None
    archived_at: datetime | None = None  # None: the plan's moment


@dataclass
class Resolution:
    """What becomes active, what goes to the archive, and a sentence for each decision."""

    facts: list[ProtoFact] = field(default_factory=list)
    patterns: list[ProtoItem] = field(default_factory=list)
    notes: list[ProtoItem] = field(default_factory=list)
    archived: list[Dropped] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)

    def fact_index_of(self, ref: str) -> int | None:
        """The kept fact that holds (or replaced) the foreign id `ref`, if any."""
        for index, fact in enumerate(self.facts):
            if ref in fact.refs:
                return index
        for dropped in self.archived:
            if isinstance(dropped.item, ProtoFact) and ref in dropped.item.refs:
                return dropped.superseded_by
        return None


def resolve(
    facts: list[ProtoFact], patterns: list[ProtoItem], notes: list[ProtoItem]
) -> Resolution:
    """Apply rules 1-4 of the module docstring."""
    result = Resolution()
    merged = _merge_copies(facts, result.messages)
    winners, superseded = _settle_conflicts(merged, result.messages)
    kept: list[ProtoFact] = []
    low: list[ProtoFact] = []
    for fact in winners:
        (low if fact.confidence < FLOOR else kept).append(fact)
    ranked = sorted(kept, key=_fact_priority)
    active = sorted(ranked[: CAPS[Kind.FACT]], key=lambda f: f.position)
    capped = ranked[CAPS[Kind.FACT] :]
    result.facts = active
    index = {fact.position: i for i, fact in enumerate(active)}
    for loser, winner in superseded:
        # a winner that was itself pruned or capped leaves its losers without a successor
        successor = index.get(winner.position)
        result.archived.append(
            Dropped(loser, ArchiveReason.SUPERSEDED, successor, archived_at=winner.observed_at)
        )
        result.messages.append(
            f"{loser.label} {loser.text!r} superseded by {winner.label} {winner.text!r} "
            f"(same conflict key {loser.conflict_key!r}, newer wins)"
        )
    for fact in low:
        result.archived.append(Dropped(fact, ArchiveReason.DECAYED))
        result.messages.append(f"{fact.label} {fact.text!r} archived: confidence below {FLOOR}")
    for fact in capped:
        result.archived.append(Dropped(fact, ArchiveReason.CAPPED))
        result.messages.append(f"{fact.label} {fact.text!r} archived: over the 15-fact cap")
    result.patterns = _list(patterns, Kind.PATTERN, result)
    result.notes = _list(notes, Kind.NOTE, result)
    return result


def _fact_priority(fact: ProtoFact) -> tuple[float, float, int]:
    return (-fact.confidence, -fact.observed_at.timestamp(), fact.position)


def _merge_copies(facts: list[ProtoFact], messages: list[str]) -> list[ProtoFact]:
    groups: dict[str, list[ProtoFact]] = {}
    for fact in facts:
        groups.setdefault(fact.normalized_text, []).append(fact)
    merged = []
    for copies in groups.values():
        if len(copies) == 1:
            merged.append(copies[0])
            continue
        best = min(copies, key=_fact_priority)
        merged.append(
            replace(
                best,
                position=min(c.position for c in copies),
                confidence=max(c.confidence for c in copies),
                occurrences=sum(c.occurrences for c in copies),
                learned_at=min(c.learned_at for c in copies),
                observed_at=max(c.observed_at for c in copies),
                refs=frozenset().union(*(c.refs for c in copies)),
            )
        )
        others = ", ".join(c.label for c in copies if c is not best)
        messages.append(
            f"{others} repeat {best.label} {best.text!r}: kept once, {len(copies)} occurrences"
        )
    return sorted(merged, key=lambda f: f.position)


def _settle_conflicts(
    facts: list[ProtoFact], messages: list[str]
) -> tuple[list[ProtoFact], list[tuple[ProtoFact, ProtoFact]]]:
    by_key: dict[str, list[ProtoFact]] = {}
    for fact in facts:
        if fact.conflict_key is not None:
            by_key.setdefault(fact.conflict_key, []).append(fact)
    losers: list[tuple[ProtoFact, ProtoFact]] = []
    lost: set[int] = set()
    for rivals in by_key.values():
        if len(rivals) < 2:
            continue
        winner = max(rivals, key=lambda f: (f.observed_at, f.confidence, f.position))
        for rival in rivals:
            if rival is not winner:
                losers.append((rival, winner))
                lost.add(rival.position)
    return [f for f in facts if f.position not in lost], losers


def _list(items: list[ProtoItem], kind: Kind, result: Resolution) -> list[ProtoItem]:
    merged: dict[str, ProtoItem] = {}
    for item in items:
        first = merged.get(item.normalized_text)
        if first is None:
            merged[item.normalized_text] = item
            continue
        merged[item.normalized_text] = replace(
            first, occurrences=first.occurrences + item.occurrences
        )
        result.messages.append(f"{item.label} repeats {first.label} {first.text!r}: kept once")
    ordered = list(merged.values())
    cap = CAPS[kind]
    for item in ordered[cap:]:
        result.archived.append(Dropped(item, ArchiveReason.CAPPED))
        result.messages.append(
            f"{item.label} {item.text!r} archived: over the {cap}-{kind.value} cap"
        )
    return ordered[:cap]
