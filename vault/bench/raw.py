"""The baseline: the same work as vault, hand-written on a plain `sqlite3` connection.

Same file layout (a vault-migrated file), same pragmas as vault's engine (WAL,
synchronous=NORMAL, foreign_keys, secure_delete), `BEGIN IMMEDIATE` per write. The merge
implements only what the bench's turns exercise: decay on load, boost by normalized text,
replace by conflict key, insert, floor and the 15-fact cap. No validation, no models.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from vault.bench.workload import Candidate, parse_sqlite_time, sqlite_time
from vault.domain.rules import DEFAULT_DECAY_POLICY, boosted, decay_due, decayed
from vault.domain.text import conflict_key_of, normalize_text
from vault.prompt.tokens import encoder

BUDGET = 174
MAX_FACTS, FLOOR, PROMPT_FLOOR = 15, 0.3, 0.5

# fact row positions
(
    ID,
    TEXT,
    NORM,
    CATEGORY,
    KEY,
    SOURCE,
    CONF,
    BASE,
    OCC,
    LEARNED,
    OBSERVED,
    REINFORCED,
    UPDATED,
    DUE,
) = range(14)

_SELECT_FACTS = (
    "SELECT id, text, normalized_text, category, conflict_key, source, confidence, "
    "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at, "
    "decay_due_at FROM facts WHERE athlete_id = ?"
)
_SELECT_TAGS = "SELECT t.fact_id, t.tag FROM fact_tags AS t WHERE t.athlete_id = ?"
_UPSERT_ATHLETE = (
    "INSERT INTO athletes (id, created_at, updated_at) VALUES (?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at"
)
_UPDATE_FACT = (
    "UPDATE facts SET confidence = ?, base_confidence = ?, occurrences = ?, observed_at = ?, "
    "last_reinforced_at = ?, updated_at = ?, decay_due_at = ? WHERE id = ?"
)
_INSERT_FACT = (
    "INSERT INTO facts (athlete_id, text, normalized_text, category, conflict_key, source, "
    "confidence, base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, "
    "updated_at, decay_due_at, inline_text, inline_tokens, inline_tokens_last) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_ARCHIVE = (
    "INSERT INTO archive (athlete_id, kind, original_id, original_text, category, conflict_key, "
    "source, confidence, occurrences, learned_at, superseded_by, reason, archived_at) "
    "VALUES (?, 'fact', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_EVIDENCE = (
    "INSERT INTO fact_evidence (fact_id, athlete_id, source, observed_at, recorded_at) "
    "VALUES (?, ?, 'manual', ?, ?)"
)


def connect(path: str) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in (
        "busy_timeout=5000",
        "foreign_keys=ON",
        "journal_mode=WAL",
        "synchronous=NORMAL",
        "secure_delete=ON",
    ):
        connection.execute(f"PRAGMA {pragma}")
    return connection


def merge(
    db: sqlite3.Connection, athlete: str, candidates: Sequence[Candidate], now: datetime
) -> None:
    """One merge turn in one transaction: load, decide in plain Python, write."""
    now_s = sqlite_time(now)
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute(_UPSERT_ATHLETE, (athlete, now_s, now_s))
        facts = [list(row) for row in db.execute(_SELECT_FACTS, (athlete,))]
        tags: dict[int, set[str]] = {}  # loaded like vault does; the bench's candidates have none
        for fact_id, tag in db.execute(_SELECT_TAGS, (athlete,)):
            tags.setdefault(fact_id, set()).add(tag)
        changed: dict[int, list[Any]] = {}
        archived: list[tuple[list[Any], str, list[Any] | None]] = []
        for fact in facts:  # decay as of now: the facts due a step (vault's rule)
            if fact[DUE] <= now_s:
                factor = DEFAULT_DECAY_POLICY.factor(fact[CATEGORY])
                value = decayed(fact[BASE], parse_sqlite_time(fact[REINFORCED]), now, factor)
                if value != fact[CONF]:
                    fact[CONF] = value
                    fact[DUE] = sqlite_time(decay_due(parse_sqlite_time(fact[REINFORCED]), now))
                    changed[fact[ID]] = fact
        by_text = {f[NORM]: f for f in facts}
        by_key = {f[KEY]: f for f in facts if f[KEY]}
        for candidate in candidates:
            normalized = normalize_text(candidate.text)
            same = by_text.get(normalized)
            if same is not None:
                same[OCC] += 1
                day = now_s[:10]  # belief needs another day: a same-day repeat lifts nothing
                passing = same[CONF] < PROMPT_FLOOR
                if not (passing and same[LEARNED][:10] == same[OBSERVED][:10] == day):
                    same[CONF] = boosted(same[CONF], same[OCC])
                if passing:  # a passing fact is at least a reading believed on its own
                    same[CONF] = max(same[CONF], candidate.confidence)
                same[BASE] = same[CONF]
                same[REINFORCED] = max(same[REINFORCED], now_s)
                same[DUE] = sqlite_time(decay_due(parse_sqlite_time(same[REINFORCED]), now))
                same[OBSERVED] = max(same[OBSERVED], now_s)
                same[UPDATED] = now_s
                if same[ID] is not None:
                    changed[same[ID]] = same
                continue
            key = conflict_key_of(candidate.text)
            new = [
                None,
                candidate.text,
                normalized,
                candidate.category.value,
                key,
                "manual",
                candidate.confidence,
                candidate.confidence,
                1,
                now_s,
                now_s,
                now_s,
                now_s,
                sqlite_time(decay_due(now, now)),
            ]
            old = by_key.get(key) if key else None
            if old is not None:
                archived.append((old, "superseded", new))
                facts.remove(old)
                del by_text[old[NORM]]
            facts.append(new)
            by_text[normalized] = new
            if key:
                by_key[key] = new
        for fact in [f for f in facts if f[CONF] < FLOOR]:
            archived.append((fact, "decayed", None))
            facts.remove(fact)
        if len(facts) > MAX_FACTS:  # keep highest confidence, then newest reinforcement, oldest id
            ordered = sorted(facts, key=lambda f: f[ID] if f[ID] is not None else 1 << 62)
            ordered.sort(key=lambda f: (f[CONF], f[REINFORCED]), reverse=True)
            for fact in ordered[MAX_FACTS:]:
                archived.append((fact, "capped", None))
                facts.remove(fact)
        _write(db, athlete, facts, changed, archived, now_s)
        # what each kept fact rests on (revision 0009): a row per candidate, as vault writes
        kept = {f[NORM]: f[ID] for f in facts}
        db.executemany(
            _INSERT_EVIDENCE,
            [
                (kept[n], athlete, now_s, now_s)
                for n in map(normalize_text, (c.text for c in candidates))
                if n in kept
            ],
        )
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _write(
    db: sqlite3.Connection,
    athlete: str,
    facts: list[list[Any]],
    changed: dict[int, list[Any]],
    archived: list[tuple[list[Any], str, list[Any] | None]],
    now_s: str,
) -> None:
    gone = [f[ID] for f, _, _ in archived if f[ID] is not None]
    if gone:
        db.execute(f"DELETE FROM facts WHERE id IN ({', '.join('?' * len(gone))})", gone)
    updates = [f for i, f in changed.items() if i not in gone]
    db.executemany(
        _UPDATE_FACT,
        [
            (f[CONF], f[BASE], f[OCC], f[OBSERVED], f[REINFORCED], f[UPDATED], f[DUE], f[ID])
            for f in updates
        ],
    )
    for fact in facts:
        if fact[ID] is None:
            cursor = db.execute(_INSERT_FACT, (athlete, *fact[TEXT:], *inline_pieces(fact[TEXT])))
            fact[ID] = cursor.lastrowid
    db.executemany(
        _INSERT_ARCHIVE,
        [
            (
                athlete,
                f[ID],
                f[TEXT],
                f[CATEGORY],
                f[KEY],
                f[SOURCE],
                f[CONF],
                f[OCC],
                f[LEARNED],
                by[ID] if by is not None else None,
                reason,
                now_s,
            )
            for f, reason, by in archived
        ],
    )


_ORDER = "ORDER BY confidence DESC, last_reinforced_at DESC, id"
_BLOCK_QUERIES = (
    (
        "- Facts: ",
        "SELECT text FROM facts WHERE athlete_id = ? AND learned_at <= ? AND confidence >= 0.5 "
        f"{_ORDER} LIMIT 15",
    ),
    ("- Patterns: ", f"SELECT text FROM patterns WHERE athlete_id = ? {_ORDER} LIMIT 5"),
    ("- Notes: ", f"SELECT text FROM notes WHERE athlete_id = ? {_ORDER} LIMIT 5"),
)


def memory_block(db: sqlite3.Connection, athlete: str, now: datetime) -> tuple[str, int]:
    """The engine guide's MEMORY block as of `now` (no fact first observed after it) and its token
    count; drops facts, then notes, then patterns."""
    encode = encoder().encode_ordinary
    as_of = sqlite_time(now)
    db.execute("BEGIN")
    try:
        sections = [
            [
                text.replace("|", "/")
                for (text,) in db.execute(sql, (athlete, as_of)[: sql.count("?")])
            ]
            for _, sql in _BLOCK_QUERIES
        ]
    finally:
        db.execute("COMMIT")
    while True:
        lines = [
            f"{label}{' | '.join(items)}\n"
            for (label, _), items in zip(_BLOCK_QUERIES, sections)
            if items
        ]
        block = "MEMORY:\n" + "".join(lines) if lines else ""
        tokens = len(encode(block)) if block else 0
        if tokens <= BUDGET:
            return block, tokens
        for index in (0, 2, 1):  # facts, notes, patterns: the lowest priority goes first
            if sections[index]:
                sections[index].pop()
                break


def inline_pieces(text: str) -> tuple[str | None, int, int]:
    """The same work as vault's write of a new item (revision 0016): its inline text and the
    tokens of " text" and " text\\n", which the engine's `athlete_memory` view sums. The bench's
    texts need only the bar made "/" of vault's `inline` (no line breaks or doubled spaces)."""
    encode = encoder().encode_ordinary
    shown = text.replace("|", "/")
    return (None if shown == text else shown, len(encode(f" {shown}")), len(encode(f" {shown}\n")))


_DECAYED = (
    "round(base_confidence * pow(0.95, "
    "CAST((julianday(:now) - julianday(last_reinforced_at)) / 7 AS INTEGER)), 6)"
)


def decay(db: sqlite3.Connection, now: datetime) -> int:
    """Set-wise decay of every athlete: one UPDATE, then archive and delete what fell below 0.3."""
    params = {"now": sqlite_time(now), "cutoff": sqlite_time(now - timedelta(days=7))}
    db.execute("BEGIN IMMEDIATE")
    try:
        lowered = db.execute(
            f"UPDATE facts SET confidence = {_DECAYED} "
            f"WHERE last_reinforced_at <= :cutoff AND confidence <> {_DECAYED}",
            params,
        ).rowcount
        db.execute(
            "INSERT INTO archive (athlete_id, kind, original_id, original_text, category, "
            "conflict_key, source, confidence, occurrences, learned_at, superseded_by, reason, "
            "archived_at) SELECT athlete_id, 'fact', id, text, category, conflict_key, source, "
            "confidence, occurrences, learned_at, NULL, 'decayed', :now FROM facts "
            "WHERE confidence < 0.3",
            params,
        )
        db.execute("DELETE FROM facts WHERE confidence < 0.3")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return lowered
