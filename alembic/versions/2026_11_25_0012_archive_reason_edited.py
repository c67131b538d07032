"""An archived item may have left because the athlete rewrote it: archive reason `edited`.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25

Purpose: an edit on the memory page (`vault ui`) or over MCP is a manual observation; the old
item goes to the archive with `superseded_by` the new one and reason `edited`, so its history
shows what the athlete corrected. The archive's CHECK on `reason` gains the value.

- PostgreSQL: the named CHECK `ck_archive_reason` is dropped and created again.
- SQLite cannot alter a CHECK. Rebuilding `archive` (batch mode) breaks on the views that read
  it (a rename checks every view), so the table's stored CREATE statement is rewritten in place,
  the procedure SQLite documents for loosening a constraint ("Making Other Kinds Of Table Schema
  Changes": writable_schema, then a schema change so schema_version moves on and every
  connection reads the schema again). Every existing row satisfies the wider CHECK and the file
  format is unchanged. Online, a file whose statement does not read as expected is refused
  rather than guessed at; the offline script (`--sql`) states the same edit as one UPDATE.

Frozen: imports only SQLAlchemy and Alembic; the SQL is spelled here.
Downgrade turns `edited` rows into `superseded` (what an edit is, in the older vocabulary) and
narrows the CHECK again.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import context, op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD = ("superseded", "merged", "resolved", "decayed", "capped")
NEW = (*OLD, "edited")


def _check(values: tuple[str, ...]) -> str:
    return "reason IN (" + ", ".join(f"'{v}'" for v in values) + ")"


def _switch(before: tuple[str, ...], after: tuple[str, ...]) -> None:
    if op.get_context().dialect.name != "sqlite":
        op.execute("ALTER TABLE archive DROP CONSTRAINT ck_archive_reason")
        op.execute(f"ALTER TABLE archive ADD CONSTRAINT ck_archive_reason CHECK ({_check(after)})")
        return
    old_clause, new_clause = f"CHECK ({_check(before)})", f"CHECK ({_check(after)})"
    if not context.is_offline_mode():
        sql = (
            op.get_bind()
            .exec_driver_sql(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'archive'"
            )
            .scalar_one()
        )
        if sql.count(old_clause) != 1:
            raise RuntimeError(
                "the archive table's CHECK on reason is not the one this revision expects; "
                "the file was changed by hand"
            )
    op.execute("PRAGMA writable_schema = ON")
    op.execute(
        "UPDATE sqlite_master SET sql = replace(sql, "
        f"{_quoted(old_clause)}, {_quoted(new_clause)}) "
        "WHERE type = 'table' AND name = 'archive'"
    )
    op.execute("PRAGMA writable_schema = RESET")  # this connection reads the schema again
    # a real schema change bumps schema_version, so every other connection reads it again too
    op.execute("CREATE TABLE vault_schema_bump (x INTEGER)")
    op.execute("DROP TABLE vault_schema_bump")


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def upgrade() -> None:
    _switch(OLD, NEW)


def downgrade() -> None:
    op.execute("UPDATE archive SET reason = 'superseded' WHERE reason = 'edited'")
    _switch(NEW, OLD)
