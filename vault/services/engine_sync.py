"""Keep the engine's `athlete_memory` table and vault's memory one memory (SQLite).

Every write transaction of the facade runs `apply_engine_writes` right after BEGIN (so the
operation sees what the engine wrote) and `publish_changed` right before COMMIT (so the
engine's next read sees what the operation changed). Both run under the write lock, so the
engine cannot write in between: its next read returns what it wrote or what vault made of it.

What an engine row means is `vault.domain.engine_document`. Rows go through the same input
rules and privacy filter as `remember`; items they refuse are left out, recorded without their
text (`engine_skipped_items`, which `vault doctor` and `vault upgrade` report; for a legacy row
also in `legacy_adoption.reason`), and the athlete's row is republished without them.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from pydantic import ValidationError

from vault.domain.engine_document import (
    LISTS,
    EngineDocument,
    EngineRowError,
    LeftOut,
    Observation,
    changes,
    engine_athlete,
    latest_write_time,
    parse_document,
)
from vault.domain.erasure import erasure_text
from vault.domain.errors import InvalidInput
from vault.domain.limits import DECAY_PERIOD, MAX_FACTS, MAX_NOTES, MAX_PATTERNS, TEXT_INPUT_MAX
from vault.domain.models import (
    Candidate,
    FactIn,
    NoteIn,
    PatternIn,
    PromptRow,
    describe_validation_error,
)
from vault.domain.rules import DEFAULT_DECAY_POLICY, DecayPolicy, FactState, decayed
from vault.domain.text import normalize_text
from vault.domain.times import utc_now
from vault.domain.vocabulary import Kind, Source
from vault.prompt.engine_row import engine_document, engine_json
from vault.prompt.items import utc_text
from vault.prompt.memory_block import render_rows
from vault.services.erasure import athlete_erased_at, erased_items
from vault.services.memory import merge
from vault.services.privacy_gate import candidate_problem
from vault.storage import queries
from vault.storage.failures import is_database_failure
from vault.storage.repositories.engine_skips import SkippedItem, record_skipped
from vault.storage.repositories.engine_table import EngineTableRepository, InboxRow
from vault.storage.uow import UnitOfWork

log = logging.getLogger("vault.engine")

ENGINE_EXTRACTOR = "engine:athlete_memory"
LEGACY_EXTRACTOR = "legacy:athlete_memory"


@dataclass
class EngineSyncReport:
    """What one sync applied: rows, and the lines saying what was adjusted or left out."""

    applied: int = 0
    refused: int = 0
    published: int = 0
    lines: list[str] = field(default_factory=list)
    more: bool = False  # the batch was full: rows may still wait

    def add(self, later: EngineSyncReport) -> None:
        """Count in what a later batch did."""
        self.applied += later.applied
        self.refused += later.refused
        self.published += later.published
        self.lines += later.lines
        self.more = later.more


# Rows applied in one transaction. A write applies at most this many before its own work (the
# rest wait for the next writes), and a sync applies them a batch per transaction, so a flood
# of waiting rows (thousands of athletes) never holds the write lock for more than about a
# second and the engine's own INSERT gets its turn between batches.
ROWS_PER_TRANSACTION = 50


def apply_engine_writes(
    uow: UnitOfWork,
    now: datetime,
    policy: DecayPolicy = DEFAULT_DECAY_POLICY,
    limit: int = ROWS_PER_TRANSACTION,
) -> EngineSyncReport:
    """Merge the oldest `limit` waiting engine rows (and queued legacy rows) into vault."""
    report = EngineSyncReport()
    table = EngineTableRepository(uow.connection)
    if not table.present:
        return report
    waiting = table.pending(limit)
    report.more = len(waiting) == limit
    _apply_rows(uow, table, waiting, now, policy, report)
    return report


def apply_waiting_of(
    uow: UnitOfWork, athlete_id: str, now: datetime, policy: DecayPolicy = DEFAULT_DECAY_POLICY
) -> EngineSyncReport:
    """Merge the rows still waiting for one athlete (after a write's own batch): a forget, an
    edit or a merge of that athlete must act on what the engine wrote of them first."""
    report = EngineSyncReport()
    table = EngineTableRepository(uow.connection)
    if table.present:
        _apply_rows(uow, table, table.pending_of(athlete_id), now, policy, report)
    return report


def _apply_rows(
    uow: UnitOfWork,
    table: EngineTableRepository,
    rows: list[InboxRow],
    now: datetime,
    policy: DecayPolicy,
    report: EngineSyncReport,
) -> None:
    for row in rows:
        try:
            # a savepoint per row: a row vault cannot apply is kept unread and never blocks
            # the write transaction it rides in (nor every later one)
            with uow.connection.begin_nested():
                _apply(uow, table, row, now, policy, report)
        except Exception as error:  # any failure of one row stays with that row
            if is_database_failure(error):
                raise  # the file itself failed (busy, full, read-only): not the row's fault
            reason = f"could not be applied: {type(error).__name__}: {_shown_error(error)}"
            table.refuse(row.id, reason)
            report.refused += 1
            report.lines.append(f"engine row for {row.athlete_key!r} kept unread: {reason}")
            log.warning("engine row for %r kept unread: %s", row.athlete_key, reason)


def publish_changed(
    uow: UnitOfWork,
    now: datetime,
    policy: DecayPolicy = DEFAULT_DECAY_POLICY,
    published: PublishedRows | None = None,
) -> int:
    """Rewrite the engine row of every athlete whose memory changed in this transaction.

    The items of the athlete a merge wrote last are taken from the set it left in memory
    (`UnitOfWork.merged_set`: nothing was written since), not read again.

    With `published` (the rows this process wrote last), an athlete whose items are the same
    as when vault last wrote the row, and whose row is still that one, is not rendered again."""
    table = EngineTableRepository(uow.connection)
    if not table.present:
        return 0
    merged = uow.merged_set()  # asked before the dirty list is emptied (a write)
    athletes = table.take_dirty()
    for athlete_id in athletes:
        if merged is not None and merged.athlete_id == athlete_id:
            rows, origins = queries.engine_rows_of(merged.states, now, policy)
        else:
            rows, origins = queries.engine_rows(uow.connection, athlete_id, now, policy)
        signature = _signature(rows, origins) if published is not None else None
        if signature is not None and published is not None:
            known = published.get(athlete_id, signature)
            if known is not _UNKNOWN and table.current(athlete_id) == known:
                continue  # the row would not change
        block = render_rows(rows)
        document = engine_json(engine_document(rows, block, origins, now)) if block.text else None
        if document is None:
            table.unpublish(athlete_id)  # the engine reads None: no MEMORY block, as vault prints
        else:
            table.publish(athlete_id, document, now)
        if signature is not None and published is not None:
            published.put(athlete_id, signature, document)
    return len(athletes)


_UNKNOWN = object()


class PublishedRows:
    """What this process last wrote as each athlete's engine row, and the items it was made
    from (bounded: the most recently written `size` athletes). Only a shortcut: the row in
    the table is compared before anything is skipped, so another process's write, a rolled
    back one or the engine's own is never taken for ours."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._rows: OrderedDict[str, tuple[int, str | None]] = OrderedDict()

    def get(self, athlete_id: str, signature: int) -> object:
        """The document written for these items (None: no row), or _UNKNOWN."""
        found = self._rows.get(athlete_id)
        if found is None or found[0] != signature:
            return _UNKNOWN
        self._rows.move_to_end(athlete_id)
        return found[1]

    def put(self, athlete_id: str, signature: int, document: str | None) -> None:
        self._rows[athlete_id] = (signature, document)
        self._rows.move_to_end(athlete_id)
        while len(self._rows) > self._size:
            self._rows.popitem(last=False)

    def forget(self, athlete_id: str) -> None:
        self._rows.pop(athlete_id, None)


def _signature(
    rows: dict[Kind, list[PromptRow]], origins: dict[int, tuple[Source, datetime]]
) -> int:
    """Everything the row is made of but its time: the items, in order, and the facts' origins."""
    return hash(
        (
            tuple(rows[Kind.FACT]),
            tuple(rows[Kind.PATTERN]),
            tuple(rows[Kind.NOTE]),
            tuple(sorted(origins.items())),
        )
    )


def sync(
    uow: UnitOfWork, now: datetime, policy: DecayPolicy = DEFAULT_DECAY_POLICY
) -> EngineSyncReport:
    """Apply a batch of the engine's writes, then publish every changed athlete; `more` says
    whether rows may still wait (`Store.sync_engine` runs batches until none does)."""
    table = EngineTableRepository(uow.connection)
    if table.present:
        table.take_down_keyless()
    report = apply_engine_writes(uow, now, policy)
    report.published = publish_changed(uow, now, policy)
    return report


def _apply(
    uow: UnitOfWork,
    table: EngineTableRepository,
    row: InboxRow,
    now: datetime,
    policy: DecayPolicy,
    report: EngineSyncReport,
) -> None:
    legacy = row.origin == "legacy"
    try:
        athlete_id = engine_athlete(row.athlete_key)
    except InvalidInput as error:
        reason = str(error)
        table.refuse_keyless(row.id, row.athlete_key, reason)
        report.refused += 1
        report.lines.append(f"engine row for {row.athlete_key!r} taken down: {reason}")
        if legacy:
            table.record_adoption(_key_text(row.athlete_key) or None, "skipped", reason, _NONE)
        return
    try:
        current = parse_document(row.memory_json)
    except EngineRowError as error:
        reason = str(error)
        table.refuse(row.id, reason)
        report.refused += 1
        report.lines.append(f"engine row for {row.athlete_key!r} kept unread: {reason}")
        if legacy:
            table.record_adoption(_key_text(row.athlete_key) or None, "skipped", reason, _NONE)
        return
    written_at = min(latest_write_time(row.written_at) or current.updated_at or now, now)
    found = changes(_previous(row.previous_json), current, written_at)
    lines = list(found.notes)
    left_out = list(current.left_out)
    observations = _not_echoes(uow, athlete_id, found.observations, lines, now, policy)
    observations = _not_erased(uow, athlete_id, observations, lines, written_at)
    candidates = _within_caps(observations, legacy, lines, left_out)
    if candidates:
        merge(uow, athlete_id, candidates, now, policy)
    # else: nothing to keep; an athlete vault does not have (deleted, or never had memory) is
    # not made, and the row the engine wrote is taken down at commit
    table.mark_dirty(athlete_id)  # republish even when nothing merged: withheld text leaves the row
    table.applied(row.id)
    # one athlete, one key: the engine's copy under a variant key is vault's now, and the rows
    # of that athlete kept unread before this one are out of date
    table.drop_variants(athlete_id)
    table.purge_refused(athlete_id)
    # what was left out outlives the row (deleted now): `vault doctor` and `vault upgrade`
    # report it later, from the record; never the item's text
    listed = _listed(left_out)
    record_skipped(
        uow.connection,
        [SkippedItem(athlete_id, i.item, i.position, i.reason, utc_text(now)) for i in listed],
    )
    lines += [i.line() for i in listed]
    report.applied += 1
    report.lines += [f"{athlete_id}: {line}" for line in lines]
    for line in lines:
        log.warning("engine row for %s: %s", athlete_id, line)
    if legacy:
        counts = {
            "facts": sum(isinstance(c, FactIn) for c in candidates),
            "patterns": sum(isinstance(c, PatternIn) for c in candidates),
            "notes": sum(isinstance(c, NoteIn) for c in candidates),
        }
        table.record_adoption(athlete_id, "adopted", "; ".join(lines) or None, counts)


_NONE = {"facts": 0, "patterns": 0, "notes": 0}


def _not_erased(
    uow: UnitOfWork,
    athlete_id: str,
    observations: list[Observation],
    lines: list[str],
    written_at: datetime,
) -> list[Observation]:
    """Erasure wins over a stale write-back (docs/engine.md, "What was erased stays erased").

    A fact equal to an erased item, or of an athlete deleted since, stays erased unless its
    `learned_at` comes after the erasure (a new statement); a pattern or note equal to an erased
    one stays erased. The same holds for what vault removed without erasing it (resolved by
    the athlete, replaced, decayed, past a cap: its archive row says when). A `learned_at`
    later than the row's own writing is no evidence of anything new. An item vault holds again
    (stated anew after its removal) is not erased. The lines name no text: they are logged and
    printed.
    """
    if not observations:
        return observations
    erased = erased_items(uow, athlete_id, [o.text for o in observations])
    deleted = athlete_erased_at(uow, athlete_id)
    removed = _removed(uow, athlete_id)
    if not erased and deleted is None and not removed:
        return observations
    active = {erasure_text(state.text) for state in uow.memory.load_active(athlete_id)}
    kept = []
    for observation in observations:
        text = erasure_text(observation.text)
        when = erased.get(observation.text)
        if observation.kind == "fact" and deleted is not None:
            when = max(when, deleted) if when is not None else deleted
        archived = removed.get((observation.kind, text))
        if text in active:
            kept.append(observation)
        elif when is not None and not _learned_after(observation, when, written_at):
            lines.append(f"a {observation.kind} erased at {utc_text(when)} stays erased")
        elif archived is not None and not _learned_after(observation, archived, written_at):
            lines.append(f"a {observation.kind} removed at {utc_text(archived)} stays removed")
        else:
            kept.append(observation)
    return kept


def _not_echoes(
    uow: UnitOfWork,
    athlete_id: str,
    observations: list[Observation],
    lines: list[str],
    now: datetime,
    policy: DecayPolicy,
) -> list[Observation]:
    """A fact vault holds, written at a confidence vault itself showed since the fact was last
    reinforced (its confidence then, or after one of the weekly decay steps since), is the
    engine writing back an older read, not a reinforcement: vault's decay lowered the row in
    between (or took the fact under the row's 0.5 floor). A genuine reinforcement (the
    engine's +0.1) lands on no such value."""
    if not any(o.kind == "fact" for o in observations):
        return observations
    held = {
        normalize_text(state.text): state
        for state in uow.memory.load_active(athlete_id)
        if isinstance(state, FactState)
    }

    def echo(observation: Observation) -> bool:
        state = held.get(normalize_text(observation.text)) if observation.kind == "fact" else None
        return (
            state is not None
            and not _stated_since(observation, state)
            and observation.confidence in _shown_since(state, now, policy)
        )

    kept = [o for o in observations if not echo(o)]
    lines += ["a fact written back at a confidence vault showed before is no reinforcement"] * (
        len(observations) - len(kept)
    )
    return kept


def _stated_since(observation: Observation, state: FactState) -> bool:
    """The engine learned the fact after vault last reinforced it: a new statement."""
    learned = observation.learned_at
    return learned is not None and learned > state.last_reinforced_at


def _shown_since(state: FactState, now: datetime, policy: DecayPolicy) -> set[float]:
    """The confidences vault showed of the fact since it was last reinforced: its base, then
    each weekly decay step up to now (a row republished without a merge shows the decayed
    value while the stored one waits for the next merge or `vault decay`)."""
    factor = policy.factor(state.category)
    shown = {state.base_confidence, state.confidence}
    moment = state.last_reinforced_at
    for _ in range(_STEPS_LOOKED_AT):
        moment += DECAY_PERIOD
        if moment > now:
            break
        shown.add(decayed(state.base_confidence, state.last_reinforced_at, moment, factor))
    return shown


_STEPS_LOOKED_AT = 520  # ten years of weekly steps; a fact under 0.3 is archived long before


def _learned_after(observation: Observation, moment: datetime, written_at: datetime) -> bool:
    """A fact the engine learned after `moment` (and not after it wrote the row)."""
    learned = observation.learned_at
    return observation.kind == "fact" and learned is not None and moment < learned <= written_at


def _removed(uow: UnitOfWork, athlete_id: str) -> dict[tuple[str, str], datetime]:
    """The athlete's archived items by kind and erasure text: when each last left."""
    found: dict[tuple[str, str], datetime] = {}
    for kind, text, archived_at in uow.archive.left(athlete_id):
        key = (kind.value, erasure_text(text))
        found[key] = max(found.get(key, archived_at), archived_at)
    return found


# Items left out of one row that are listed (in the report, the log and the record); the rest
# are counted in one more entry per list, so a row of 20,000 unreadable items is a dozen lines.
LEFT_OUT_LISTED = 10


def _listed(left_out: list[LeftOut]) -> list[LeftOut]:
    if len(left_out) <= LEFT_OUT_LISTED:
        return left_out
    rest = left_out[LEFT_OUT_LISTED:]
    counted = {
        item: sum(i.item == item for i in rest) for item in dict.fromkeys(i.item for i in rest)
    }
    return [
        *left_out[:LEFT_OUT_LISTED],
        *(
            LeftOut(item, None, f"{n} more item(s), not listed one by one")
            for item, n in counted.items()
        ),
    ]


# At most this many items of a kind are read (validated, checked for personal data) per row:
# the caps decide what a merge keeps, so a 20,000-fact row costs what a 120-fact one does.
_EXAMINED_PER_CAP = 8
_CAPS = {"fact": MAX_FACTS, "pattern": MAX_PATTERNS, "note": MAX_NOTES}


def _within_caps(
    observations: list[Observation], legacy: bool, lines: list[str], left_out: list[LeftOut]
) -> list[Candidate]:
    """The candidates of the row, as a merge ranks them (confidence, then the newest), each
    text once, at most eight times each cap: the merge keeps the caps' worth and archives the
    rest as a merge archives what passes a cap (so a forget or a delete finds them, and a
    stale copy of them stays out); what lies beyond is left out unread."""
    candidates: list[Candidate] = []
    ranked = sorted(observations, key=lambda o: (-o.confidence, -o.observed_at.timestamp()))
    for kind, cap in _CAPS.items():
        examined = 0
        seen: set[str] = set()
        of_kind = [o for o in ranked if o.kind == kind]
        for position, observation in enumerate(of_kind):
            if examined == cap * _EXAMINED_PER_CAP:
                lines.append(
                    f"{len(of_kind) - position} {kind}(s) beyond {examined} examined left out"
                )
                break
            key = normalize_text(observation.text[:TEXT_INPUT_MAX])
            if key in seen:
                continue  # the row repeats an item: one observation
            seen.add(key)
            examined += 1
            candidate = _candidate(observation, legacy, left_out)
            if candidate is not None:
                candidates.append(candidate)
    return candidates


def _key_text(raw: object) -> str:
    if raw is None or isinstance(raw, bytes):
        return ""
    return str(raw).strip()


def _previous(raw: object) -> EngineDocument | None:
    if raw is None:
        return None
    try:
        return parse_document(raw)
    except EngineRowError:
        return None  # what it replaced was unreadable: everything in the new row is new


def _candidate(observation: Observation, legacy: bool, left_out: list[LeftOut]) -> Candidate | None:
    """The item as vault's input model, or None (and why in `left_out`) when vault cannot
    take it: its text over the limit, personal data the privacy filter withholds, ..."""
    extractor = LEGACY_EXTRACTOR if legacy else ENGINE_EXTRACTOR
    try:
        candidate: Candidate
        if observation.kind == "fact":
            candidate = FactIn(
                text=observation.text,
                confidence=observation.confidence,
                source=observation.source,
                observed_at=observation.observed_at,
                extractor=extractor,
            )
        elif observation.kind == "pattern":
            candidate = PatternIn(
                text=observation.text, observed_at=observation.observed_at, extractor=extractor
            )
        else:
            candidate = NoteIn(
                text=observation.text, observed_at=observation.observed_at, extractor=extractor
            )
    except ValidationError as error:
        reason = _shown_error(describe_validation_error(error))
        left_out.append(LeftOut(LISTS[observation.kind], observation.position, reason))
        return None
    problem = candidate_problem(candidate)
    if problem is not None:
        reason = f"withheld by the privacy filter: {problem}"
        left_out.append(LeftOut(LISTS[observation.kind], observation.position, reason))
        return None
    return candidate


def _shown_error(error: Exception | str) -> str:
    text = str(error)
    return text if len(text) <= 200 else text[:197] + "..."


@dataclass
class EngineSyncHooks:
    """The facade's write hooks (`UnitOfWork(hooks=...)`): engine writes in, changed rows out.

    `now` is the operation's time; None reads the clock when the hook runs.
    """

    policy: DecayPolicy = DEFAULT_DECAY_POLICY
    now: datetime | None = None
    published: PublishedRows | None = None
    athlete_id: str | None = None  # the athlete the write is about: all their rows first

    def _moment(self) -> datetime:
        return self.now if self.now is not None else utc_now()

    def after_begin(self, uow: UnitOfWork) -> None:
        batch = apply_engine_writes(uow, self._moment(), self.policy)
        if batch.more and self.athlete_id is not None:  # a flood: this athlete's rows too
            apply_waiting_of(uow, self.athlete_id, self._moment(), self.policy)

    def before_commit(self, uow: UnitOfWork) -> None:
        publish_changed(uow, self._moment(), self.policy, self.published)
