"""Episodes: set-wise writes, full-text candidates per owner, caps, retention, forget, delete.

Full text is dialect-specific and kept here. SQLite: FTS5 (`episodes_fts`, external content
kept by triggers, revision 0005); every MATCH is ANDed with the owner's one-token `owner_key`
so FTS5 walks that owner's postings only, and candidates come newest-first (`ORDER BY rowid
DESC LIMIT n`) so no query scores every matching row of a large file (FTS5's `bm25()` would:
it counts each phrase's documents over the whole table on every call). PostgreSQL: the
generated `search` tsvector (GIN index) with `ts_rank`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    tuple_,
    update,
)

from vault.domain.episode_query import SAID_PAST_WORDS
from vault.domain.episodes import Knowledge, KnowledgeIn
from vault.domain.text import matches_query
from vault.domain.times import format_utc, parse_utc
from vault.storage.dialect import has_fts5
from vault.storage.episode_tables import (
    episode_archive_table,
    episode_topics_table,
    episode_vectors_table,
    episodes_table,
    knowledge_names_table,
    knowledge_table,
)
from vault.storage.repositories._sql import rowcount
from vault.storage.scope import operation_scope
from vault.storage.tables import athletes_table

vectors_table = episode_vectors_table

_E = episodes_table.c
_META = _E["metadata"]
COLUMNS = (
    _E.id,
    _E.owner_id,
    _E.ref,
    _E.type,
    _E.outcome,
    _E.text,
    _E.occurred_at,
    _META.label("meta"),
)

_INSERT = insert(episodes_table).returning(_E.id, sort_by_parameter_order=True)
_UPDATE = (
    update(episodes_table)
    .where(_E.owner_id == bindparam("owner"), _E.id == bindparam("target"))
    .values(
        type=bindparam("type"),
        outcome=bindparam("outcome"),
        text=bindparam("text"),
        occurred_at=bindparam("occurred_at"),
        **{"metadata": bindparam("meta")},
    )
)
_BY_REFS = select(_E.id, _E.ref).where(
    _E.owner_id == bindparam("owner"), _E.ref.in_(bindparam("refs", expanding=True))
)
# By the owner's key (owner_id, id): one shard, and on SQLite the UNIQUE (owner_id, id) index
# (revision 0010) rather than a walk of the owner's (owner_id, occurred_at) index.
_BY_IDS = select(*COLUMNS).where(
    _E.owner_id == bindparam("owner"), _E.id.in_(bindparam("ids", expanding=True))
)
_WINDOW = (
    select(*COLUMNS)
    .where(
        _E.owner_id == bindparam("owner"),
        _E.occurred_at >= bindparam("start", type_=_E.occurred_at.type),
        _E.occurred_at < bindparam("end", type_=_E.occurred_at.type),
    )
    .order_by(_E.occurred_at.desc(), _E.id.desc())
    .limit(bindparam("cap"))
)
# Of the first `cap` episodes of a span (read by the (owner_id, occurred_at) index, so at most
# `cap` rows are read however busy the span), those that hold a word pointing back in time
# ("yesterday", "2 days ago"): a substring test; the caller reads the words themselves.
_SPAN_START = _WINDOW.order_by(None).order_by(_E.occurred_at, _E.id).subquery()
_POINTING_BACK = (
    select(*_SPAN_START.c)
    .where(or_(*(_SPAN_START.c.text.ilike(f"%{word}%") for word in SAID_PAST_WORDS)))
    .order_by(_SPAN_START.c.occurred_at, _SPAN_START.c.id)
)
_RECENT = (
    select(*COLUMNS)
    .where(_E.owner_id == bindparam("owner"))
    .order_by(_E.occurred_at.desc(), _E.id.desc())
    .limit(bindparam("cap"))
)
_NEWEST = _RECENT.offset(bindparam("skip"))
# the episode just before / just after a moment (and id) of the owner: one seek each on the
# (owner_id, occurred_at) index, whose entries end with the row id
_AT = bindparam("at", type_=_E.occurred_at.type)
_BEFORE = (
    select(*COLUMNS)
    .where(
        _E.owner_id == bindparam("owner"),
        tuple_(_E.occurred_at, _E.id) < tuple_(_AT, bindparam("id")),
    )
    .order_by(_E.occurred_at.desc(), _E.id.desc())
    .limit(bindparam("n"))
)
_AFTER = (
    select(*COLUMNS)
    .where(
        _E.owner_id == bindparam("owner"),
        tuple_(_E.occurred_at, _E.id) > tuple_(_AT, bindparam("id")),
    )
    .order_by(_E.occurred_at, _E.id)
    .limit(bindparam("n"))
)
_OLDEST = select(func.min(_E.occurred_at)).where(_E.owner_id == bindparam("owner"))
_ACTIVITY_SESSIONS = (
    select(_E.ref, _E.occurred_at, _E.text, _META)
    .where(
        _E.owner_id == bindparam("owner"),
        _E.ref.like("activity:%"),
        _E.ref.not_like("activity:%:injury"),  # the second row older versions wrote for pain
    )
    .order_by(_E.occurred_at.desc(), _E.id.desc())
    .limit(bindparam("cap"))
)
_COUNT = select(func.count()).select_from(episodes_table).where(_E.owner_id == bindparam("owner"))
# recall's candidates on SQLite (candidate_rows): one statement, the episodes looked up by
# primary key from the ids the FTS5 index (owner token ANDed inside it) and the owner's
# (owner_id, occurred_at) index give, newest first and capped per part
_HITS = (
    "SELECT id, owner_id, ref, type, outcome, text, occurred_at, metadata FROM episodes "
    "WHERE id IN ("
)
_FTS_PART = (
    "SELECT rowid FROM (SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH ? "
    "ORDER BY rowid DESC LIMIT ?)"
)
_WINDOW_PART = (
    "SELECT id FROM (SELECT id FROM episodes WHERE owner_id = ? AND occurred_at >= ? "
    "AND occurred_at < ? ORDER BY occurred_at DESC, id DESC LIMIT ?)"
)
_RECENT_PART = (
    "SELECT id FROM (SELECT id FROM episodes WHERE owner_id = ? "
    "ORDER BY occurred_at DESC, id DESC LIMIT ?)"
)
EpisodeHit = tuple[int, "str | None", str, "str | None", str, datetime, str]
"""id, ref, type, outcome, text, occurred_at, metadata (JSON text)."""

_PG_CANDIDATES = text(
    "SELECT e.id FROM episodes AS e WHERE e.owner_id = :owner "
    "AND e.search @@ to_tsquery('english', :query) "
    "ORDER BY ts_rank(e.search, to_tsquery('english', :query)) DESC, e.id DESC LIMIT :cap"
)
_BEYOND_CAP = (
    select(_E.id)
    .where(_E.owner_id == bindparam("owner"))
    .order_by(_E.occurred_at.desc(), _E.id.desc())
    .offset(bindparam("cap"))
)


def _archive_statement() -> Any:
    copied = select(
        _E.owner_id,
        _E.id,
        _E.ref,
        _E.type,
        _E.outcome,
        _E.text,
        _E.occurred_at,
        _META,
        _E.created_at,
        bindparam("reason"),
        bindparam("now", type_=episode_archive_table.c.archived_at.type),
    ).where(_E.owner_id == bindparam("owner"), _E.id.in_(bindparam("ids", expanding=True)))
    columns = [
        "owner_id",
        "original_id",
        "ref",
        "type",
        "outcome",
        "text",
        "occurred_at",
        "metadata",
        "created_at",
        "reason",
        "archived_at",
    ]
    return insert(episode_archive_table).from_select(columns, copied)


_ARCHIVE = _archive_statement()
_DELETE_IDS = delete(episodes_table).where(
    _E.owner_id == bindparam("owner"), _E.id.in_(bindparam("ids", expanding=True))
)
# said outright, not left to ON DELETE CASCADE: a connection without foreign keys still
# erases an episode's vector with it (and secure_delete zeroes both)
_DELETE_VECTORS = delete(episode_vectors_table).where(
    episode_vectors_table.c.owner_id == bindparam("owner"),
    episode_vectors_table.c.episode_id.in_(bindparam("ids", expanding=True)),
)
_EXPIRED = (
    select(_E.owner_id, _E.id)
    .where(_E.occurred_at < bindparam("cutoff", type_=_E.occurred_at.type))
    .order_by(_E.owner_id, _E.id)
)
_T = episode_topics_table.c
_DELETE_TOPICS = delete(episode_topics_table).where(
    _T.athlete_id == bindparam("owner"),
    _T.episode_id.in_(bindparam("ids", expanding=True)),
)
_INSERT_TOPICS = insert(episode_topics_table)
_COUNT_TOPICS = func.count().label("mention_count")
_A = episode_archive_table.c
_ARCHIVE_ROWS = select(_A.id, _A.text).where(_A.owner_id == bindparam("owner"))


def owner_key(owner_id: str) -> str:
    """The owner's one-token name in the full-text index (`k` + 15 hex digits of SHA-1)."""
    return "k" + hashlib.sha1(owner_id.encode("utf-8")).hexdigest()[:15]


