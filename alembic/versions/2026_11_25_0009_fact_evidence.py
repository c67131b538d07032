"""The evidence behind each fact: the `fact_evidence` table and the `fact_evidence_list` view.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25

Purpose: a fact the coach model trusts must say what it rests on. Every merge that states or
reinforces a fact appends one row: source, the message time or activity id, the extractor, the
words (the clause, scrubbed of personal data), when it was observed and when it was recorded.

- `fact_evidence`: rows leave with their fact (ON DELETE CASCADE from `facts`) and with their
  athlete (ON DELETE CASCADE from `athletes`), so replacement, decay, forget and erasure need
  no extra path. Facts written before this revision have no evidence rows.
- `fact_evidence_list`: the analysts' view, each active fact beside its evidence.

Frozen: imports only SQLAlchemy and Alembic; the view SQL is spelled here.
Downgrade drops the view and the table (the evidence is lost, the facts stay).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SOURCES = (
    "conversation",
    "user_message",
    "activity_note",
    "behavior",
    "pattern_analysis",
    "profile_change",
    "manual",
)
FACT_EVIDENCE_LIST = (
    "SELECT f.athlete_id, f.id AS fact_id, f.text, f.confidence, f.occurrences, e.id AS "
    "evidence_id, e.source, e.source_ref, e.extractor, e.words, e.observed_at, e.recorded_at "
    "FROM facts AS f JOIN fact_evidence AS e ON e.fact_id = f.id"
)


def upgrade() -> None:
    op.create_table(
        "fact_evidence",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("fact_id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.String(128), nullable=False),
        sa.Column(
            "source",
            sa.Enum(*SOURCES, name="source", native_enum=False, create_constraint=True, length=32),
            nullable=False,
        ),
        sa.Column("source_ref", sa.String(200), nullable=True),
        sa.Column("extractor", sa.String(100), nullable=True),
        sa.Column("words", sa.String(500), nullable=True),
        sa.Column("observed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["fact_id"], ["facts.id"], name="fk_fact_evidence_fact_id_facts", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["athlete_id"],
            ["athletes.id"],
            name="fk_fact_evidence_athlete_id_athletes",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_fact_evidence"),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "ix_fact_evidence_fact_id_observed_at", "fact_evidence", ["fact_id", "observed_at"]
    )
    op.create_index("ix_fact_evidence_athlete_id", "fact_evidence", ["athlete_id"])
    op.execute(f"CREATE VIEW fact_evidence_list AS {FACT_EVIDENCE_LIST}")


def downgrade() -> None:
    op.execute("DROP VIEW IF EXISTS fact_evidence_list")
    op.drop_index("ix_fact_evidence_athlete_id", table_name="fact_evidence")
    op.drop_index("ix_fact_evidence_fact_id_observed_at", table_name="fact_evidence")
    op.drop_table("fact_evidence")
