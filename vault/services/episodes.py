"""Episodes recorded: add (store triggers, caps, vectors in the same transaction), re-embed,
forget, expire and clean up the archive.

Each function runs inside the caller's unit of work (vault.facade opens it). Recall is
vault.services.recall, episodes from activities vault.services.activity_episodes, knowledge
vault.services.knowledge.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from vault.domain.embedding import Embed, Embedder, embed_all, resolve_embedder
from vault.domain.embedding import checked as checked_embedder
from vault.domain.episodes import AddEpisodesResult, Episode, EpisodeIn, StorePolicy, meta_json
from vault.domain.errors import InvalidInput, PrivacyRefused
from vault.domain.limits import EPISODE_CAP
from vault.domain.text import query_terms
from vault.domain.topics import topics
from vault.services import privacy_gate
from vault.storage.repositories.episodes import owner_key
from vault.storage.search_index import purge_erased_terms
from vault.storage.uow import UnitOfWork


def add_episodes(
    uow: UnitOfWork,
    owner_id: str,
    items: Sequence[EpisodeIn],
    now: datetime,
    *,
    policy: StorePolicy | None = None,
    cap: int = EPISODE_CAP,
    embed: Embed | None = None,
    model: str = "app",
    embedder: Embedder | None = None,
    trusted: bool = False,
    strict: bool = True,
) -> AddEpisodesResult:
    """Record episodes set-wise; an existing `ref` of the owner is rewritten, not duplicated.

    Each episode passes the privacy gate first unless `trusted`: personal data in its text,
    type, outcome and metadata is redacted in place (reported in `redacted`); one the gate
    refuses (an e-mail or card number in its ref or a metadata key) is PrivacyRefused when
    `strict`, else skipped with the reason. With a `policy`, events it does not keep are
    skipped (reported with their input index). Past `cap` episodes the owner's oldest are
    archived as `capped`.
    """
    skipped: list[tuple[int, str]] = []
    kept: list[tuple[int, EpisodeIn]] = []
    redacted: list[tuple[int, tuple[str, ...]]] = []
    gated = not privacy_gate.require_bool(trusted)
    for index, item in enumerate(items):
        if gated:
            try:
                item, kinds = privacy_gate.screen_episode(item, f"episode {index + 1}")
            except PrivacyRefused as error:
                if strict:
                    raise
                skipped.append((index, f"refused: {error.problem}"))
                continue
            if kinds:
                redacted.append((index, kinds))
        if policy is not None and policy.decide(item) is None:
            skipped.append((index, "not_notable"))
        else:
            kept.append((index, item))
    if not kept:
        return AddEpisodesResult(skipped=tuple(sorted(skipped)), redacted=tuple(redacted))
    uow.athletes.ensure(owner_id, now)
    last_by_ref: dict[str, int] = {}
    for position, (_index, item) in enumerate(kept):
        if item.ref is not None:
            last_by_ref[item.ref] = position  # the last copy of a ref in one batch wins
    existing = uow.episodes.existing_refs(owner_id, sorted(last_by_ref))
    key = owner_key(owner_id)
    inserts: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    for position, (index, item) in enumerate(kept):
        if item.ref is not None and last_by_ref[item.ref] != position:
            skipped.append((index, "duplicate_ref"))
            continue
        row = {
            "type": item.type,
            "outcome": item.outcome_value(),
            "text": item.text,
            "occurred_at": item.occurred_at or now,
            "meta": meta_json(item.meta),
        }
        if item.ref is not None and item.ref in existing:
            updates.append({**row, "target": existing[item.ref]})
        else:
            inserts.append(
                {
                    **row,
                    "metadata": row.pop("meta"),
                    "owner_id": owner_id,
                    "owner_key": key,
                    "ref": item.ref,
                    "created_at": now,
                }
            )
    new_ids = uow.episodes.insert(inserts)
    uow.episodes.update(owner_id, updates)
    _write_topics(uow, owner_id, inserts, new_ids, updates)
    chosen = resolve_embedder(embedder, embed, model)
    if chosen is not None:
        # in the episodes' own transaction: an embedder that fails writes no episode either
        texts = [r["text"] for r in inserts] + [r["text"] for r in updates]
        targets = list(new_ids) + [r["target"] for r in updates]
        blobs = embed_all(chosen, texts)
        uow.episodes.put_vectors(
            owner_id,
            [
                {"episode_id": i, "model": chosen.model, "dim": chosen.dim, "vector": b}
                for i, b in zip(targets, blobs)
            ],
        )
    archived = uow.episodes.enforce_cap(owner_id, cap, now) if cap > 0 else 0
    return AddEpisodesResult(
        added=tuple(new_ids),
        updated=tuple(r["target"] for r in updates),
        skipped=tuple(sorted(skipped)),
        archived=archived,
        redacted=tuple(redacted),
    )


def _write_topics(
    uow: UnitOfWork,
    owner_id: str,
    inserts: list[dict[str, Any]],
    new_ids: Sequence[int],
    updates: list[dict[str, Any]],
) -> None:
    """The topics of the episodes just written, in their transaction (a rewritten episode's
    old topics go first)."""
    written = [(i, r) for i, r in zip(new_ids, inserts)] + [(r["target"], r) for r in updates]
    rows = [
        {"episode_id": episode_id, "topic": topic, "occurred_at": row["occurred_at"]}
        for episode_id, row in written
        for topic in topics(row["text"])
    ]
    uow.episodes.put_topics(owner_id, rows, [r["target"] for r in updates])


def reembed(
    uow: UnitOfWork, embedder: Embedder, owner_id: str | None = None, *, batch: int = 256
) -> int:
    """(Re)write the vector of every episode (of `owner_id`, or of everyone) with `embedder`:
    vectors of another model or dimension are replaced, so one file never mixes models."""
    chosen = checked_embedder(embedder)
    owners = [owner_id] if owner_id is not None else uow.episodes.owners()
    done = 0
    for owner in owners:  # owner by owner: every statement reads and writes one athlete's rows
        after = 0
        while rows := uow.episodes.texts_after(after, batch, owner):
            blobs = embed_all(chosen, [text for _id, text in rows])
            uow.episodes.put_vectors(
                owner,
                [
                    {"episode_id": i, "model": chosen.model, "dim": chosen.dim, "vector": b}
                    for (i, _text), b in zip(rows, blobs)
                ],
            )
            done += len(rows)
            after = rows[-1][0]
    return done


def forget_episodes(uow: UnitOfWork, owner_id: str, query: str) -> dict[str, int]:
    """Erase the owner's episodes (and archived ones) matching every word of `query`."""
    terms = query_terms(query)
    if not terms:
        raise InvalidInput(f"nothing to forget: {query!r} has no words to match")
    counts = uow.episodes.forget_matching(owner_id, terms)
    if counts["episodes"]:
        purge_erased_terms(uow.connection)  # erased words leave the FTS5 segments too
    return counts


