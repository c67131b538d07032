"""`v.items`: the athlete corrects one memory item by id: edit it, say it is wrong, delete it.

The memory page (`vault ui`) and the MCP correction tools call these; each is one transaction
with the same validation and privacy gate as `merge`; the engine's next read shows the change.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from vault.domain.corrections import Edited, Removed
from vault.domain.erasure import ErasureReason
from vault.domain.errors import InvalidInput
from vault.domain.models import validated_athlete
from vault.domain.vocabulary import Kind
from vault.facade.candidates import checked_candidates
from vault.facade.store import Store, moment
from vault.services import corrections


class Items:
    """Corrections of one fact, pattern or note, named by its kind and id."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def edit(
        self,
        athlete_id: str,
        kind: Kind | str,
        item_id: int,
        text: str,
        *,
        now: datetime | None = None,
        trusted: bool = False,
    ) -> Edited:
        """Rewrite an item: the new text is a manual observation made `now` (the old item's
        category kept); the old item is archived with reason `edited` and `superseded_by` the
        new one, and shows in its history. The new text passes the privacy gate unless
        `trusted`. InvalidInput (nothing written) for an unknown item or an unchanged text."""
        athlete = validated_athlete(athlete_id)
        chosen, number = _kind(kind), _item_id(item_id)
        [checked] = checked_candidates([{"kind": chosen.value, "text": text}], trusted=trusted)
        at = moment(now)
        with self._store.write(at, athlete_id=athlete) as uow:
            return corrections.edit(
                uow, athlete, chosen, number, checked, at, self._store.decay_policy, trusted=trusted
            )

    def reject(
        self, athlete_id: str, kind: Kind | str, item_id: int, *, now: datetime | None = None
    ) -> Removed:
        """ "This is wrong": remove the item and record it as wrong (a keyed hash, not the
        text), so learning does not re-create it from the same evidence."""
        return self._remove(athlete_id, kind, item_id, ErasureReason.WRONG, now)

    def delete(
        self, athlete_id: str, kind: Kind | str, item_id: int, *, now: datetime | None = None
    ) -> Removed:
        """Delete the item; recorded like `reject`, with reason `deleted`."""
        return self._remove(athlete_id, kind, item_id, ErasureReason.DELETED, now)

    def _remove(
        self,
        athlete_id: str,
        kind: Kind | str,
        item_id: int,
        reason: ErasureReason,
        now: datetime | None,
    ) -> Removed:
        athlete = validated_athlete(athlete_id)
        chosen, number = _kind(kind), _item_id(item_id)
        at = moment(now)
        with self._store.erasing(), self._store.write(at, athlete_id=athlete) as uow:
            corrections.remove(uow, athlete, chosen, number, reason, at)
        return Removed(
            kind=chosen, id=number, reason=reason.value, erased_from_disk=self._store.checkpoint()
        )


def _kind(kind: Any) -> Kind:
    try:
        return Kind(kind)
    except ValueError:
        raise InvalidInput(f"kind must be fact, pattern or note, got {kind!r}") from None


def _item_id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"an item id is a whole number >= 1, got {value!r}")
    return value