def fts_phrase(word: str) -> str:
    """A word as an FTS5 string (double quotes doubled)."""
    return '"' + word.replace('"', '""') + '"'


def fts_match(key: str, groups: Sequence[Sequence[str]]) -> str:
    """`owner_key:"k…" AND text:(a OR b) [AND text:(c OR d) …]` (groups are ANDed)."""
    parts = [f"owner_key:{fts_phrase(key)}"]
    for words in groups:
        parts.append("text:(" + " OR ".join(fts_phrase(w) for w in words) + ")")
    return " AND ".join(parts)


def fts_any(key: str, words: Sequence[str]) -> str:
    """`owner_key:"k…" AND text:(a OR b OR …)`: any of the words."""
    return fts_match(key, [words])


class EpisodeRepository:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    # -- writes
    def existing_refs(self, owner_id: str, refs: Sequence[str]) -> dict[str, int]:
        """ids of the owner's episodes holding these refs."""
        if not refs:
            return {}
        found = self.connection.execute(_BY_REFS, {"owner": owner_id, "refs": list(refs)})
        return {row.ref: row.id for row in found}

    def insert(self, rows: list[dict[str, Any]]) -> list[int]:
        """Insert episodes set-wise (one executemany); ids in input order."""
        if not rows:
            return []
        return list(self.connection.execute(_INSERT, rows).scalars().all())

    def update(self, owner_id: str, rows: list[dict[str, Any]]) -> int:
        """Rewrite the owner's episodes by id (`target`): text, type, outcome, occurred_at,
        metadata."""
        if not rows:
            return 0
        return rowcount(self.connection.execute(_UPDATE, [{**r, "owner": owner_id} for r in rows]))

    def put_vectors(self, owner_id: str, rows: list[dict[str, Any]]) -> None:
        """Store embeddings of the owner's episodes (episode_id, model, dim, vector blob),
        replacing earlier ones."""
        if not rows:
            return
        ids = [r["episode_id"] for r in rows]
        v = vectors_table.c
        self.connection.execute(
            delete(vectors_table).where(v.owner_id == owner_id, v.episode_id.in_(ids))
        )
        self.connection.execute(insert(vectors_table), [{**r, "owner_id": owner_id} for r in rows])

    def vectors(self, owner_id: str, ids: Sequence[int], model: str, dim: int) -> dict[int, bytes]:
        """The stored vectors of the owner's episodes made by `model` with `dim` values."""
        if not ids:
            return {}
        v = vectors_table.c
        found = self.connection.execute(
            select(v.episode_id, v.vector).where(
                v.owner_id == owner_id, v.episode_id.in_(list(ids)), v.model == model, v.dim == dim
            )
        )
        return {row.episode_id: row.vector for row in found}

    def owner_vectors(self, owner_id: str, model: str, dim: int, limit: int) -> dict[int, bytes]:
        """The vectors (`model`, `dim`) of the owner's newest `limit` episodes that have one."""
        v = vectors_table.c
        statement = (
            select(v.episode_id, v.vector)
            .join(episodes_table, (_E.owner_id == v.owner_id) & (_E.id == v.episode_id))
            .where(v.owner_id == owner_id, v.model == model, v.dim == dim)
            .order_by(_E.occurred_at.desc(), _E.id.desc())
            .limit(limit)
        )
        return {row.episode_id: row.vector for row in self.connection.execute(statement)}

    def texts_after(self, after: int, limit: int, owner_id: str) -> list[tuple[int, str]]:
        """(id, text) of the owner's next `limit` episodes by id after `after`."""
        statement = (
            select(_E.id, _E.text)
            .where(_E.owner_id == owner_id, _E.id > after)
            .order_by(_E.id)
            .limit(limit)
        )
        return [(int(row.id), row.text) for row in self.connection.execute(statement)]

    def owners(self) -> list[str]:
        """Every athlete id, in order (the owners an all-athlete pass visits one by one)."""
        listed = select(athletes_table.c.id).order_by(athletes_table.c.id)
        with operation_scope("all"):
            return list(self.connection.execute(listed).scalars())

    def vector_models(self) -> dict[tuple[str, int], int]:
        """How many stored vectors each (model, dim) has."""
        v = vectors_table.c
        statement = select(v.model, v.dim, func.count()).group_by(v.model, v.dim)
        with operation_scope("all"):  # a count over every shard
            found = self.connection.execute(statement).all()
        return {(row[0], int(row[1])): int(row[2]) for row in found}

    def put_topics(self, owner_id: str, rows: list[dict[str, Any]], replaced: list[int]) -> None:
        """Write the topics of episodes just written (`rows`: episode_id, topic, occurred_at),
        after removing those of the `replaced` episodes (rewritten in place)."""
        for start in range(0, len(replaced), 5000):
            self.connection.execute(
                delete(episode_topics_table).where(
                    _T.athlete_id == owner_id,
                    _T.episode_id.in_(replaced[start : start + 5000]),
                )
            )
        if rows:
            self.connection.execute(_INSERT_TOPICS, [{**r, "athlete_id": owner_id} for r in rows])

    def topics(
        self, owner_id: str, limit: int, named: Sequence[str] | None = None
    ) -> list[Row[Any]]:
        """The owner's topics (topic, mention_count, first_mentioned, last_mentioned), most
        mentioned first; only those in `named` when given."""
        statement = (
            select(
                _T.topic,
                _COUNT_TOPICS,
                func.min(_T.occurred_at).label("first_mentioned"),
                func.max(_T.occurred_at).label("last_mentioned"),
            )
            .where(_T.athlete_id == owner_id)
            .group_by(_T.topic)
            .order_by(_COUNT_TOPICS.desc(), func.max(_T.occurred_at).desc(), _T.topic)
            .limit(limit)
        )
        if named is not None:
            if not named:
                return []
            statement = statement.where(_T.topic.in_(sorted(set(named))))
        return list(self.connection.execute(statement))

    # -- reads
    def count(self, owner_id: str) -> int:
        return int(self.connection.execute(_COUNT, {"owner": owner_id}).scalar_one())

    def candidate_rows(
        self,
        owner_id: str,
        matches: Sequence[str],
        cap: int,
        *,
        window: tuple[datetime, datetime] | None = None,
        recent: int = 0,
    ) -> list[EpisodeHit]:
        """SQLite: in ONE statement, the owner's episodes among the newest `cap` matches of each
        FTS5 expression, the newest `cap` inside `window` ([start, end)) and the newest `recent`.

        Rows come as plain tuples (id, ref, type, outcome, text, occurred_at, metadata text),
        each id once, in no particular order: recall ranks them itself.
        """
        parts: list[str] = []
        params: list[Any] = []
        for match in matches:
            parts.append(_FTS_PART)
            params.extend((match, cap))
        if window is not None:
            parts.append(_WINDOW_PART)
            params.extend((owner_id, format_utc(window[0]), format_utc(window[1]), cap))
        if recent > 0:
            parts.append(_RECENT_PART)
            params.extend((owner_id, recent))
        if not parts:
            return []
        statement = _HITS + " UNION ALL ".join(parts) + ")"
        found = self.connection.exec_driver_sql(statement, tuple(params)).fetchall()
        return [
            (id_, ref, kind, outcome, text_, parse_utc(at), meta)
            for id_, owner, ref, kind, outcome, text_, at, meta in found
            if owner == owner_id
        ]

    def pg_candidates(self, owner_id: str, words: Sequence[str], cap: int) -> list[int]:
        """PostgreSQL: ids matching any word, best `ts_rank` first."""
        query = " | ".join(w for w in words if w.isalnum())
        if not query:
            return []
        found = self.connection.execute(
            _PG_CANDIDATES, {"owner": owner_id, "query": query, "cap": cap}
        )
        return [int(r[0]) for r in found]

    def rows(self, owner_id: str, ids: Iterable[int]) -> list[Row[Any]]:
        wanted = sorted(set(ids))
        if not wanted:
            return []
        return list(self.connection.execute(_BY_IDS, {"owner": owner_id, "ids": wanted}))

    def adjacent(
        self, owner_id: str, id_: int, at: datetime, n: int = 1
    ) -> tuple[list[Row[Any]], list[Row[Any]]]:
        """The owner's `n` episodes just before and just after (`at`, `id_`), nearest first."""
        params = {"owner": owner_id, "at": at, "id": id_, "n": n}
        return list(self.connection.execute(_BEFORE, params)), list(
            self.connection.execute(_AFTER, params)
        )

    def oldest(self, owner_id: str) -> datetime | None:
        """When the owner's earliest episode occurred (None without episodes)."""
        found: datetime | None = self.connection.execute(_OLDEST, {"owner": owner_id}).scalar()
        return found

    def window(self, owner_id: str, start: datetime, end: datetime, cap: int) -> list[Row[Any]]:
        params = {"owner": owner_id, "start": start, "end": end, "cap": cap}
        return list(self.connection.execute(_WINDOW, params))

    def pointing_back(
        self, owner_id: str, start: datetime, end: datetime, cap: int
    ) -> list[Row[Any]]:
        """Of the owner's earliest `cap` episodes in [start, end), earliest first, those that
        hold a word pointing back in time (vault.domain.episode_query.SAID_PAST_WORDS, any
        case, within a word too: "plastic" holds "last")."""
        params = {"owner": owner_id, "start": start, "end": end, "cap": cap}
        return list(self.connection.execute(_POINTING_BACK, params))

    def activity_sessions(
        self, owner_id: str, cap: int
    ) -> list[tuple[str, datetime, str, dict[str, Any]]]:
        """(activity id, time, text, metadata) of the newest `cap` session episodes recorded
        from activities, oldest first (consolidation reads them together)."""
        rows = self.connection.execute(_ACTIVITY_SESSIONS, {"owner": owner_id, "cap": cap})
        return [
            (ref.removeprefix("activity:"), at, text, json.loads(meta) if meta else {})
            for ref, at, text, meta in reversed(list(rows))
        ]

    def recent(self, owner_id: str, cap: int) -> list[Row[Any]]:
        return list(self.connection.execute(_RECENT, {"owner": owner_id, "cap": cap}))

    def newest(self, owner_id: str, limit: int, offset: int) -> list[Row[Any]]:
        """One page of the owner's episodes, newest first (a walk of its occurred_at index)."""
        params = {"owner": owner_id, "cap": limit, "skip": offset}
        return list(self.connection.execute(_NEWEST, params))

    # -- caps, retention, forget, delete
    def enforce_cap(self, owner_id: str, cap: int, now: datetime) -> int:
        """Archive (`capped`) the owner's episodes beyond the newest `cap`; return how many."""
        ids = list(self.connection.execute(_BEYOND_CAP, {"owner": owner_id, "cap": cap}).scalars())
        return self._archive_and_delete(owner_id, ids, "capped", now)

    def expire_before(self, cutoff: datetime, now: datetime) -> int:
        """Archive (`expired`) every owner's episodes that occurred before `cutoff`: found by
        one scan of every shard, then moved owner by owner."""
        with operation_scope("all"):
            found = self.connection.execute(_EXPIRED, {"cutoff": cutoff}).all()
        by_owner: dict[str, list[int]] = {}
        for owner, episode in found:
            by_owner.setdefault(owner, []).append(int(episode))
        return sum(
            self._archive_and_delete(owner, ids, "expired", now) for owner, ids in by_owner.items()
        )

    def cleanup_archive(self, cutoff: datetime) -> int:
        """Delete archived episodes archived before `cutoff`."""
        statement = delete(episode_archive_table).where(_A.archived_at < cutoff)
        with operation_scope("all"):
            return rowcount(self.connection.execute(statement))

    def _archive_and_delete(self, owner_id: str, ids: list[int], reason: str, now: datetime) -> int:
        for start in range(0, len(ids), 5000):
            chunk = {"owner": owner_id, "ids": ids[start : start + 5000]}
            self.connection.execute(_ARCHIVE, {**chunk, "reason": reason, "now": now})
            self.connection.execute(_DELETE_VECTORS, chunk)
            self.connection.execute(_DELETE_TOPICS, chunk)
            self.connection.execute(_DELETE_IDS, chunk)
        return len(ids)

    def forget_matching(self, owner_id: str, terms: list[str]) -> dict[str, int]:
        """Erase the owner's episodes and archived episodes whose text matches every term.

        Terms follow `vault.domain.text.matches_query` (a term starts a word of the text), the
        rule `forget` applies to facts. The index narrows the episodes first (any word starting
        with the first term, on SQLite), then each text is checked.
        """
        if not terms:
            return {"episodes": 0, "episode_archive": 0}
        doomed = [
            row.id for row in self._texts_with(owner_id, terms) if matches_query(terms, row.text)
        ]
        for start in range(0, len(doomed), 5000):
            chunk = {"owner": owner_id, "ids": doomed[start : start + 5000]}
            self.connection.execute(_DELETE_VECTORS, chunk)
            self.connection.execute(_DELETE_TOPICS, chunk)
            self.connection.execute(_DELETE_IDS, chunk)
        archived = [
            row.id
            for row in self.connection.execute(_ARCHIVE_ROWS, {"owner": owner_id})
            if matches_query(terms, row.text)
        ]
        if archived:
            self.connection.execute(
                delete(episode_archive_table).where(_A.owner_id == owner_id, _A.id.in_(archived))
            )
        return {"episodes": len(doomed), "episode_archive": len(archived)}

    def _texts_with(self, owner_id: str, terms: list[str]) -> list[Row[Any]]:
        if has_fts5(self.connection):
            prefix = fts_phrase(terms[0]) + "*"
            match = f"owner_key:{fts_phrase(owner_key(owner_id))} AND text:{prefix}"
            ids = [
                int(r[0])
                for r in self.connection.execute(
                    text("SELECT rowid FROM episodes_fts WHERE episodes_fts MATCH :m"), {"m": match}
                )
            ]
            return self.rows(owner_id, ids) if ids else []
        statement = select(_E.id, _E.text).where(_E.owner_id == owner_id)
        return list(self.connection.execute(statement))

    def delete_owner(self, owner_id: str) -> dict[str, int]:
        """Erase every episode, vector and archived episode of the owner; counts per table."""
        vectors = rowcount(
            self.connection.execute(
                delete(vectors_table).where(vectors_table.c.owner_id == owner_id)
            )
        )
        self.connection.execute(delete(episode_topics_table).where(_T.athlete_id == owner_id))
        episodes = rowcount(
            self.connection.execute(delete(episodes_table).where(_E.owner_id == owner_id))
        )
        archived = rowcount(
            self.connection.execute(delete(episode_archive_table).where(_A.owner_id == owner_id))
        )
        return {"episodes": episodes, "episode_vectors": vectors, "episode_archive": archived}

    def archived(self, owner_id: str) -> list[Row[Any]]:
        statement = (
            select(episode_archive_table)
            .where(_A.owner_id == owner_id)
            .order_by(_A.archived_at, _A.id)
        )
        return list(self.connection.execute(statement))


