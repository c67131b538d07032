"""Athlete ids in Unicode NFC: `José` typed as one code point or as `e` + U+0301 is one athlete.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25

Purpose: the vault compared athlete ids code point by code point, so `José` (NFC, what a
keyboard types) and `Jose\\u0301` (NFD, what some systems send) were two athletes that print
the same; `vault delete José` left the other's data. From now on every id is NFC-normalized on
the way in (`vault.domain.models.validated_athlete`); this revision brings the ids already
stored to the same form, losing nothing:

- an id whose NFC form is not taken is renamed: a row for the NFC id is added, every column
  that holds the id (each foreign key to `athletes.id`, and each `athlete_id` / `owner_id`
  column, so tables another revision adds are covered too) and the episodes' `owner_key` (the
  owner's token in the full-text index, a hash of the id) move to it, and the old row goes;
- an id whose NFC form is already taken (two athletes that collide) is left as it is, with all
  its rows, and reported: a warning here, and `vault doctor` names it until someone merges the
  two by hand (`vault delete` of the NFC id erases both).

An offline SQL script (`alembic upgrade --sql`) cannot read the ids, so there this revision
only leaves a comment; `vault doctor` names any id left unnormalized.

Frozen: imports only SQLAlchemy, Alembic and the standard library.
Downgrade changes nothing (a renamed id is the same name; its old spelling is not kept).
"""

from __future__ import annotations

import hashlib
import logging
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa

from alembic import context, op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("alembic.runtime.migration")


def _owner_key(owner_id: str) -> str:
    return "k" + hashlib.sha1(owner_id.encode("utf-8")).hexdigest()[:15]


def _referencing(bind: sa.engine.Connection) -> list[tuple[str, str]]:
    """(table, column) of every column that holds an athlete id: each foreign key that points
    at athletes.id, and each `athlete_id` / `owner_id` column of a table without one (the
    engine's own tables, the legacy copy and its adoption record)."""
    inspector = sa.inspect(bind)
    found = set()
    for table in inspector.get_table_names():
        if table == "athletes":
            continue
        for key in inspector.get_foreign_keys(table):
            if key["referred_table"] == "athletes" and key["referred_columns"] == ["id"]:
                found.add((table, key["constrained_columns"][0]))
        for column in inspector.get_columns(table):
            if column["name"] in ("athlete_id", "owner_id"):
                found.add((table, column["name"]))
    return sorted(found)


def upgrade() -> None:
    if context.is_offline_mode():
        # An SQL script cannot read the ids it would rename (SQL has no NFC); the ids written
        # from now on are NFC anyway, and `vault doctor` names any older one left unnormalized.
        op.execute(
            "-- revision 0008: athlete ids are NFC-normalized online only (vault doctor checks)"
        )
        return
    bind = op.get_bind()
    ids = [str(row[0]) for row in bind.execute(sa.text("SELECT id FROM athletes ORDER BY id"))]
    if all(unicodedata.is_normalized("NFC", athlete) for athlete in ids):
        return
    taken = set(ids)
    inspector = sa.inspect(bind)
    columns = ", ".join(c["name"] for c in inspector.get_columns("athletes") if c["name"] != "id")
    referencing = _referencing(bind)
    keyed = [
        t for t, _c in referencing if "owner_key" in {c["name"] for c in inspector.get_columns(t)}
    ]
    for old in ids:
        new = unicodedata.normalize("NFC", old)
        if new == old:
            continue
        if new in taken:
            log.warning(
                "athlete id %a collides with %a once normalized (NFC); both are kept as they "
                "are: merge them by hand (vault doctor names them)",
                old,
                new,
            )
            continue
        names = {"old": old, "new": new}
        bind.execute(
            sa.text(
                f"INSERT INTO athletes (id, {columns}) SELECT :new, {columns} FROM athletes WHERE id = :old"
            ),
            names,
        )
        for table, column in referencing:
            bind.execute(
                sa.text(f"UPDATE {table} SET {column} = :new WHERE {column} = :old"), names
            )
        for table in keyed:
            column = next(c for t, c in referencing if t == table)
            bind.execute(
                sa.text(f"UPDATE {table} SET owner_key = :key WHERE {column} = :new"),
                {"key": _owner_key(new), "new": new},
            )
        bind.execute(sa.text("DELETE FROM athletes WHERE id = :old"), names)
        taken.discard(old)
        taken.add(new)


def downgrade() -> None:
    """Nothing to undo: an NFC id names the same athlete at every revision."""
