"""The erasure record: what was removed, as keyed hashes, when and why; and the vault's secret.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25

Purpose: every way of removing something (forget, delete, an item's delete, "this is wrong",
an edit, consolidation) leaves one row per removed item, so a later write that carries the item
again (the engine writing back a row it read before the erasure) can be recognised and kept out.

- `vault_secrets (name, secret)`: the per-vault random secret of the hashes, row 'erasure',
  64 hex digits made here (SQLite `randomblob`, PostgreSQL `gen_random_uuid`, both from the
  system's strong random source). Vault makes one on first use when it is missing.
- `erasures (id, athlete_key, item_key, reason, erased_at)`: HMAC-SHA256 hex digests of the
  athlete id and of the item's normalised text (vault.domain.erasure); `item_key` NULL stands
  for the whole athlete (`vault delete`). Never the text, never a plain athlete id: the rows
  outlive the athlete, so there is no foreign key to `athletes`.
- Tenant rule: on SQLite `id` is the rowid with UNIQUE (athlete_key, id); on PostgreSQL `id`
  is a 64-bit identity and the primary key is (athlete_key, id).

Frozen: imports only SQLAlchemy and Alembic; the SQL is spelled here.
Downgrade drops both tables: erasures recorded until then are forgotten (what they erased
stays erased; only the guard against stale copies of it goes).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW_SECRET = {
    "sqlite": "lower(hex(randomblob(32)))",
    "postgresql": "replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')",
}


def upgrade() -> None:
    dialect = op.get_context().dialect.name
    op.create_table(
        "vault_secrets",
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_vault_secrets"),
    )
    if dialect == "sqlite":
        op.create_table(
            "erasures",
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("athlete_key", sa.String(64), nullable=False),
            sa.Column("item_key", sa.String(64), nullable=True),
            sa.Column("reason", sa.String(32), nullable=False),
            sa.Column("erased_at", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("id", name="pk_erasures"),
            sa.UniqueConstraint("athlete_key", "id", name="uq_erasures_athlete_key_id"),
            sqlite_autoincrement=True,
        )
    else:
        op.create_table(
            "erasures",
            sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
            sa.Column("athlete_key", sa.String(64), nullable=False),
            sa.Column("item_key", sa.String(64), nullable=True),
            sa.Column("reason", sa.String(32), nullable=False),
            sa.Column("erased_at", sa.DateTime(timezone=True), nullable=False),
            sa.PrimaryKeyConstraint("athlete_key", "id", name="pk_erasures"),
        )
    op.create_index(
        "ix_erasures_athlete_key_item_key_erased_at",
        "erasures",
        ["athlete_key", "item_key", "erased_at"],
    )
    secret = NEW_SECRET.get(dialect)
    if secret is not None:
        op.execute(f"INSERT INTO vault_secrets (name, secret) VALUES ('erasure', {secret})")


def downgrade() -> None:
    op.drop_index("ix_erasures_athlete_key_item_key_erased_at", table_name="erasures")
    op.drop_table("erasures")
    op.drop_table("vault_secrets")
