"""`v.episodes`: what happened to an owner, recorded and recalled when it matters."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from vault.domain.embedding import Embed, Embedder, resolve_embedder
from vault.domain.episodes import AddEpisodesResult, Episode, EpisodeIn, StorePolicy, Topic
from vault.domain.errors import InvalidInput
from vault.domain.limits import EPISODE_ARCHIVE_RETENTION_DAYS, EPISODE_BUDGET, EPISODE_CAP
from vault.domain.models import validated, validated_athlete
from vault.domain.topics import topic_keys
from vault.extraction import ActivityIn
from vault.facade.store import Store, moment
from vault.prompt.episodes import EpisodeSections, render_episode_sections
from vault.prompt.tokens import DEFAULT_ENCODING
from vault.services import activity_episodes, knowledge, privacy_gate
from vault.services import episodes as services
from vault.services import recall as recalling
from vault.storage.repositories.episodes import EpisodeRepository, KnowledgeRepository


class Episodes:
    """Episodes per owner: add, recall, forget, expire, and the prompt sections they fill."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def add(
        self,
        owner_id: str,
        items: Sequence[EpisodeIn | dict[str, Any]],
        *,
        now: datetime | None = None,
        policy: StorePolicy | None = None,
        cap: int = EPISODE_CAP,
        embed: Embed | None = None,
        model: str = "app",
        embedder: Embedder | None = None,
        trusted: bool = False,
    ) -> AddEpisodesResult:
        """Record episodes in one transaction (set-wise); a known `ref` is rewritten in place.
        Text, type, outcome, ref and meta pass the privacy gate unless `trusted`.

        `policy` (the store triggers) skips what it would not remember; past `cap` the
        owner's oldest episodes move to `episode_archive`. `embedder` (vault.Embedder; or the
        one-text function `embed` named `model`) stores a vector per episode, in the same
        transaction.
        """
        owner = validated_athlete(owner_id)
        checked = [validated(EpisodeIn, item) for item in items]
        privacy_gate.check(privacy_gate.episode_fields(checked), trusted=trusted)
        with self._store.write() as uow:
            return services.add_episodes(
                uow,
                owner,
                checked,
                moment(now),
                policy=policy,
                cap=cap,
                embed=embed,
                model=model,
                embedder=embedder,
            )

    def add_one(
        self,
        owner_id: str,
        text: str,
        *,
        now: datetime | None = None,
        trusted: bool = False,
        **fields: Any,
    ) -> AddEpisodesResult:
        """Record one episode (`type`, `outcome`, `at`, `ref`, `meta` as in EpisodeIn)."""
        return self.add(owner_id, [{"text": text, **fields}], now=now, trusted=trusted)

    def import_stream(
        self,
        owner_id: str,
        items: Iterable[EpisodeIn | dict[str, Any]],
        *,
        now: datetime | None = None,
        batch: int = 2000,
        progress: Callable[[int], None] | None = None,
        embedder: Embedder | None = None,
        trusted: bool = False,
    ) -> dict[str, int]:
        """Record a stream of episodes in ONE transaction, `batch` at a time (flat memory).

        `items` is read lazily, inside the transaction: an invalid item (InvalidInput) writes
        nothing. `progress(n)` is called after each batch with its size. Returns the counts
        `episodes`, `added`, `updated` and `archived`.
        """
        owner = validated_athlete(owner_id)
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise InvalidInput(f"batch must be a whole number >= 1, got {batch!r}")
        privacy_gate.require_bool(trusted)
        at = moment(now)
        counts = dict.fromkeys(("episodes", "added", "updated", "archived"), 0)
        stream = iter(items)
        with self._store.write() as uow:
            while chunk := [validated(EpisodeIn, i) for i in itertools.islice(stream, batch)]:
                privacy_gate.check(
                    privacy_gate.episode_fields(chunk), trusted=trusted
                )  # rolls back all
                result = services.add_episodes(uow, owner, chunk, at, embedder=embedder)
                counts["episodes"] += len(chunk)
                counts["added"] += len(result.added)
                counts["updated"] += len(result.updated)
                counts["archived"] += result.archived
                if progress is not None:
                    progress(len(chunk))
        return counts

    def from_activity(
        self,
        owner_id: str,
        activity: ActivityIn | dict[str, Any],
        *,
        now: datetime | None = None,
        policy: StorePolicy | None = None,
        trusted: bool = False,
    ) -> AddEpisodesResult:
        """The episodes an activity is worth (session with outcome, injury, race), recorded."""
        found = activity_episodes.episodes_from_activity(activity, policy=policy)
        if not found:
            privacy_gate.require_bool(trusted)
            return AddEpisodesResult()
        return self.add(owner_id, found, now=now, trusted=trusted)

    def recall(
        self,
        owner_id: str,
        query: str,
        *,
        k: int = 3,
        now: datetime | None = None,
        filters: dict[str, Any] | None = None,
        embed: Embed | None = None,
        model: str = "app",
        embedder: Embedder | None = None,
    ) -> list[Episode]:
        """The owner's `k` episodes most relevant to `query`, best first, with score parts
        (docs/recall.md). With an `embedder`, its vectors join the words (same model only)."""
        owner = validated_athlete(owner_id)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 100:
            raise InvalidInput(f"k must be a whole number from 1 to 100, got {k!r}")
        if not isinstance(query, str):
            raise InvalidInput("query must be a string")
        with self._store.read() as connection:
            return recalling.recall(
                EpisodeRepository(connection),
                recalling.RecallRequest(
                    owner,
                    query,
                    moment(now),
                    k=k,
                    filters=filters,
                    embedder=resolve_embedder(embedder, embed, model),
                ),
            )

    def topics(self, owner_id: str, *, limit: int = 20, about: str | None = None) -> list[Topic]:
        """What the owner's conversations were about (the `conversation_topics` view): topics
        most mentioned first. With `about`, only the topics among its words and phrases (the
        ones a question touches)."""
        owner = validated_athlete(owner_id)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be a whole number from 1 to 1000, got {limit!r}")
        named = None if about is None else topic_keys(about)
        with self._store.read() as connection:
            rows = EpisodeRepository(connection).topics(owner, limit, named)
        return [
            Topic(
                topic=r.topic,
                mention_count=int(r.mention_count),
                first_mentioned=r.first_mentioned,
                last_mentioned=r.last_mentioned,
            )
            for r in rows
        ]

    def reembed(self, embedder: Embedder, owner_id: str | None = None, *, batch: int = 256) -> int:
        """(Re)write every episode's vector (of `owner_id`, or of all owners) with `embedder`,
        in one transaction; vectors of another model are replaced. Returns how many."""
        owner = None if owner_id is None else validated_athlete(owner_id)
        if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
            raise InvalidInput(f"batch must be a whole number >= 1, got {batch!r}")
        with self._store.write() as uow:
            return services.reembed(uow, embedder, owner, batch=batch)

    def newest(self, owner_id: str, *, limit: int = 20, offset: int = 0) -> list[Episode]:
        """One page of the owner's episodes, newest first (`offset` episodes skipped)."""
        owner = validated_athlete(owner_id)
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 500:
            raise InvalidInput(f"limit must be a whole number from 1 to 500, got {limit!r}")
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise InvalidInput(f"offset must be a whole number >= 0, got {offset!r}")
        with self._store.read() as connection:
            rows = EpisodeRepository(connection).newest(owner, limit, offset)
        return [services.stored_episode(row) for row in rows]

    def count(self, owner_id: str) -> int:
        """How many episodes the owner has (archived ones not counted)."""
        owner = validated_athlete(owner_id)
        with self._store.read() as connection:
            return EpisodeRepository(connection).count(owner)

    def vector_models(self) -> dict[tuple[str, int], int]:
        """How many episode vectors each (model, dim) holds."""
        with self._store.read() as connection:
            return EpisodeRepository(connection).vector_models()

    def forget(self, owner_id: str, query: str) -> dict[str, int]:
        """Erase the owner's episodes and archived episodes matching every word of `query`."""
        owner = validated_athlete(owner_id)
        with self._store.erasing(), self._store.write() as uow:
            counts = services.forget_episodes(uow, owner, query)
        self._store.checkpoint()
        return counts

    def expire(self, max_age_days: int, now: datetime | None = None) -> int:
        """Archive (`expired`) every episode older than `max_age_days`; return how many."""
        with self._store.write() as uow:
            return services.expire_episodes(uow, moment(now), max_age_days)

    def cleanup_archive(
        self, now: datetime | None = None, retention_days: int = EPISODE_ARCHIVE_RETENTION_DAYS
    ) -> int:
        """Delete archived episodes older than `retention_days`; return how many."""
        with self._store.write() as uow:
            return services.cleanup_episode_archive(uow, moment(now), retention_days)

    def sections(
        self,
        owner_id: str,
        context: str,
        *,
        k: int = 3,
        now: datetime | None = None,
        budget: int = EPISODE_BUDGET,
        encoding: str = DEFAULT_ENCODING,
    ) -> EpisodeSections:
        """The KNOWLEDGE / PAST EXPERIENCE prompt sections for `context`, within `budget`."""
        recalled = self.recall(owner_id, context, k=k, now=now) if context.strip() else []
        with self._store.read() as connection:
            known = knowledge.lookup_knowledge(KnowledgeRepository(connection), context)
        return render_episode_sections(known, recalled, budget=budget, encoding=encoding)
