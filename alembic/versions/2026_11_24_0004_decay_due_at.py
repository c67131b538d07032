"""facts.decay_due_at: when a fact's confidence next drops, so decay reads only what changes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

Purpose: whole-vault decay used to recompute every fact unreinforced for 7+ days on every run
(3.5 s for a run with nothing to change at 1.5 M facts). `decay_due_at` is the end of the fact's
current unreinforced week (last_reinforced_at + (full weeks + 1) x 7 days); the vault writes it
with every confidence it writes, and decay recomputes only facts with `decay_due_at <= now`.

- the column is NOT NULL with the server default 1970-01-01T00:00:00.000000Z ("due now"): a row
  written without it (a restore, a hand-made insert) is merely recomputed by the next decay.
- existing rows get last_reinforced_at + 7 days, never later than the true due time (on SQLite
  the fraction is dropped before the date arithmetic, so the value is at most one second early):
  an early due time costs one recomputation, never a missed decay.
- indexes on facts, paid on every write: `ix_facts_last_reinforced_at` (only decay read it) and
  `ix_facts_athlete_id_confidence` are dropped and `decay_due_at` gets none. Every per-athlete
  read (merge load, views filtered by athlete, summary counts) is served by the unique keys'
  `athlete_id` prefix; whole-vault decay scans the table in rowid order, which at 1.5 M facts
  costs 0.2 s when nothing is due and spares the random index rewrites of 1.5 M due times
  (measured: 7 s of a 13 s full run).

Frozen: nothing from today's vault code is imported. SQLite adds and drops the column with ALTER
TABLE (SQLite >= 3.35; no batch rebuild, so the views stay in place). Downgrade drops the column and restores the old
index; nothing is lost (the due time is derived state).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DUE_NOW = "1970-01-01T00:00:00.000000Z"

_FILL = {
    "sqlite": (
        "UPDATE facts SET decay_due_at = "
        "strftime('%Y-%m-%dT%H:%M:%S', substr(last_reinforced_at, 1, 19), '+7 days') "
        "|| '.000000Z'"
    ),
    "postgresql": "UPDATE facts SET decay_due_at = last_reinforced_at + interval '7 days'",
}


def upgrade() -> None:
    op.add_column(
        "facts",
        sa.Column(
            "decay_due_at",
            sa.DateTime(timezone=True),
            nullable=False,
            server_default=sa.text(f"'{DUE_NOW}'"),
        ),
    )
    op.execute(_FILL[op.get_context().dialect.name])
    op.drop_index("ix_facts_last_reinforced_at", table_name="facts")
    op.drop_index("ix_facts_athlete_id_confidence", table_name="facts")


def downgrade() -> None:
    op.create_index("ix_facts_athlete_id_confidence", "facts", ["athlete_id", "confidence"])
    op.create_index("ix_facts_last_reinforced_at", "facts", ["last_reinforced_at"])
    # ALTER TABLE ... DROP COLUMN in place (SQLite >= 3.35): a batch rebuild would break the
    # views that read `facts` (alembic #1207).
    op.execute("ALTER TABLE facts DROP COLUMN decay_due_at")
