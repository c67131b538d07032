"""The normalized schema as SQLAlchemy Core tables. Alembic owns the DDL; see alembic/versions.

Core `Table`s, not ORM classes: every read and write is a Core statement on the unit of work's
Connection, and importing the ORM would cost every CLI command ~50 ms of start-up.
"""

from __future__ import annotations

from enum import Enum as PyEnum
from typing import Any

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Enum,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)
from sqlalchemy import (
    text as sql_text,
)

from vault.domain.limits import ATHLETE_ID_MAX, FACT_TEXT_MAX, ITEM_TEXT_MAX
from vault.domain.vocabulary import ArchiveReason, Category, Kind, Source
from vault.storage.types import UTCDateTime

DUE_NOW = "1970-01-01T00:00:00.000000Z"  # server default of facts.decay_due_at
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


metadata = MetaData(naming_convention=NAMING_CONVENTION)


def _enum_column(enum: type[PyEnum], name: str) -> Enum:
    """Store an enum's values as text with a named CHECK, readable by analysts."""
    return Enum(
        enum,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=32,
        values_callable=lambda members: [m.value for m in members],
        validate_strings=True,
    )


# 64-bit ids on PostgreSQL (identity columns, revision 0013); on SQLite `INTEGER PRIMARY KEY`,
# the rowid, which FTS5's external content and the engine's triggers rely on.
ID = BigInteger().with_variant(Integer(), "sqlite")
# The tenant: every athlete-owned table carries the athlete id, and on PostgreSQL it leads the
# primary key (`(athlete_id, id)`, revision 0013), so each table can be hash-partitioned or
# distributed (Citus) by it; see docs/scale-out.md and vault.storage.tenancy.
TENANT_COLUMNS = ("athlete_id", "owner_id")


def _id() -> Column[int]:
    return Column("id", ID, primary_key=True, autoincrement=True)


def tenant_id_key(table: str, tenant: str = "athlete_id") -> Index:
    """UNIQUE (tenant, id) on SQLite, where `id` alone is the primary key (the rowid): the key
    child tables' foreign keys pair. PostgreSQL's primary key is (tenant, id) itself."""
    return Index(f"uq_{table}_{tenant}_id", tenant, "id", unique=True).ddl_if(dialect="sqlite")


def tenant_fk(table: str, column: str, parent: str, tenant: str = "athlete_id") -> Any:
    """A child's foreign key to its parent row, paired with the athlete id (co-located)."""
    return ForeignKeyConstraint(
        [tenant, column],
        [f"{parent}.{tenant}", f"{parent}.id"],
        ondelete="CASCADE",
        name=f"fk_{table}_{tenant}_{parent}",
    )


def _athlete_fk() -> Column[str]:
    return Column(
        "athlete_id",
        String(ATHLETE_ID_MAX),
        ForeignKey("athletes.id", ondelete="CASCADE"),
        nullable=False,
    )


def _required(name: str, kind: Any) -> Column[Any]:
    return Column(name, kind, nullable=False)


def _optional(name: str, kind: Any) -> Column[Any]:
    return Column(name, kind, nullable=True)


def _inline_columns(table: str, length: int) -> tuple[Any, ...]:
    """The item as the MEMORY block shows it (revision 0016): its inline text (NULL: its text)
    and the tokens of " text" and " text\\n", which the engine's `athlete_memory` view sums
    (vault.storage.engine_view). NULL counts: not counted yet (written by another program);
    the partial index finds those at once (`vault upgrade` counts them, `doctor` reports them)."""
    uncounted = sql_text("inline_tokens IS NULL")
    return (
        _optional("inline_text", String(length)),
        _optional("inline_tokens", Integer),
        _optional("inline_tokens_last", Integer),
        Index(f"ix_{table}_uncounted", "id", sqlite_where=uncounted, postgresql_where=uncounted),
    )


# One person whose memory the vault keeps.
athletes_table = Table(
    "athletes",
    metadata,
    Column("id", String(ATHLETE_ID_MAX), primary_key=True),
    _required("created_at", UTCDateTime),
    _required("updated_at", UTCDateTime),
)

