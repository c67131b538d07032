"""What vault left out of the engine's rows: item, reason, when; never the text.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-26

Purpose: vault applies an engine row item by item; an item it cannot take (a confidence no
float holds, a text over vault's limit, personal data the privacy filter withholds, an item
that is not a fact or a text) is left out and the rest applied. The row itself is applied and
deleted from `engine_inbox` at once, usually inside another command's write, so a warning line
was all that was left: `vault upgrade` and `vault doctor` could not report it. SQLite only, as
the engine's tables of revision 0007.

- `engine_skipped_items (id, athlete_id, item, position, reason, skipped_at)`: one row per
  item left out. `athlete_id` is the athlete's id as vault spells it (the row's key
  normalised); `item` the engine's list (`key_facts`, `patterns`, `coaching_notes`) and
  `position` the item's index in it (NULL: the whole list was unreadable); `reason` says why in
  vault's words (the limit, the kind of personal data), never quoting the item; `skipped_at`
  is RFC 3339 UTC text. Vault keeps the latest rows of each athlete only and `vault delete`
  erases the athlete's rows.

Frozen: imports only Alembic; the SQL is spelled here.
Downgrade drops the table: what was left out until then is no longer reported.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CREATE_TABLE = (
    "CREATE TABLE engine_skipped_items (id INTEGER PRIMARY KEY AUTOINCREMENT, "
    "athlete_id TEXT NOT NULL, "
    "item TEXT NOT NULL CHECK (item IN ('key_facts', 'patterns', 'coaching_notes')), "
    "position INTEGER, reason TEXT NOT NULL, skipped_at TEXT NOT NULL)"
)
CREATE_INDEX = (
    "CREATE INDEX ix_engine_skipped_items_athlete_id ON engine_skipped_items (athlete_id, id)"
)


def upgrade() -> None:
    if op.get_context().dialect.name != "sqlite":
        return
    op.execute(CREATE_TABLE)
    op.execute(CREATE_INDEX)


def downgrade() -> None:
    if op.get_context().dialect.name != "sqlite":
        return
    op.execute("DROP INDEX ix_engine_skipped_items_athlete_id")
    op.execute("DROP TABLE engine_skipped_items")