_K = knowledge_table.c
_N = knowledge_names_table.c
_KNOWLEDGE_BY_KEY = select(_K.kind, _K.name, _K.id).where(
    _K.kind == bindparam("kind"), _K.name == bindparam("name")
)
_LOOKUP = (
    select(_K.id, _K.kind, _K.name, _K.attributes, _N.name_key)
    .join(knowledge_names_table, _N.knowledge_id == _K.id)
    .where(_N.name_key.in_(bindparam("keys", expanding=True)))
    .order_by(_K.kind, _K.name, _K.id)
)


class KnowledgeRepository:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def upsert(self, items: Sequence[KnowledgeIn], now: datetime) -> tuple[int, int]:
        """Insert new (kind, name) rows, replace the attributes and names of known ones."""
        added = updated = 0
        for item in items:
            attributes = json.dumps(item.attributes, sort_keys=True, ensure_ascii=False)
            found = self.connection.execute(
                _KNOWLEDGE_BY_KEY, {"kind": item.kind, "name": item.name}
            ).first()
            if found is None:
                knowledge_id = int(
                    self.connection.execute(
                        insert(knowledge_table).returning(_K.id),
                        {
                            "kind": item.kind,
                            "name": item.name,
                            "attributes": attributes,
                            "updated_at": now,
                        },
                    ).scalar_one()
                )
                added += 1
            else:
                knowledge_id = int(found.id)
                self.connection.execute(
                    update(knowledge_table)
                    .where(_K.id == knowledge_id)
                    .values(attributes=attributes, updated_at=now)
                )
                self.connection.execute(
                    delete(knowledge_names_table).where(_N.knowledge_id == knowledge_id)
                )
                updated += 1
            self.connection.execute(
                insert(knowledge_names_table),
                [{"name_key": key, "knowledge_id": knowledge_id} for key in item.name_keys()],
            )
        return added, updated

    def lookup(self, keys: Sequence[str]) -> list[Knowledge]:
        """Knowledge rows one of whose names is in `keys` (kind, name order; each once)."""
        if not keys:
            return []
        seen: set[int] = set()
        found: list[Knowledge] = []
        for row in self.connection.execute(_LOOKUP, {"keys": sorted(set(keys))}):
            if row.id in seen:
                continue
            seen.add(row.id)
            found.append(
                Knowledge(
                    id=row.id, kind=row.kind, name=row.name, attributes=json.loads(row.attributes)
                )
            )
        return found

    def count(self) -> int:
        return int(
            self.connection.execute(select(func.count()).select_from(knowledge_table)).scalar_one()
        )


__all__ = ["EpisodeHit", "EpisodeRepository", "KnowledgeRepository", "owner_key"]
