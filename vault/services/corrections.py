"""The athlete corrects one memory item: edit it, say it is wrong, or delete it.

Each runs inside one unit of work given by the caller (vault.facade.items). An edit is a manual
observation: the new text is merged like any candidate (so it may reinforce or replace other
items by the usual rules), and the old item is archived with reason `edited` and
`superseded_by` the item that now holds its place. "Wrong" and delete remove the item outright
(no archive copy). All three write the erasure record (vault.services.erasure) for the text
that left, so learning does not bring it back from the same evidence; a statement made after
the correction is new and is learned again.
"""

from __future__ import annotations

from datetime import datetime

from vault.domain.corrections import Edited
from vault.domain.erasure import ErasureReason
from vault.domain.errors import AthleteNotFound, InvalidInput
from vault.domain.models import Candidate, Fact, FactIn, ListItem, NoteIn, PatternIn
from vault.domain.rules import DEFAULT_DECAY_POLICY, DecayPolicy, FactState, Removal, State
from vault.domain.text import normalize_text
from vault.domain.vocabulary import ArchiveReason, Kind, Source
from vault.services import memory
from vault.services.erasure import record_erasure
from vault.storage.dialect import lock_athlete
from vault.storage.uow import UnitOfWork

EDIT_CONFIDENCE = 0.8  # an athlete's own words: at least what a manual fact starts with


class ItemNotFound(InvalidInput):
    """No active item of that kind and id in the athlete's memory."""

    def __init__(self, athlete_id: str, kind: Kind, item_id: int) -> None:
        super().__init__(f"no active {kind.value} with id {item_id} in {athlete_id!r}'s memory")


def edit(
    uow: UnitOfWork,
    athlete_id: str,
    kind: Kind,
    item_id: int,
    checked: Candidate,
    now: datetime,
    policy: DecayPolicy = DEFAULT_DECAY_POLICY,
    *,
    trusted: bool = False,
) -> Edited:
    """Replace the item's text with `checked`'s; the merge screens it unless `trusted`."""
    old = _active_item(uow, athlete_id, kind, item_id)
    if normalize_text(checked.text) == old.normalized_text:  # type: ignore[union-attr]
        raise InvalidInput("the new text says the same as the old one; nothing to change")
    uow.memory.delete_ids(kind, athlete_id, [item_id])
    result = memory.merge(
        uow, athlete_id, [_replacement(old, checked, now)], now, policy, trusted=trusted
    )
    new = _item_holding(result.added + result.updated, kind, checked.text)  # type: ignore[union-attr]
    if new is None:
        reasons = "; ".join(i.reason for i in result.ignored) or "the merge kept nothing"
        raise InvalidInput(f"the edit was not taken: {reasons}")
    archived = uow.archive.add(
        [(athlete_id, Removal(old, ArchiveReason.EDITED, superseded_by=old.key))],
        {old.key: new.id},
        now,
    )
    record_erasure(uow, athlete_id, [old.text], ErasureReason.EDITED, now)
    return Edited(item=new, archived=archived[0])


def remove(
    uow: UnitOfWork,
    athlete_id: str,
    kind: Kind,
    item_id: int,
    reason: ErasureReason,
    now: datetime,
) -> None:
    """Remove the item ("wrong" or "deleted"): no archive copy, an erasure record instead."""
    old = _active_item(uow, athlete_id, kind, item_id)
    uow.athletes.touch(athlete_id, now)  # the engine row's updated_at
    uow.memory.delete_ids(
        kind, athlete_id, [item_id]
    )  # its evidence goes with it (ON DELETE CASCADE)
    uow.archive.detach_dangling(athlete_id)  # what it had replaced now points to nothing
    record_erasure(uow, athlete_id, [old.text], reason, now)


def _active_item(uow: UnitOfWork, athlete_id: str, kind: Kind, item_id: int) -> State:
    if not lock_athlete(uow.connection, athlete_id):
        raise AthleteNotFound(athlete_id)
    for state in uow.memory.load_active(athlete_id):
        if state.kind is kind and state.id == item_id:
            return state
    raise ItemNotFound(athlete_id, kind, item_id)


def _replacement(old: State, checked: Candidate, now: datetime) -> Candidate:
    """The new text as a manual observation made now, keeping the old item's category."""
    confidence = max(old.confidence, EDIT_CONFIDENCE)
    ref = f"edit of {old.kind.value} {old.id}"
    text = checked.text  # type: ignore[union-attr]
    if isinstance(old, FactState):
        return FactIn(
            text=text,
            category=old.category,
            source=Source.MANUAL,
            source_ref=ref,
            confidence=confidence,
            observed_at=now,
        )
    model = PatternIn if old.kind is Kind.PATTERN else NoteIn
    return model(
        text=text, source=Source.MANUAL, source_ref=ref, confidence=confidence, observed_at=now
    )


def _item_holding(
    items: tuple[Fact | ListItem, ...], kind: Kind, text: str
) -> Fact | ListItem | None:
    wanted = normalize_text(text)
    same_kind = [item for item in items if item.kind is kind]
    for item in same_kind:
        if normalize_text(item.text) == wanted:
            return item
    # the new text may have been taken over by an item about the same thing ("likes X")
    return same_kind[0] if len(same_kind) == 1 else None
