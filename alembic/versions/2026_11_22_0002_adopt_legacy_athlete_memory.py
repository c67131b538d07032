"""Adopt seed 000's legacy `athlete_memory` table (one JSON document per athlete).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22

Purpose: a device's vault.db written by the mobile engine holds `athlete_memory(athlete_id TEXT
PRIMARY KEY, memory_json TEXT NOT NULL, updated_at TIMESTAMP)` beside the engine's own tables.
This revision moves every athlete's key facts, patterns and coaching notes into the normalized
tables, in the same transaction as the rest of the upgrade (env.py), then renames the table to
`legacy_athlete_memory` (nothing reads a stale copy; a downgrade restores it) and records each
row's outcome in `legacy_adoption`. A file without the table: nothing happens.

Frozen: this file imports only the standard library, SQLAlchemy and Alembic, never `vault`. The
parsing, the duplicate/conflict/floor/cap resolution and the derivation of category, conflict
key and entity tags from the text are copies of vault.domain.legacy / adoption / text / models
as they were when 0002 shipped, so replaying 0002 gives the same rows whatever today's code
does. Rows are written through this revision's own table definitions (the schema as of 0001),
times as 0001 stored them: naive UTC text `YYYY-MM-DD HH:MM:SS.ffffff` on SQLite, timestamptz on
PostgreSQL (a later revision may convert them). tests/migrations/test_frozen_revisions.py keeps
`vault` imports out of every revision.

A row that cannot be parsed stops the upgrade (LegacyAdoptionError naming the athlete, which
env.py re-raises as vault.domain.errors.LegacyImportError; the transaction rolls back, the file
is unchanged) unless bad rows are skipped explicitly:
`alembic -x skip_bad_legacy_rows=true upgrade head`, or the Alembic config attribute
`skip_bad_legacy_rows` (what `vault upgrade --skip-bad-legacy-rows` sets). Each skipped row is
appended to `config.attributes["legacy_skipped"]` (an object with `athlete_id`, `reason` and a
one-line str(); logged as a warning by logger `vault.domain.legacy` unless the caller put a list
there to print them itself), and kept in `legacy_adoption` with its reason; its JSON stays in
`legacy_athlete_memory`.

Offline (`alembic upgrade head --sql`): adoption needs the rows, which a SQL script cannot read.
The script holds a comment saying so and a guard (CREATE then DROP a table named
`athlete_memory`) that stops it on a database holding the legacy table; elsewhere 0002 changes
nothing, exactly as online.

Downgrade caveats: deletes every vault row of the athletes this revision adopted (whatever was
learned about them since is lost; export first), drops `legacy_adoption` and renames the legacy
table back. Athletes the vault did not adopt are kept. Upgrading again re-adopts the same rows
(the row ids may differ; the content does not).
"""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any, NamedTuple

import sqlalchemy as sa

from alembic import context, op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("vault.domain.legacy")  # the name the skipped-row warnings always had

LEGACY_TABLE = "athlete_memory"
RENAMED_TABLE = "legacy_athlete_memory"
ADOPTION_TABLE = "legacy_adoption"
EXTRACTOR = "legacy:athlete_memory"
_VAULT_TABLES = ("fact_tags", "facts", "patterns", "notes", "archive", "forget_log", "athletes")

# ---- the numbers and words of the vault as of 0002 ----------------------------------------------

PATTERN_SOURCE = "behavior"  # what adopted patterns get: the legacy store kept only their text
NOTE_SOURCE = "conversation"
LIST_CONFIDENCE = 0.7
FLOOR = 0.3  # below this a fact is archived as `decayed`
CAPS = {"fact": 15, "pattern": 5, "note": 5}
ATHLETE_ID_MAX = 128
FACT_TEXT_MAX = 200
ITEM_TEXT_MAX = 300
SOURCES = (
    "conversation", "user_message", "activity_note", "behavior", "pattern_analysis",
    "profile_change", "manual",
)  # fmt: skip


class LegacyAdoptionError(Exception):
    """The legacy table cannot be adopted; env.py re-raises it as vault's LegacyImportError."""

    vault_error = "LegacyImportError"  # what env.py maps it to (a revision cannot import vault)


# ---- the tables as revision 0001 created them -----------------------------------------------------


def _table(name: str, columns: str) -> sa.TableClause:
    # untyped columns: every value below is already in the form the database stores
    return sa.table(name, *(sa.column(c) for c in columns.split()))


