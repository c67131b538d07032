"""The normalized schema, as typed SQLAlchemy models. Alembic owns the DDL; see alembic/versions."""

from __future__ import annotations

from datetime import datetime
from enum import Enum as PyEnum
from typing import Optional

from sqlalchemy import (
    CheckConstraint,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy import (
    text as sql_text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, declared_attr, mapped_column

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



class Base(DeclarativeBase):
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


def _athlete_fk() -> Mapped[str]:
    return mapped_column(
        String(ATHLETE_ID_MAX), ForeignKey("athletes.id", ondelete="CASCADE"), nullable=False
    )


class AthleteRow(Base):
    """One person whose memory the vault keeps."""

    __tablename__ = "athletes"

    id: Mapped[str] = mapped_column(String(ATHLETE_ID_MAX), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class _ListItem:
    """Columns of a pattern or a coaching note: text, provenance, confidence, occurrences, times."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    athlete_id: Mapped[str] = _athlete_fk()
    text: Mapped[str] = mapped_column(String(ITEM_TEXT_MAX))
    normalized_text: Mapped[str] = mapped_column(String(ITEM_TEXT_MAX))
    source: Mapped[Source] = mapped_column(_enum_column(Source, "source"))
    source_ref: Mapped[Optional[str]] = mapped_column(String(200))
    extractor: Mapped[Optional[str]] = mapped_column(String(100))
    confidence: Mapped[float] = mapped_column(Float)
    occurrences: Mapped[int] = mapped_column(Integer)
    learned_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_reinforced_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)

    @declared_attr.directive
    def __table_args__(cls) -> tuple[object, ...]:  # noqa: N805 - SQLAlchemy directive
        return (
            UniqueConstraint("athlete_id", "normalized_text"),
            CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence_range"),
            CheckConstraint("occurrences >= 1", name="occurrences_positive"),
            Index(None, "athlete_id", "confidence"),
            {"sqlite_autoincrement": True},
        )


class FactRow(Base):
    """An active key fact. Archived facts leave this table for `archive`."""

    __tablename__ = "facts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    athlete_id: Mapped[str] = _athlete_fk()
    text: Mapped[str] = mapped_column(String(FACT_TEXT_MAX))
    normalized_text: Mapped[str] = mapped_column(String(ITEM_TEXT_MAX))
    category: Mapped[Category] = mapped_column(_enum_column(Category, "category"))
    conflict_key: Mapped[Optional[str]] = mapped_column(String(60))
    source: Mapped[Source] = mapped_column(_enum_column(Source, "source"))
    source_ref: Mapped[Optional[str]] = mapped_column(String(200))
    extractor: Mapped[Optional[str]] = mapped_column(String(100))
    confidence: Mapped[float] = mapped_column(Float)
    # Confidence at the last reinforcement; `confidence` is this decayed to the last decay run.
    base_confidence: Mapped[float] = mapped_column(Float)
    occurrences: Mapped[int] = mapped_column(Integer)
    learned_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Time of the newest observation of this value: "newer wins" compares against it.
    observed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_reinforced_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # When `confidence` next drops (end of the current unreinforced week): decay reads only
    # facts due. The default means "due now", so a row written without it is just recomputed.
    decay_due_at: Mapped[datetime] = mapped_column(UTCDateTime, server_default=sql_text(f"'{DUE_NOW}'"))

    @declared_attr.directive
    def __table_args__(cls) -> tuple[object, ...]:  # noqa: N805 - SQLAlchemy directive
        return (
            UniqueConstraint("athlete_id", "normalized_text"),
            UniqueConstraint("athlete_id", "conflict_key"),
            CheckConstraint("confidence >= 0 AND confidence <= 1", name="confidence_range"),
            CheckConstraint(
                "base_confidence >= 0 AND base_confidence <= 1", name="base_confidence_range"
            ),
            CheckConstraint("occurrences >= 1", name="occurrences_positive"),
            # No other index: every per-athlete read uses the unique keys' athlete_id prefix, and
            # whole-vault decay scans the table once (an index on decay_due_at cost more to
            # maintain on 1.5 M rewritten rows than the 0.2 s scan of a run with nothing due).
            {"sqlite_autoincrement": True},
        )


class FactTagRow(Base):
    """An entity tag of a fact (`body:knee`, `time:morning`, `context:kids`)."""

    __tablename__ = "fact_tags"

    fact_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("facts.id", ondelete="CASCADE"), primary_key=True
    )
    tag: Mapped[str] = mapped_column(String(60), primary_key=True)

    # No index on `tag` alone (dropped in 0003): every read goes by fact_id, which the primary
    # key (fact_id, tag) serves, and an unread index is paid on every tag insert.


class PatternRow(_ListItem, Base):
    """A recurring behaviour ("skips Mondays frequently")."""

    __tablename__ = "patterns"


class NoteRow(_ListItem, Base):
    """A coaching note ("responds well to data-driven framing")."""

    __tablename__ = "notes"


class ArchiveRow(Base):
    """Everything that left the active set, with why and what replaced it."""

    __tablename__ = "archive"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    athlete_id: Mapped[str] = _athlete_fk()
    kind: Mapped[Kind] = mapped_column(_enum_column(Kind, "kind"))
    # None for an item archived in the same merge that proposed it (it never became active).
    original_id: Mapped[Optional[int]] = mapped_column(Integer)
    original_text: Mapped[str] = mapped_column(String(ITEM_TEXT_MAX))
    category: Mapped[Optional[Category]] = mapped_column(_enum_column(Category, "category"))
    conflict_key: Mapped[Optional[str]] = mapped_column(String(60))
    source: Mapped[Source] = mapped_column(_enum_column(Source, "source"))
    confidence: Mapped[float] = mapped_column(Float)
    occurrences: Mapped[int] = mapped_column(Integer)
    learned_at: Mapped[datetime] = mapped_column(UTCDateTime)
    superseded_by: Mapped[Optional[int]] = mapped_column(Integer)
    reason: Mapped[ArchiveReason] = mapped_column(_enum_column(ArchiveReason, "reason"))
    archived_at: Mapped[datetime] = mapped_column(UTCDateTime)

    __table_args__ = (
        Index(None, "athlete_id", "archived_at"),  # an athlete's archive, oldest first; forget
        Index(None, "archived_at"),  # cleanup_archive: rows older than the retention, all athletes
        Index(None, "kind", "superseded_by"),  # history walk: what a fact replaced
        Index(None, "kind", "original_id"),  # history walk: a fact's own archive row (0003)
        {"sqlite_autoincrement": True},
    )


class ArchiveTagRow(Base):
    """An entity tag an archived fact had when it left (revision 0006): history by body part."""

    __tablename__ = "archive_tags"

    archive_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("archive.id", ondelete="CASCADE"), primary_key=True
    )
    tag: Mapped[str] = mapped_column(String(60), primary_key=True)


class ForgetLogRow(Base):
    """Count-only audit of "forget" requests: what was asked is deliberately not kept."""

    __tablename__ = "forget_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    athlete_id: Mapped[str] = _athlete_fk()
    forgotten_at: Mapped[datetime] = mapped_column(UTCDateTime)
    facts: Mapped[int] = mapped_column(Integer)
    patterns: Mapped[int] = mapped_column(Integer)
    notes: Mapped[int] = mapped_column(Integer)
    archived: Mapped[int] = mapped_column(Integer)
