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

Parsing and duplicate resolution live in `vault.domain.legacy` / `vault.domain.adoption` (pure,
shared with the live merge rules so adopted facts dedupe with later merges). The writes below
use this revision's own table definitions as of 0001, never today's models.

A row that cannot be parsed stops the upgrade (LegacyImportError naming the athlete; the
transaction rolls back, the file is unchanged) unless bad rows are skipped explicitly:
`alembic -x skip_bad_legacy_rows=true upgrade head`, or the Alembic config attribute
`skip_bad_legacy_rows` (what `vault upgrade --skip-bad-legacy-rows` sets). Each skipped row is
appended to `config.attributes["legacy_skipped"]` (and logged as a warning by logger
`vault.domain.legacy` unless the caller put a list there to print them itself), and kept in
`legacy_adoption` with its reason; its JSON stays in `legacy_athlete_memory`.

Downgrade caveats: deletes every vault row of the athletes this revision adopted (whatever was
learned about them since is lost; export first), drops `legacy_adoption` and renames the legacy
table back. Athletes the vault did not adopt are kept. Upgrading again re-adopts the same rows
(the row ids may differ; the content does not).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from alembic import context, op
from vault.domain.adoption import Dropped, ProtoFact, Resolution
from vault.domain.errors import LegacyImportError
from vault.domain.legacy import (
    LEGACY_TABLE,
    LIST_CONFIDENCE,
    NOTE_SOURCE,
    PATTERN_SOURCE,
    RENAMED_TABLE,
    LegacyPlan,
    LegacyProblem,
    LegacyRowError,
    athlete_of,
    plan_row,
)
from vault.domain.times import utc_now
from vault.domain.vocabulary import Kind

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("vault.domain.legacy")
EXTRACTOR = "legacy:athlete_memory"
ADOPTION_TABLE = "legacy_adoption"
_VAULT_TABLES = ("fact_tags", "facts", "patterns", "notes", "archive", "forget_log", "athletes")

# The tables as revision 0001 created them (frozen here on purpose). Times are typed so
# SQLite gets the vault's `YYYY-MM-DD HH:MM:SS.ffffff` text, never the driver's own format.
_TIMES = {
    "created_at",
    "updated_at",
    "learned_at",
    "observed_at",
    "last_reinforced_at",
    "archived_at",
}


def _table(name: str, columns: str) -> sa.TableClause:
    return sa.table(
        name, *(sa.column(c, sa.DateTime() if c in _TIMES else None) for c in columns.split())
    )


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
_items = {kind: _table(kind.value + "s", _ITEM_COLUMNS) for kind in (Kind.PATTERN, Kind.NOTE)}
_archive = _table(
    "archive",
    "athlete_id kind original_id original_text category conflict_key source confidence "
    "occurrences learned_at superseded_by reason archived_at",
)


def upgrade() -> None:
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if LEGACY_TABLE not in tables:
        return
    for clash in (RENAMED_TABLE, ADOPTION_TABLE):
        if clash in tables:
            raise LegacyImportError(
                f"cannot adopt {LEGACY_TABLE}: a table named {clash} already exists in this file"
            )
    columns = {c["name"] for c in sa.inspect(bind).get_columns(LEGACY_TABLE)}
    if not {"athlete_id", "memory_json"} <= columns:
        raise LegacyImportError(
            f"cannot adopt {LEGACY_TABLE}: expected columns athlete_id and memory_json, "
            f"found {', '.join(sorted(columns))}"
        )
    updated = "updated_at" if "updated_at" in columns else "NULL"
    rows = bind.execute(
        sa.text(
            f"SELECT athlete_id, memory_json, {updated} FROM {LEGACY_TABLE} ORDER BY athlete_id"
        )
    ).all()
    plans, problems = _plan(bind, rows)
    if problems and not _skip_bad_rows():
        shown = "; ".join(str(p) for p in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise LegacyImportError(
            f"cannot adopt the legacy {LEGACY_TABLE} table: {shown}{more}. Nothing was changed; "
            "fix or delete the row, or skip bad rows with `vault upgrade --skip-bad-legacy-rows` "
            "(alembic -x skip_bad_legacy_rows=true upgrade head)"
        )
    sqlite = bind.dialect.name == "sqlite"
    outcomes = [_outcome(p.athlete_id, "adopted", _write(bind, p, sqlite)) for p in plans]
    outcomes += [_outcome(p.athlete_id, "skipped", reason=p.reason) for p in problems]
    _record(outcomes)
    op.rename_table(LEGACY_TABLE, RENAMED_TABLE)
    _report(plans, problems)


def downgrade() -> None:
    bind = op.get_bind()
    tables = set(sa.inspect(bind).get_table_names())
    if RENAMED_TABLE not in tables:
        return
    if LEGACY_TABLE in tables:
        raise LegacyImportError(
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
    raise LegacyImportError(f"skip_bad_legacy_rows must be true or false, got {given!r}")


def _plan(bind: sa.Connection, rows: Sequence[Any]) -> tuple[list[LegacyPlan], list[LegacyProblem]]:
    existing = set(bind.execute(sa.text("SELECT id FROM athletes")).scalars())
    fallback = utc_now()  # only for a row that holds no time at all
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


def _write(bind: sa.Connection, plan: LegacyPlan, sqlite: bool) -> Resolution:
    def at(value: datetime) -> datetime:  # the vault keeps naive UTC text on SQLite
        return value.replace(tzinfo=None) if sqlite else value

    athlete, moment, res = plan.athlete_id, plan.updated_at, plan.resolution
    bind.execute(
        _athletes.insert().values(id=athlete, created_at=at(plan.created_at), updated_at=at(moment))
    )
    fact_ids = []
    for fact in res.facts:
        row = {
            "athlete_id": athlete, "text": fact.text, "normalized_text": fact.normalized_text,
            "category": fact.category.value, "conflict_key": fact.conflict_key,
            "source": fact.source.value, "source_ref": fact.source_ref, "extractor": EXTRACTOR,
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
    for kind, items in ((Kind.PATTERN, res.patterns), (Kind.NOTE, res.notes)):
        source = (PATTERN_SOURCE if kind is Kind.PATTERN else NOTE_SOURCE).value
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


def _archived(
    athlete: str, dropped: Dropped, fact_ids: list[int], moment: datetime, at: Any
) -> dict[str, Any]:
    item = dropped.item
    row: dict[str, Any] = {
        "athlete_id": athlete,
        "original_id": None,  # never active in the vault
        "original_text": item.text,
        "occurrences": item.occurrences,
        "superseded_by": None if dropped.superseded_by is None else fact_ids[dropped.superseded_by],
        "reason": dropped.reason.value,
        "archived_at": at(dropped.archived_at or moment),
    }
    if isinstance(item, ProtoFact):
        return row | {
            "kind": Kind.FACT.value,
            "category": item.category.value,
            "conflict_key": item.conflict_key,
            "source": item.source.value,
            "confidence": item.confidence,
            "learned_at": at(item.learned_at),
        }
    source = PATTERN_SOURCE if item.kind is Kind.PATTERN else NOTE_SOURCE
    return row | {
        "kind": item.kind.value,
        "category": None,
        "conflict_key": None,
        "source": source.value,
        "confidence": LIST_CONFIDENCE,
        "learned_at": at(moment),
    }


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