# An active key fact. Archived facts leave this table for `archive`.
facts_table = Table(
    "facts",
    metadata,
    _id(),
    _athlete_fk(),
    _required("text", String(FACT_TEXT_MAX)),
    _required("normalized_text", String(ITEM_TEXT_MAX)),
    _required("category", _enum_column(Category, "category")),
    _optional("conflict_key", String(60)),
    _required("source", _enum_column(Source, "source")),
    _optional("source_ref", String(200)),
    _optional("extractor", String(100)),
    _required("confidence", Float),
    # Confidence at the last reinforcement; `confidence` is this decayed to the last decay run.
    _required("base_confidence", Float),
    _required("occurrences", Integer),
    _required("learned_at", UTCDateTime),
    # Time of the newest observation of this value: "newer wins" compares against it.
    _required("observed_at", UTCDateTime),
    _required("last_reinforced_at", UTCDateTime),
    _required("updated_at", UTCDateTime),
    # When `confidence` next drops (end of the current unreinforced week): decay reads only
    # facts due. The default means "due now", so a row written without it is just recomputed.
    Column("decay_due_at", UTCDateTime, nullable=False, server_default=sql_text(f"'{DUE_NOW}'")),
    *_inline_columns("facts", FACT_TEXT_MAX),
    UniqueConstraint("athlete_id", "normalized_text"),
    UniqueConstraint("athlete_id", "conflict_key"),
    CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence_range"),
    CheckConstraint("base_confidence >= 0 AND base_confidence <= 1", name="base_confidence_range"),
    CheckConstraint("occurrences >= 1", name="occurrences_positive"),
    # No other index: every per-athlete read uses the unique keys' athlete_id prefix, and
    # whole-vault decay scans the table once (an index on decay_due_at cost more to maintain
    # on 1.5 M rewritten rows than the 0.2 s scan of a run with nothing due).
    tenant_id_key("facts"),
    sqlite_autoincrement=True,
)

# An entity tag of a fact (`body:knee`, `time:morning`, `context:kids`). No index on `tag`
# alone (dropped in 0003): every read goes by fact_id, which the primary key serves.
fact_tags_table = Table(
    "fact_tags",
    metadata,
    Column("athlete_id", String(ATHLETE_ID_MAX), primary_key=True),
    Column("fact_id", ID, primary_key=True),
    Column("tag", String(60), primary_key=True),
    tenant_fk("fact_tags", "fact_id", "facts"),
)


def _list_item_table(name: str) -> Table:
    """A pattern or a coaching note: text, provenance, confidence, occurrences, times."""
    return Table(
        name,
        metadata,
        _id(),
        _athlete_fk(),
        _required("text", String(ITEM_TEXT_MAX)),
        _required("normalized_text", String(ITEM_TEXT_MAX)),
        _required("source", _enum_column(Source, "source")),
        _optional("source_ref", String(200)),
        _optional("extractor", String(100)),
        _required("confidence", Float),
        _required("occurrences", Integer),
        _required("learned_at", UTCDateTime),
        _required("last_reinforced_at", UTCDateTime),
        _required("updated_at", UTCDateTime),
        *_inline_columns(name, ITEM_TEXT_MAX),
        UniqueConstraint("athlete_id", "normalized_text"),
        CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence_range"),
        CheckConstraint("occurrences >= 1", name="occurrences_positive"),
        Index(None, "athlete_id", "confidence"),
        tenant_id_key(name),
        sqlite_autoincrement=True,
    )


patterns_table = _list_item_table("patterns")  # a recurring behaviour ("skips Mondays frequently")
notes_table = _list_item_table("notes")  # a coaching note ("responds well to data-driven framing")

# Everything that left the active set, with why and what replaced it.
archive_table = Table(
    "archive",
    metadata,
    _id(),
    _athlete_fk(),
    _required("kind", _enum_column(Kind, "kind")),
    # None for an item archived in the same merge that proposed it (it never became active).
    _optional("original_id", ID),
    _required("original_text", String(ITEM_TEXT_MAX)),
    _optional("category", _enum_column(Category, "category")),
    _optional("conflict_key", String(60)),
    _required("source", _enum_column(Source, "source")),
    _required("confidence", Float),
    _required("occurrences", Integer),
    _required("learned_at", UTCDateTime),
    _optional("superseded_by", ID),
    _required("reason", _enum_column(ArchiveReason, "reason")),
    _required("archived_at", UTCDateTime),
    Index(None, "athlete_id", "archived_at"),  # an athlete's archive, oldest first; forget
    Index(None, "archived_at"),  # cleanup_archive: rows older than the retention, all athletes
    Index(None, "kind", "superseded_by"),  # history walk: what a fact replaced
    Index(None, "kind", "original_id"),  # history walk: a fact's own archive row (0003)
    tenant_id_key("archive"),
    sqlite_autoincrement=True,
)

# An entity tag an archived fact had when it left (revision 0006): history by body part.
archive_tags_table = Table(
    "archive_tags",
    metadata,
    Column("athlete_id", String(ATHLETE_ID_MAX), primary_key=True),
    Column("archive_id", ID, primary_key=True),
    Column("tag", String(60), primary_key=True),
    tenant_fk("archive_tags", "archive_id", "archive"),
)

# Count-only audit of "forget" requests: what was asked is deliberately not kept.
forget_log_table = Table(
    "forget_log",
    metadata,
    _id(),
    _athlete_fk(),
    _required("forgotten_at", UTCDateTime),
    _required("facts", Integer),
    _required("patterns", Integer),
    _required("notes", Integer),
    _required("archived", Integer),
    tenant_id_key("forget_log"),
)
