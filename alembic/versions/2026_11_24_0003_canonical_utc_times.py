"""Canonical UTC time text on SQLite; indexes cut to what a read path or a constraint needs.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24

Purpose:
1. Times are stored one way. On SQLite every vault time column changes from SQLAlchemy's naive
   `2026-03-02 07:30:00.123456` to the canonical UTC text `2026-03-02T07:30:00.123456Z` (the form
   of `vault.domain.times.format_utc`: `T`, always six fraction digits, `Z`; it sorts lexically
   in chronological order and reads like the export documents). One set-wise UPDATE per table
   rewrites every time column from the text itself; a value without a fraction
   (`2026-03-02 07:30:00`, which SQLAlchemy never writes but a hand-made file may hold) gets
   `.000000`. Values already canonical are left alone. Any other text stops the upgrade naming
   table, column and value (the transaction rolls back; nothing is changed). On PostgreSQL the
   columns are timestamptz, already the canonical form there: nothing to do.
   `legacy_athlete_memory.updated_at` (the mobile engine's copy kept by 0002) is not vault's and
   is left as the engine wrote it; `legacy_adoption` and `fact_tags` hold no times.
2. Indexes (each one is paid on every write):
   - added `ix_archive_kind_original_id`: the history walk's "archive row of fact N"
     (`kind = 'fact' AND original_id = ?`, ArchiveRepository.archived_fact) scanned the archive.
   - dropped `ix_fact_tags_tag`: nothing reads tags by tag; every read and the cascade from
     `facts` go by `fact_id`, which the primary key `(fact_id, tag)` serves.
   Kept, with the query each serves:
   - `ix_facts_athlete_id_confidence`: the views' per-athlete ranking (`ROW_NUMBER() OVER
     (PARTITION BY athlete_id ORDER BY confidence DESC ...)`, `confidence >= 0.3/0.5` filters,
     athlete_summary's fact counts).
   - `ix_facts_last_reinforced_at`: decay, `last_reinforced_at <= now - 7 days` over every
     athlete (vault.services.memory.decay).
   - `uq_facts_athlete_id_normalized_text`, `uq_facts_athlete_id_conflict_key`: constraints
     (dedupe and "newer wins" per conflict key); they also serve loading one athlete's facts.
   - `fact_tags` primary key `(fact_id, tag)`: tags of given facts, the join from facts.
   - `ix_archive_athlete_id_archived_at`: an athlete's archive oldest first (for_athlete,
     forget), athlete_summary's archived_count, erasing an athlete.
   - `ix_archive_archived_at`: cleanup_archive, `archived_at < cutoff` over every athlete (the
     (athlete_id, archived_at) index cannot serve a range on its second column).
   - `ix_archive_kind_superseded_by`: the history walk's "what fact N replaced".
3. Views: their SQL does not change (they order and return times as text, which the canonical
   form keeps chronological), so they stay at version 1. This revision alters no table, so
   there is no batch rebuild and the views need not be dropped around it; a later revision that
   does rebuild a table drops and recreates them (vault.storage.views.replace_views, alembic
   #1207) in the same transaction.

Frozen: this file imports nothing from today's vault code; table names, column names and
formats are spelled out here as they were at 0002.

Downgrade caveats: converts the canonical text back to `YYYY-MM-DD HH:MM:SS.ffffff`,
byte-identical to what SQLAlchemy wrote at 0002 (a value that had no fraction at all comes
back with `.000000`, which is the same time); restores `ix_fact_tags_tag` and drops
`ix_archive_kind_original_id`. Nothing is lost.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import context, op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Every time column of every vault table, as of 0002.
TIME_COLUMNS: dict[str, tuple[str, ...]] = {
    "athletes": ("created_at", "updated_at"),
    "facts": ("learned_at", "observed_at", "last_reinforced_at", "updated_at"),
    "patterns": ("learned_at", "last_reinforced_at", "updated_at"),
    "notes": ("learned_at", "last_reinforced_at", "updated_at"),
    "archive": ("learned_at", "archived_at"),
    "forget_log": ("forgotten_at",),
}

_DATE = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"
_TIME = "[0-9][0-9]:[0-9][0-9]:[0-9][0-9]"
_FRACTION = "." + "[0-9]" * 6
# GLOB patterns (case-sensitive; `.`, `-`, `:`, ` `, `T`, `Z` are literal), bound as parameters.
PATTERNS = {
    "old": f"{_DATE} {_TIME}{_FRACTION}",  # 2026-03-02 07:30:00.123456 (SQLAlchemy's DATETIME)
    "old_bare": f"{_DATE} {_TIME}",  # 2026-03-02 07:30:00
    "canonical": f"{_DATE}T{_TIME}{_FRACTION}Z",  # 2026-03-02T07:30:00.123456Z
}
# substr() is 1-based: 1-10 is the date, 12-19 the time of day, 20-26 the fraction.
_TO_CANONICAL = (
    "CASE WHEN {c} GLOB :old THEN substr({c}, 1, 10) || 'T' || substr({c}, 12, 15) || 'Z' "
    "WHEN {c} GLOB :old_bare THEN substr({c}, 1, 10) || 'T' || substr({c}, 12, 8) || '.000000Z' "
    "ELSE {c} END"
)
_TO_OLD = (
    "CASE WHEN {c} GLOB :canonical THEN substr({c}, 1, 10) || ' ' || substr({c}, 12, 15) "
    "ELSE {c} END"
)
_EXAMPLE = {"upgrade": "2026-03-02 07:30:00.123456", "downgrade": "2026-03-02T07:30:00.123456Z"}


def upgrade() -> None:
    if _sqlite():
        _check(("old", "old_bare", "canonical"), "upgrade")
        _rewrite(_TO_CANONICAL, ("old", "old_bare"))
    op.create_index("ix_archive_kind_original_id", "archive", ["kind", "original_id"])
    op.drop_index("ix_fact_tags_tag", table_name="fact_tags")


def downgrade() -> None:
    op.create_index("ix_fact_tags_tag", "fact_tags", ["tag"])
    op.drop_index("ix_archive_kind_original_id", table_name="archive")
    if _sqlite():
        _check(("canonical", "old"), "downgrade")
        _rewrite(_TO_OLD, ("canonical",))


def _sqlite() -> bool:
    return op.get_context().dialect.name == "sqlite"


def _rewrite(case: str, sources: tuple[str, ...]) -> None:
    """One UPDATE per table, every time column at once, only the rows that need it."""
    params = {name: PATTERNS[name] for name in sources}
    for table, columns in TIME_COLUMNS.items():
        assignments = ", ".join(f"{c} = {case.format(c=c)}" for c in columns)
        needs = " OR ".join(f"{c} GLOB :{p}" for c in columns for p in sources)
        statement = sa.text(f"UPDATE {table} SET {assignments} WHERE {needs}")
        op.execute(statement.bindparams(**params))


def _check(accepted: tuple[str, ...], step: str) -> None:
    """Refuse text this revision does not know how to convert, before changing anything."""
    if context.is_offline_mode():  # an SQL script: there is nothing to look at yet
        return
    bind = op.get_bind()
    params = {name: PATTERNS[name] for name in accepted}
    known = " OR ".join(f"{{c}} GLOB :{p}" for p in accepted)
    for table, columns in TIME_COLUMNS.items():
        for column in columns:
            query = sa.text(
                f"SELECT id, {column} FROM {table} "
                f"WHERE {column} IS NOT NULL AND NOT ({known.format(c=column)}) LIMIT 1"
            )
            found = bind.execute(query, params).first()
            if found is not None:
                raise RuntimeError(
                    f"cannot {step} the times of {table}.{column}: row id {found[0]!r} holds "
                    f"{found[1]!r}, expected text like {_EXAMPLE[step]!r}; nothing was changed"
                )
