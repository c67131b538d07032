"""Keep the engine's `athlete_memory` and vault's memory one memory (SQLite).

`athlete_memory` is a view computed from vault's items when the engine reads it
(vault.storage.engine_view): what an operation changes is in the engine's next read, with no
work at commit. The engine's writes wait in `engine_inbox`; every write transaction of the
facade runs `apply_engine_writes` right after BEGIN, so the operation sees what the engine
wrote, and the view shows the engine's waiting row until then.

What an engine row means is `vault.domain.engine_document`. Rows go through the same input
rules and privacy filter as `remember`; items they refuse are left out, recorded without their
text (`engine_skipped_items`, which `vault doctor` and `vault upgrade` report; for a legacy row
also in `legacy_adoption.reason`), and the athlete's row no longer shows them.
"""

from __future__ import annotations

import logging
import math
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
    describe_validation_error,
)
from vault.domain.rules import DEFAULT_DECAY_POLICY, DecayPolicy, FactState, State, decayed
from vault.domain.text import normalize_text
from vault.domain.times import utc_now
from vault.domain.vocabulary import Kind
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
    lines: list[str] = field(default_factory=list)
    more: bool = False  # the batch was full: rows may still wait

    def add(self, later: EngineSyncReport) -> None:
        """Count in what a later batch did."""
        self.applied += later.applied
        self.refused += later.refused
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


def sync(
    uow: UnitOfWork, now: datetime, policy: DecayPolicy = DEFAULT_DECAY_POLICY
) -> EngineSyncReport:
    """Apply a batch of the engine's writes; `more` says whether rows may still wait
    (`Store.sync_engine` runs batches until none does)."""
    table = EngineTableRepository(uow.connection)
    if table.present:
        table.take_down_keyless()
    return apply_engine_writes(uow, now, policy)


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
        table.refuse_keyless(row.id, reason)
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
    # not made, and the view no longer shows the row the engine wrote
    table.applied(row.id)
    # the rows of that athlete kept unread before this one are out of date
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
    """The engine writing back an older read, not a reinforcement:

    - a fact vault holds, written at a confidence vault itself showed since the fact was last
      reinforced (its confidence then, or after one of the weekly decay steps since): vault's
      decay lowered the row in between (or took the fact under the row's 0.5 floor). A
      genuine reinforcement (the engine's +0.1) lands on no such value;
    - a pattern or note vault holds and its row leaves out now (the token budget or a cap):
      the row the engine read showed it before that; the engine's structs carry no time or
      confidence that could tell a new statement. One vault's row shows is reinforced (the
      engine's own earlier row may have left it out).
    """
    held: dict[tuple[str, str], State] = {
        (state.kind.value, normalize_text(state.text)): state
        for state in (uow.memory.load_active(athlete_id) if observations else ())
    }
    listed = [o for o in observations if o.kind != "fact"]
    shown = _shown_items(uow, athlete_id, now, policy) if listed else set()

    def echo(observation: Observation) -> bool:
        state = held.get((observation.kind, normalize_text(observation.text)))
        if state is None or not isinstance(state, FactState):
            return state is not None and (state.kind, state.id) not in shown
        return not _stated_since(observation, state) and _among(
            observation.confidence, _shown_since(state, now, policy)
        )

    kept = []
    for observation in observations:
        if echo(observation):
            lines.append(
                f"a {observation.kind} written back from an older read is no reinforcement"
            )
        else:
            kept.append(observation)
    return kept


def _shown_items(
    uow: UnitOfWork, athlete_id: str, now: datetime, policy: DecayPolicy
) -> set[tuple[Kind, int | None]]:
    """The patterns and notes the athlete's row shows now (the MEMORY block's), by kind and id."""
    block = render_rows(queries.prompt_rows(uow.connection, athlete_id, now, policy))
    return {(kind, i) for kind in (Kind.PATTERN, Kind.NOTE) for i in block.included.of(kind)}


def _stated_since(observation: Observation, state: FactState) -> bool:
    """The engine learned the fact after vault last reinforced it: a new statement."""
    learned = observation.learned_at
    return learned is not None and learned > state.last_reinforced_at


def _among(confidence: float, shown: set[float]) -> bool:
    """`confidence` is one of `shown` as the engine's row carried it: the view writes a stored
    confidence with SQLite's 15 significant digits (a confidence given with 17 comes back
    shortened), while vault's own arithmetic rounds to 6 decimals."""
    return any(math.isclose(confidence, value, rel_tol=1e-12, abs_tol=1e-12) for value in shown)


def _shown_since(state: FactState, now: datetime, policy: DecayPolicy) -> set[float]:
    """The confidences vault showed of the fact since it was last reinforced: its base, then
    each weekly decay step up to now (the engine's row shows the stored confidence, which a
    merge or `vault decay` lowers a step at a time; a read by an older vault showed the
    decayed value of the day)."""
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
    """The facade's write hook (`UnitOfWork(hooks=...)`): the engine's writes in.

    `now` is the operation's time; None reads the clock when the hook runs.
    """

    policy: DecayPolicy = DEFAULT_DECAY_POLICY
    now: datetime | None = None
    athlete_id: str | None = None  # the athlete the write is about: all their rows first

    def _moment(self) -> datetime:
        return self.now if self.now is not None else utc_now()

    def after_begin(self, uow: UnitOfWork) -> None:
        batch = apply_engine_writes(uow, self._moment(), self.policy)
        if batch.more and self.athlete_id is not None:  # a flood: this athlete's rows too
            apply_waiting_of(uow, self.athlete_id, self._moment(), self.policy)
