"""The erasure record: one service for every way of removing something from memory.

Whatever removes an item (`forget`, `delete`, an item's delete or "this is wrong" on the memory
page or over MCP, an edit's old text, consolidation) records it here, in the same unit of
work as the removal; whatever might bring an item back unasked (the engine writing back a row
it read before the erasure, a merge of evidence observed before it) asks here first. `vault
import` does not: it restores a document exactly, as the operator asked (docs/import-export.md). The record keeps keyed hashes only
(`vault.domain.erasure`: HMAC-SHA256 under the vault's secret of the athlete id and of the
item's normalised text), the time and the reason: never the text, never a plain athlete id,
and it outlives the athlete (`vault delete` leaves one row per erased item and one for the
athlete, which is how a stale copy of a deleted athlete is recognised).

    from vault.services.erasure import record_erasure, erased_since, erased_items

    with vault.unit_of_work() as uow:
        record_erasure(uow, "ana", ["Has a sore knee"], ErasureReason.WRONG, now)
        uow.commit()
    ...
    erased_since(uow, "ana", "has a sore knee.")   # -> now (normalised text matches)
    erased_items(uow, "ana", texts)                # -> {text: when} for the erased ones

- `record_erasure(uow, athlete_id, item_texts, reason, now) -> int`: one row per distinct
  normalised text (texts without words are skipped); returns the rows written. `reason` is an
  `ErasureReason` or its value; anything else is InvalidInput and nothing is written.
- `record_athlete_erasure(uow, athlete_id, item_texts, now)`: `vault delete`'s record: the
  athlete's items and the athlete itself, reason `delete`.
- `erased_since(uow, athlete_id, text) -> datetime | None`: when the item, or the whole
  athlete, was last erased; None when never. Times compare with an item's own time: an item
  stated after its erasure is a new statement.
- `erased_items(uow, athlete_id, texts) -> dict[str, datetime]`: for a batch, when each text
  was last erased as an item (the athlete's delete recorded every item it erased), keyed by
  the texts given; only the erased ones are in it.
- `athlete_erased_at(uow, athlete_id) -> datetime | None`: when the athlete was last deleted.

Readers never create anything: a vault with no secret yet has recorded no erasure.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from vault.domain.erasure import ErasureReason, athlete_digest, erasure_text, item_digest
from vault.domain.errors import InvalidInput
from vault.storage.repositories.erasures import ErasureRepository
from vault.storage.uow import UnitOfWork

__all__ = [
    "ErasureReason",
    "athlete_erased_at",
    "erased_items",
    "erased_since",
    "record_athlete_erasure",
    "record_erasure",
]


def record_erasure(
    uow: UnitOfWork,
    athlete_id: str,
    item_texts: Iterable[str],
    reason: ErasureReason | str,
    now: datetime,
) -> int:
    """Record that these items of the athlete were removed at `now`, and why."""
    why = _reason(reason)
    texts = [t for t in item_texts if erasure_text(t)]
    if not texts:
        return 0
    repository = ErasureRepository(uow.connection)
    secret = _secret(repository)
    return repository.add(
        athlete_digest(secret, athlete_id),
        (item_digest(secret, athlete_id, t) for t in texts),
        why.value,
        now,
    )


def record_athlete_erasure(
    uow: UnitOfWork, athlete_id: str, item_texts: Iterable[str], now: datetime
) -> int:
    """`vault delete`: the athlete's items and the athlete itself (item_key NULL)."""
    written = record_erasure(uow, athlete_id, item_texts, ErasureReason.DELETE, now)
    repository = ErasureRepository(uow.connection)
    secret = _secret(repository)
    return written + repository.add(
        athlete_digest(secret, athlete_id), [None], ErasureReason.DELETE.value, now
    )


def erased_items(uow: UnitOfWork, athlete_id: str, texts: Iterable[str]) -> dict[str, datetime]:
    """When each text of the batch was last erased as an item; only erased ones are in it.

    Item by item only: the athlete's own delete is `athlete_erased_at` (its items were recorded
    one by one as well, so a text the athlete never had is not in here)."""
    repository = ErasureRepository(uow.connection)
    secret = repository.secret(create=False)
    if secret is None:
        return {}
    by_key: dict[str, list[str]] = {}
    for text in texts:
        if erasure_text(text):
            by_key.setdefault(item_digest(secret, athlete_id, text), []).append(text)
    found = repository.latest(athlete_digest(secret, athlete_id), by_key)
    return {text: at for key, at in found.items() for text in by_key[key]}


def erased_since(uow: UnitOfWork, athlete_id: str, text: str) -> datetime | None:
    """When this item of the athlete, or the whole athlete, was last erased; None when never."""
    times = [
        t
        for t in (
            erased_items(uow, athlete_id, [text]).get(text),
            athlete_erased_at(uow, athlete_id),
        )
        if t is not None
    ]
    return max(times, default=None)


def athlete_erased_at(uow: UnitOfWork, athlete_id: str) -> datetime | None:
    repository = ErasureRepository(uow.connection)
    secret = repository.secret(create=False)
    if secret is None:
        return None
    return repository.athlete_erased_at(athlete_digest(secret, athlete_id))


def _reason(reason: ErasureReason | str) -> ErasureReason:
    try:
        return ErasureReason(reason)
    except ValueError:
        known = ", ".join(r.value for r in ErasureReason)
        raise InvalidInput(f"unknown erasure reason {reason!r}; one of: {known}") from None


def _secret(repository: ErasureRepository) -> bytes:
    secret = repository.secret(create=True)
    assert secret is not None  # made on first use
    return secret