_athletes = _table("athletes", "id created_at updated_at")
_facts = _table(
    "facts",
    "id athlete_id text normalized_text category conflict_key source source_ref extractor "
    "confidence base_confidence occurrences learned_at observed_at last_reinforced_at updated_at",
)
_tags = _table("fact_tags", "fact_id tag")
_ITEM_COLUMNS = (
    "athlete_id text normalized_text source source_ref extractor confidence occurrences "
    "learned_at last_reinforced_at updated_at"
)
_items = {"pattern": _table("patterns", _ITEM_COLUMNS), "note": _table("notes", _ITEM_COLUMNS)}
_archive = _table(
    "archive",
    "athlete_id kind original_id original_text category conflict_key source confidence "
    "occurrences learned_at superseded_by reason archived_at",
)


# ---- upgrade / downgrade ----------------------------------------------------------------------------


def upgrade() -> None:
    if context.is_offline_mode():
        _offline_guard(
            LEGACY_TABLE,
            "Revision 0002 adopts seed 000's legacy athlete_memory table into the vault tables.",
            "Adopting reads the table's rows, which an offline SQL script cannot do: on a database",
            "that holds athlete_memory run `alembic upgrade head` (or `vault upgrade`) against it.",
            "The next two statements stop this script there; elsewhere 0002 changes nothing.",
        )
        return
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if LEGACY_TABLE not in tables:
        return
    for clash in (RENAMED_TABLE, ADOPTION_TABLE):
        if clash in tables:
            raise LegacyAdoptionError(
                f"cannot adopt {LEGACY_TABLE}: a table named {clash} already exists in this file"
            )
    columns = {c["name"] for c in sa.inspect(bind).get_columns(LEGACY_TABLE)}
    if not {"athlete_id", "memory_json"} <= columns:
        raise LegacyAdoptionError(
            f"cannot adopt {LEGACY_TABLE}: expected columns athlete_id and memory_json, "
            f"found {', '.join(sorted(columns))}"
        )
    updated = "updated_at" if "updated_at" in columns else "NULL"
    rows = bind.execute(
        sa.text(
            f"SELECT athlete_id, memory_json, {updated} FROM {LEGACY_TABLE} ORDER BY athlete_id"
        )
    ).all()
    plans, problems = _plan_rows(bind, rows)
    if problems and not _skip_bad_rows():
        shown = "; ".join(str(p) for p in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise LegacyAdoptionError(
            f"cannot adopt the legacy {LEGACY_TABLE} table: {shown}{more}. Nothing was changed; "
            "fix or delete the row, or skip bad rows with `vault upgrade --skip-bad-legacy-rows` "
            "(alembic -x skip_bad_legacy_rows=true upgrade head)"
        )
    at = _sqlite_time if bind.dialect.name == "sqlite" else _aware_time
    outcomes = [_outcome(p.athlete_id, "adopted", _write(bind, p, at)) for p in plans]
    outcomes += [_outcome(p.athlete_id, "skipped", reason=p.reason) for p in problems]
    _record(outcomes)
    op.rename_table(LEGACY_TABLE, RENAMED_TABLE)
    _report(plans, problems)


def downgrade() -> None:
    if context.is_offline_mode():
        _offline_guard(
            RENAMED_TABLE,
            "Downgrading revision 0002 removes the athletes it adopted from legacy_athlete_memory;",
            "that reads the tables' rows, which an offline SQL script cannot do: on a database",
            "that holds legacy_athlete_memory run `alembic downgrade` against it.",
            "The next two statements stop this script there; elsewhere 0002 changes nothing.",
        )
        return
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if RENAMED_TABLE not in tables:
        return
    if LEGACY_TABLE in tables:
        raise LegacyAdoptionError(
            f"cannot restore {LEGACY_TABLE}: a newer table of that name exists; rename it first"
        )
    if ADOPTION_TABLE in tables:
        still_there = set()
        for (raw,) in bind.execute(sa.text(f"SELECT athlete_id FROM {RENAMED_TABLE}")):
            try:
                still_there.add(athlete_of(raw))
            except LegacyRowError:
                continue
        adopted = bind.execute(
            sa.text(f"SELECT athlete_id FROM {ADOPTION_TABLE} WHERE status = 'adopted'")
        ).scalars()
        # an athlete whose legacy row was purged since keeps its vault rows (nothing to restore)
        for athlete in [a for a in adopted if a in still_there]:
            _erase(bind, athlete)
        op.drop_table(ADOPTION_TABLE)
    op.rename_table(RENAMED_TABLE, LEGACY_TABLE)


def _offline_guard(table: str, *comment: str) -> None:
    """Explain in the script why nothing happens, and fail it where something should have."""
    lines = "".join(f"-- {line}\n" for line in comment)
    op.execute(f"{lines}CREATE TABLE {table} (offline_guard INTEGER)")
    op.execute(f"DROP TABLE {table}")


def _skip_bad_rows() -> bool:
    given = context.config.attributes.get("skip_bad_legacy_rows")
    if given is None:
        given = context.get_x_argument(as_dictionary=True).get("skip_bad_legacy_rows", "false")
    if isinstance(given, bool):
        return given
    word = str(given).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off", ""):
        return False
    raise LegacyAdoptionError(f"skip_bad_legacy_rows must be true or false, got {given!r}")


def _plan_rows(
    bind: sa.Connection, rows: Sequence[Any]
) -> tuple[list[LegacyPlan], list[LegacyProblem]]:
    existing = set(bind.execute(sa.text("SELECT id FROM athletes")).scalars())
    fallback = datetime.now(timezone.utc)  # only for a row that holds no time at all
    plans: list[LegacyPlan] = []
    problems: list[LegacyProblem] = []
    seen: set[str] = set()
    for athlete_raw, memory_json, updated_at in rows:
        try:
            plan = plan_row(athlete_raw, memory_json, updated_at, fallback)
        except LegacyRowError as error:
            problems.append(LegacyProblem(error.athlete, error.reason))
            continue
        if plan.athlete_id in existing:
            # merging two histories is a merge, not an adoption: the row waits in the renamed table
            reason = "the athlete already has memory in the vault"
            problems.append(LegacyProblem(plan.athlete_id, reason))
        elif plan.athlete_id in seen:
            problems.append(LegacyProblem(plan.athlete_id, "another row has the same athlete id"))
        else:
            seen.add(plan.athlete_id)
            plans.append(plan)
    return plans, problems


# ---- writing -----------------------------------------------------------------------------------------

Stored = Callable[[datetime], object]


def _sqlite_time(value: datetime) -> str:
    """Aware UTC as 0001's SQLite columns hold it: naive UTC text with six fraction digits."""
    v = value.astimezone(timezone.utc)
    return (
        f"{v.year:04d}-{v.month:02d}-{v.day:02d} "
        f"{v.hour:02d}:{v.minute:02d}:{v.second:02d}.{v.microsecond:06d}"
    )


def _aware_time(value: datetime) -> datetime:
    """PostgreSQL's timestamptz takes the aware value as it is."""
    return value


def _write(bind: sa.Connection, plan: LegacyPlan, at: Stored) -> Resolution:
    athlete, moment, res = plan.athlete_id, plan.updated_at, plan.resolution
    bind.execute(
        _athletes.insert().values(id=athlete, created_at=at(plan.created_at), updated_at=at(moment))
    )
    fact_ids = []
    for fact in res.facts:
        row = {
            "athlete_id": athlete, "text": fact.text, "normalized_text": fact.normalized_text,
            "category": fact.category, "conflict_key": fact.conflict_key,
            "source": fact.source, "source_ref": None, "extractor": EXTRACTOR,
            "confidence": fact.confidence, "base_confidence": fact.confidence,
            "occurrences": fact.occurrences, "learned_at": at(fact.learned_at),
            "observed_at": at(fact.observed_at), "last_reinforced_at": at(moment),
            "updated_at": at(moment),
        }  # fmt: skip
        fact_id = bind.execute(_facts.insert().returning(_facts.c.id).values(row)).scalar_one()
        fact_ids.append(fact_id)
        if fact.tags:
            tags = [{"fact_id": fact_id, "tag": t} for t in sorted(fact.tags)]
            bind.execute(_tags.insert(), tags)
    for kind, items in (("pattern", res.patterns), ("note", res.notes)):
        source = PATTERN_SOURCE if kind == "pattern" else NOTE_SOURCE
        for item in items:
            bind.execute(_items[kind].insert().values(
                athlete_id=athlete, text=item.text, normalized_text=item.normalized_text,
                source=source, source_ref=None, extractor=EXTRACTOR, confidence=LIST_CONFIDENCE,
                occurrences=item.occurrences, learned_at=at(moment),
                last_reinforced_at=at(moment), updated_at=at(moment),
            ))  # fmt: skip
    if res.archived:
        archived = [_archived(athlete, d, fact_ids, moment, at) for d in res.archived]
        bind.execute(_archive.insert(), archived)
    return res


def _archived(
    athlete: str, dropped: Dropped, fact_ids: list[int], moment: datetime, at: Stored
) -> dict[str, Any]:
    item = dropped.item
    row: dict[str, Any] = {
        "athlete_id": athlete,
        "original_id": None,  # never active in the vault
        "original_text": item.text,
        "occurrences": item.occurrences,
        "superseded_by": None if dropped.superseded_by is None else fact_ids[dropped.superseded_by],
        "reason": dropped.reason,
        "archived_at": at(dropped.archived_at or moment),
    }
    if isinstance(item, ProtoFact):
        return row | {
            "kind": "fact",
            "category": item.category,
            "conflict_key": item.conflict_key,
            "source": item.source,
            "confidence": item.confidence,
            "learned_at": at(item.learned_at),
        }
    return row | {
        "kind": item.kind,
        "category": None,
        "conflict_key": None,
        "source": PATTERN_SOURCE if item.kind == "pattern" else NOTE_SOURCE,
        "confidence": LIST_CONFIDENCE,
        "learned_at": at(moment),
    }


def _outcome(
    athlete: str | None, status: str, res: Resolution | None = None, reason: str | None = None
) -> dict[str, Any]:
    """A `legacy_adoption` row: what happened to one legacy row, with counts."""
    lists: tuple[Sequence[object], ...] = ((), (), (), ())
    if res is not None:
        lists = (res.facts, res.patterns, res.notes, res.archived)
    counts = [len(items) for items in lists]
    return {"athlete_id": athlete, "status": status, "reason": reason,
            **dict(zip(("facts", "patterns", "notes", "archived"), counts))}  # fmt: skip


def _record(outcomes: list[dict[str, Any]]) -> None:
    table = op.create_table(
        ADOPTION_TABLE,
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("athlete_id", sa.String(128), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("facts", sa.Integer(), nullable=False),
        sa.Column("patterns", sa.Integer(), nullable=False),
        sa.Column("notes", sa.Integer(), nullable=False),
        sa.Column("archived", sa.Integer(), nullable=False),
        sa.CheckConstraint("status IN ('adopted', 'skipped')", name="status"),
    )
    if outcomes:
        op.bulk_insert(table, outcomes)


def _report(plans: list[LegacyPlan], problems: list[LegacyProblem]) -> None:
    """Hand the outcome to the caller through the Alembic config; log skips nobody collects.

    A caller that wants the skipped rows (vault.storage.migrations.upgrade) puts a list under
    `legacy_skipped` before upgrading and prints them itself; otherwise (the alembic command
    line) each skipped row is logged as a warning.
    """
    attributes = context.config.attributes
    if not isinstance(attributes.get("legacy_skipped"), list):
        for problem in problems:
            log.warning("skipped legacy %s row: %s", LEGACY_TABLE, problem)
    attributes.setdefault("legacy_skipped", []).extend(problems)
    attributes.setdefault("legacy_adopted", []).extend(p.athlete_id for p in plans)


def _erase(bind: sa.Connection, athlete: str) -> None:
    """Delete one athlete from every vault table (foreign keys are off while migrating)."""
    params = {"athlete": athlete}
    bind.execute(
        sa.text(
            "DELETE FROM fact_tags "
            "WHERE fact_id IN (SELECT id FROM facts WHERE athlete_id = :athlete)"
        ),
        params,
    )
    for name in _VAULT_TABLES[1:-1]:
        bind.execute(sa.text(f"DELETE FROM {name} WHERE athlete_id = :athlete"), params)
    bind.execute(sa.text("DELETE FROM athletes WHERE id = :athlete"), params)


# ---- parsing one legacy row (frozen copy of vault.domain.legacy) ---------------------------------
#
# The mobile engine stored one JSON document per athlete, written by Rust's serde:
#
#     {"key_facts": [{"fact": "...", "source": "conversation", "confidence": 0.8,
#                     "learned_at": "2026-02-16T08:00:00.123456789Z"}],
#      "patterns": ["..."], "coaching_notes": ["..."], "updated_at": "2026-02-16T08:00:00Z"}
#
# Times are chrono's RFC 3339 (`Z`, 0-9 fraction digits; nanoseconds are truncated to
# microseconds). `updated_at` may be null or absent, and so may `patterns` / `coaching_notes` /
# `key_facts` (taken as empty). Unknown keys are ignored (the legacy table is kept, renamed).
# Anything else that does not fit raises LegacyRowError naming the athlete.


class LegacyRowError(ValueError):
    """One legacy row cannot be adopted."""

    def __init__(self, athlete: str | None, reason: str) -> None:
        super().__init__(f"{_name(athlete)}: {reason}")
        self.athlete = athlete
        self.reason = reason


class LegacyProblem(NamedTuple):
    """A row that was not adopted, and why (what `--skip-bad-legacy-rows` reports)."""

    athlete_id: str | None
    reason: str

    def __str__(self) -> str:
        return f"{_name(self.athlete_id)}: {self.reason}"


def _name(athlete: str | None) -> str:
    return "athlete NULL" if athlete is None else f"athlete {athlete!r}"


class LegacyPlan(NamedTuple):
    """One athlete's adoption: the rows to write and the times to write them with."""

    athlete_id: str
    created_at: datetime
    updated_at: datetime
    resolution: Resolution


def athlete_of(raw: object) -> str:
    """The legacy primary key as a vault athlete id (SQLite lets TEXT keys hold NULL or numbers)."""
    if raw is None:
        raise LegacyRowError(None, "the athlete_id is NULL")
    if isinstance(raw, int) and not isinstance(raw, bool):
        raw = str(raw)
    if not isinstance(raw, str):
        raise LegacyRowError(None, f"the athlete_id is a {type(raw).__name__}, not text")
    cleaned = raw.strip()
    if not cleaned:
        raise LegacyRowError(raw, "athlete id must not be empty")
    if len(cleaned) > ATHLETE_ID_MAX:
        raise LegacyRowError(raw, f"athlete id is longer than {ATHLETE_ID_MAX} characters")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in cleaned):
        raise LegacyRowError(raw, "athlete id must not contain control characters")
    return cleaned


def plan_row(
    athlete_raw: object, memory_json: object, column_updated_at: object, fallback: datetime
) -> LegacyPlan:
    """Parse and plan one row; `fallback` is the time used only when the row holds no time at all."""
    athlete = athlete_of(athlete_raw)
    try:
        return _plan(athlete, memory_json, column_updated_at, fallback)
    except (ValueError, TypeError) as error:
        raise LegacyRowError(athlete, str(error)) from None


def _plan(athlete: str, memory_json: object, column_time: object, fallback: datetime) -> LegacyPlan:
    document = _document(memory_json)
    facts = [_fact(i, raw) for i, raw in enumerate(_list_of(document, "key_facts"))]
    patterns = [
        _item(i, raw, "patterns", "pattern") for i, raw in enumerate(_list_of(document, "patterns"))
    ]
    notes = [
        _item(i, raw, "coaching_notes", "note")
        for i, raw in enumerate(_list_of(document, "coaching_notes"))
    ]
    updated = document.get("updated_at")
    if updated is not None:
        moment = _time(updated, "updated_at")
    elif column_time is not None:
        moment = _column_time(column_time)
    elif facts:
        moment = max(f.observed_at for f in facts)
    else:
        moment = fallback
    times = [moment, *(f.learned_at for f in facts)]
    return LegacyPlan(
        athlete_id=athlete,
        created_at=min(times),
        updated_at=max([moment, *(f.observed_at for f in facts)]),
        resolution=resolve(facts, patterns, notes),
    )


def _document(memory_json: object) -> dict[str, Any]:
    if isinstance(memory_json, bytes):
        try:
            memory_json = memory_json.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("memory_json is not UTF-8 text") from None
    if not isinstance(memory_json, str):
        raise ValueError(f"memory_json is a {type(memory_json).__name__}, not JSON text")
    try:
        document = json.loads(memory_json, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"memory_json is not valid JSON ({error.msg} at character {error.pos})"
        ) from None
    if not isinstance(document, dict):
        raise ValueError(f"memory_json must be a JSON object, got {type(document).__name__}")
    return document


def _no_constant(name: str) -> Any:
    raise ValueError(f"memory_json holds {name}, which is not a JSON number")


def _list_of(document: dict[str, Any], key: str) -> list[Any]:
    value = document.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list, got {type(value).__name__}")
    return value


def _fact(position: int, raw: Any) -> ProtoFact:
    where = f"key_facts[{position}]"
    if not isinstance(raw, dict):
        raise ValueError(f"{where} must be an object with fact, source, confidence, learned_at")
    missing = [k for k in ("fact", "source", "confidence", "learned_at") if k not in raw]
    if missing:
        raise ValueError(f"{where} has no {', '.join(missing)}")
    confidence = raw["confidence"]
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise ValueError(f"{where}.confidence must be a number, got {confidence!r}")
    if not math.isfinite(confidence) or not 0.0 <= confidence <= 1.0:
        raise ValueError(f"{where}.confidence must be a number from 0 to 1, got {confidence}")
    learned = _time(raw["learned_at"], f"{where}.learned_at")
    # the checks 0002 shipped with (pydantic's FactIn then): every failing field, in field order
    errors = []
    text, text_error = _memory_text(raw["fact"], FACT_TEXT_MAX)
    if text_error is not None:
        errors.append(f"text: {text_error}")
    source = raw["source"]
    if not (isinstance(source, str) and source in SOURCES):
        errors.append(f"source: {_SOURCE_ERROR}")
    if errors:
        raise ValueError(f"{where}: {'; '.join(errors)}")
    category = category_of(text)
    return ProtoFact(
        position=position,
        label=where,
        text=text,
        normalized_text=normalize_text(text),
        category=category,
        conflict_key=conflict_key_of(text),
        tags=entity_tags(text, category),
        source=source,
        confidence=float(confidence),
        occurrences=1,
        learned_at=learned,
        observed_at=learned,
    )


def _item(position: int, raw: Any, key: str, kind: str) -> ProtoItem:
    where = f"{key}[{position}]"
    if not isinstance(raw, str):
        raise ValueError(f"{where} must be a string, got {type(raw).__name__}")
    text, error = _memory_text(raw, ITEM_TEXT_MAX)  # patterns and notes share the same text rules
    if error is not None:
        raise ValueError(f"{where}: text: {error}")
    return ProtoItem(position, where, kind, text, normalize_text(text))


_SOURCE_ERROR = (
    "Input should be " + ", ".join(f"'{s}'" for s in SOURCES[:-1]) + (f" or '{SOURCES[-1]}'")
)


def _memory_text(value: object, limit: int) -> tuple[str, str | None]:
    """The cleaned text, or the reason it is refused (the wording 0002 shipped with)."""
    if not isinstance(value, str):
        return "", "Input should be a valid string"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "", "Input should be a valid string, unable to parse raw data as a unicode string"
    cleaned = clean_text(value.strip())
    if not cleaned:
        return "", "text must not be empty"
    if len(cleaned) > limit:
        return "", f"text is {len(cleaned)} characters; the limit is {limit}"
    if not normalize_text(cleaned):
        return "", "text must contain at least one letter or digit"
    return cleaned, None


def _time(raw: Any, where: str) -> datetime:
    if not isinstance(raw, str):
        raise ValueError(f"{where} must be an RFC 3339 time string, got {raw!r}")
    return parse_iso_time(raw, where)


def _column_time(raw: object) -> datetime:
    """The row's `updated_at` column: SQLite's CURRENT_TIMESTAMP text (UTC), or Unix seconds."""
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return datetime.fromtimestamp(raw, timezone.utc)
    if isinstance(raw, str):
        text = raw.strip()
        try:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise ValueError(f"the updated_at column is not a time: {raw!r}") from None
        # CURRENT_TIMESTAMP is UTC without an offset
        return (
            parsed.replace(tzinfo=timezone.utc)
            if parsed.tzinfo is None
            else parsed.astimezone(timezone.utc)
        )
    raise ValueError(f"the updated_at column is not a time: {raw!r}")


def require_aware(value: datetime, name: str = "time") -> datetime:
    """Return `value` converted to UTC; reject naive datetimes with a clear message."""
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise ValueError(
            f"{name} must be timezone-aware (e.g. 2026-03-01T08:00:00+00:00 or ...Z), "
            f"got {value.isoformat()}"
        )
    return value.astimezone(timezone.utc)


def parse_iso_time(text: str, name: str = "time") -> datetime:
    """Parse an ISO-8601 / RFC 3339 time with an offset (`Z` allowed) into aware UTC.

    Digits past microseconds (chrono writes up to nanoseconds) are truncated.
    """
    raw = text.strip()
    if raw.endswith(("Z", "z")):
        raw = raw[:-1] + "+00:00"
    raw = _truncate_fraction(raw)
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        raise ValueError(f"{name} is not an ISO-8601 time: {text!r}") from None
    return require_aware(parsed, name)


def _truncate_fraction(raw: str) -> str:
    """Cut a fractional second to at most 6 digits (Python's resolution)."""
    dot = raw.find(".", raw.find("T") if "T" in raw else raw.find(" "))
    if dot < 0:
        return raw
    end = dot + 1
    while end < len(raw) and raw[end].isdigit():
        end += 1
    digits = raw[dot + 1 : end]
    if len(digits) <= 6:
        return raw
    return raw[: dot + 1] + digits[:6] + raw[end:]


# ---- text rules (frozen copy of vault.domain.text) --------------------------------------------

_SPACE = re.compile(r"[\s\x00-\x1f\x7f]+")
_NOT_WORD = re.compile(r"[^\w\s]")

# seed 002 §4.2 entity lists
BODY_PARTS = (
    "knee", "ankle", "calf", "shin", "hip", "hamstring", "quad", "achilles", "foot",
    "heel", "back", "shoulder", "it band", "plantar", "glute",
)  # fmt: skip
TIME_PREFERENCES = (
    "morning", "evening", "afternoon", "lunch", "early", "late", "before work", "after work",
)  # fmt: skip
INTENSITY_TOPICS = (
    "easy", "hard", "tempo", "intervals", "long run", "recovery", "speed work", "hill repeats",
)  # fmt: skip
CONTEXT_TOPICS = (
    "job", "work", "travel", "family", "kids", "commute", "gym", "climbing", "cycling",
)  # fmt: skip

# seed 000's conflict keys, as canonical labels, and the category each one implies
CONFLICT_CATEGORIES: dict[str, str] = {
    "primary sport": "sport",
    "goal": "goal",
    "typical duration": "duration",
    "time preference": "time_preference",
    "level": "level",
}

_LABELLED = re.compile(r"^([a-z][a-z0-9]*(?: [a-z0-9]+){0,2})\s*:\s*\S")
_TIME_PREFERENCE = re.compile(
    r"^prefers (?:early morning|morning|midday|lunchtime|lunch|afternoon|evening|night"
    r"|before work|after work|weekend|weekday) (?:sessions|runs|rides|swims|workouts|training)$"
)
_INJURY_WORDS = re.compile(
    r"\b(pain|painful|sore|soreness|injur\w*|issue|issues|problem|hurts?|strain\w*|tendinitis"
    r"|tendonitis|fracture|splints|sprain\w*|tight|niggle|bad|dodgy|weak|stiff)\b"
)


def clean_text(text: str) -> str:
    """Trim and fold every run of white space or control characters into one space."""
    return _SPACE.sub(" ", text).strip()


def normalize_text(text: str) -> str:
    """The dedup key of seed 002: lower case, punctuation dropped, white space folded."""
    return _SPACE.sub(" ", _NOT_WORD.sub("", text.lower())).strip()


def conflict_key_of(text: str) -> str | None:
    """The slot a fact fills: a `label: value` text's label, or seed 000's time preference."""
    lowered = clean_text(text).lower()
    if _TIME_PREFERENCE.match(lowered):
        return "time preference"
    labelled = _LABELLED.match(lowered)
    if labelled:
        return labelled.group(1)
    return None


def _contains(text: str, term: str, plural: bool = False) -> bool:
    suffix = "s?" if plural else ""  # "knees" is still the knee; "works" is not "work"
    return re.search(rf"\b{re.escape(term)}{suffix}\b", text) is not None


def entity_tags(text: str, category: str) -> frozenset[str]:
    """Seed 002's entity tags (`body:knee`, `time:morning`, `context:kids`) for one fact."""
    lowered = text.lower()
    tags: set[str] = set()
    if category == "injury":
        tags.update(f"body:{part}" for part in BODY_PARTS if _contains(lowered, part, plural=True))
    elif category in ("preference", "time_preference"):
        tags.update(f"time:{t}" for t in TIME_PREFERENCES if _contains(lowered, t))
        tags.update(f"intensity:{t}" for t in INTENSITY_TOPICS if _contains(lowered, t))
    elif category == "context":
        tags.update(f"context:{t}" for t in CONTEXT_TOPICS if _contains(lowered, t))
    return frozenset(tags)


def category_of(text: str) -> str:
    """Best-effort category for a fact given without one."""
    key = conflict_key_of(text)
    if key in CONFLICT_CATEGORIES:
        return CONFLICT_CATEGORIES[key]
    lowered = text.lower()
    if _INJURY_WORDS.search(lowered) and any(
        _contains(lowered, p, plural=True) for p in BODY_PARTS
    ):
        return "injury"
    if re.search(r"\b(prefers?|likes?|loves?|enjoys?|hates?|dislikes?)\b", lowered):
        return "preference"
    return "general"


# ---- resolving what the unique constraints forbid (frozen copy of vault.domain.adoption) ------
#
# 1. Same normalized text: the copies become one fact. It keeps the text, source and tags of the
#    most confident copy (then the most recently observed, then the first listed), the highest
#    confidence, the earliest learned time, the latest observed time and the sum of occurrences.
# 2. Same conflict key: the newest observation wins (then the higher confidence, then the later
#    listed); the others are archived as `superseded` with `superseded_by` = the winner.
# 3. Confidence below the floor (0.3): archived as `decayed`.
# 4. Caps: at most 15 facts (highest confidence, then most recently observed, then listed
#    first) and 5 patterns / 5 notes (first listed); the rest are archived as `capped`.


class ProtoFact(NamedTuple):
    """A fact read from the legacy document, validated and with its derived keys."""

    position: int
    label: str
    text: str
    normalized_text: str
    category: str
    conflict_key: str | None
    tags: frozenset[str]
    source: str
    confidence: float
    occurrences: int
    learned_at: datetime
    observed_at: datetime


class ProtoItem(NamedTuple):
    """A pattern or coaching note read from the legacy document."""

    position: int
    label: str
    kind: str  # "pattern" or "note"
    text: str
    normalized_text: str
    occurrences: int = 1


class Dropped(NamedTuple):
    """Something going straight to the archive; `superseded_by` indexes `Resolution.facts`."""

    item: ProtoFact | ProtoItem
    reason: str  # "superseded", "decayed" or "capped"
    superseded_by: int | None = None
    archived_at: datetime | None = None  # None: the plan's moment


class Resolution:
    """What becomes active and what goes to the archive."""

    def __init__(self) -> None:
        self.facts: list[ProtoFact] = []
        self.patterns: list[ProtoItem] = []
        self.notes: list[ProtoItem] = []
        self.archived: list[Dropped] = []


def resolve(
    facts: list[ProtoFact], patterns: list[ProtoItem], notes: list[ProtoItem]
) -> Resolution:
    """Apply rules 1-4 above."""
    result = Resolution()
    merged = _merge_copies(facts)
    winners, superseded = _settle_conflicts(merged)
    kept: list[ProtoFact] = []
    low: list[ProtoFact] = []
    for fact in winners:
        (low if fact.confidence < FLOOR else kept).append(fact)
    ranked = sorted(kept, key=_fact_priority)
    active = sorted(ranked[: CAPS["fact"]], key=lambda f: f.position)
    capped = ranked[CAPS["fact"] :]
    result.facts = active
    index = {fact.position: i for i, fact in enumerate(active)}
    for loser, winner in superseded:
        # a winner that was itself pruned or capped leaves its losers without a successor
        successor = index.get(winner.position)
        result.archived.append(
            Dropped(loser, "superseded", successor, archived_at=winner.observed_at)
        )
    result.archived.extend(Dropped(fact, "decayed") for fact in low)
    result.archived.extend(Dropped(fact, "capped") for fact in capped)
    result.patterns = _list_items(patterns, "pattern", result)
    result.notes = _list_items(notes, "note", result)
    return result


def _fact_priority(fact: ProtoFact) -> tuple[float, float, int]:
    return (-fact.confidence, -fact.observed_at.timestamp(), fact.position)


def _merge_copies(facts: list[ProtoFact]) -> list[ProtoFact]:
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
            best._replace(
                position=min(c.position for c in copies),
                confidence=max(c.confidence for c in copies),
                occurrences=sum(c.occurrences for c in copies),
                learned_at=min(c.learned_at for c in copies),
                observed_at=max(c.observed_at for c in copies),
            )
        )
    return sorted(merged, key=lambda f: f.position)


def _settle_conflicts(
    facts: list[ProtoFact],
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


def _list_items(items: list[ProtoItem], kind: str, result: Resolution) -> list[ProtoItem]:
    merged: dict[str, ProtoItem] = {}
    for item in items:
        first = merged.get(item.normalized_text)
        if first is None:
            merged[item.normalized_text] = item
            continue
        merged[item.normalized_text] = first._replace(
            occurrences=first.occurrences + item.occurrences
        )
    ordered = list(merged.values())
    cap = CAPS[kind]
    result.archived.extend(Dropped(item, "capped") for item in ordered[cap:])
    return ordered[:cap]