def expire_episodes(uow: UnitOfWork, now: datetime, max_age_days: int) -> int:
    """Archive (`expired`) episodes that occurred more than `max_age_days` before `now`."""
    if isinstance(max_age_days, bool) or not isinstance(max_age_days, int) or max_age_days < 0:
        raise InvalidInput(f"max_age_days must be a whole number >= 0, got {max_age_days!r}")
    return uow.episodes.expire_before(now - timedelta(days=max_age_days), now)


def cleanup_episode_archive(uow: UnitOfWork, now: datetime, retention_days: int) -> int:
    """Delete archived episodes older than the retention period."""
    if (
        isinstance(retention_days, bool)
        or not isinstance(retention_days, int)
        or retention_days < 0
    ):
        raise InvalidInput(f"retention_days must be a whole number >= 0, got {retention_days!r}")
    deleted = uow.episodes.cleanup_archive(now - timedelta(days=retention_days))
    if deleted:  # the archived episodes' words may still sit in old segments of the index
        purge_erased_terms(uow.connection)
    return deleted


def stored_episode(row: Any) -> Episode:
    """An episode row (the repository's COLUMNS) as the model listings return."""
    meta = row.meta
    if isinstance(meta, str):
        meta = json.loads(meta) if meta else {}
    return Episode(
        id=row.id,
        owner_id=row.owner_id,
        ref=row.ref,
        type=row.type,
        outcome=row.outcome,
        text=row.text,
        occurred_at=row.occurred_at,
        meta=meta or {},
    )
