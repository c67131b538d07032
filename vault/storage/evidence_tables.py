"""The evidence behind each active fact, on the tables' metadata (revision 0009).

One row per observation that stated or reinforced a fact: where it came from (source and the
message time or activity id), when, and the words themselves (the clause, already scrubbed of
personal data). Rows leave with their fact (ON DELETE CASCADE): a replaced, decayed, forgotten
or erased fact takes its evidence with it, so erasure needs no extra path.
"""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, String, Table

from vault.domain.limits import ATHLETE_ID_MAX, EVIDENCE_MAX, SOURCE_REF_MAX
from vault.domain.vocabulary import Source
from vault.storage.tables import ID, _enum_column, metadata, tenant_fk, tenant_id_key
from vault.storage.types import UTCDateTime
from vault.storage.views import View

fact_evidence_table = Table(
    "fact_evidence",
    metadata,
    Column("id", ID, primary_key=True, autoincrement=True),
    Column("fact_id", ID, nullable=False),
    Column(
        "athlete_id",
        String(ATHLETE_ID_MAX),
        ForeignKey("athletes.id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("source", _enum_column(Source, "source"), nullable=False),
    Column("source_ref", String(SOURCE_REF_MAX), nullable=True),
    Column("extractor", String(100), nullable=True),
    Column("words", String(EVIDENCE_MAX), nullable=True),
    Column("observed_at", UTCDateTime, nullable=False),
    Column("recorded_at", UTCDateTime, nullable=False),
    tenant_fk("fact_evidence", "fact_id", "facts"),
    Index(None, "athlete_id", "fact_id", "observed_at"),  # a fact's evidence, oldest first
    tenant_id_key("fact_evidence"),
    sqlite_autoincrement=True,
)

# The analysts' view: each active fact beside every piece of evidence it rests on.
FACT_EVIDENCE_V1 = View(
    "fact_evidence_list",
    "SELECT f.athlete_id, f.id AS fact_id, f.text, f.confidence, f.occurrences, e.id AS "
    "evidence_id, e.source, e.source_ref, e.extractor, e.words, e.observed_at, e.recorded_at "
    "FROM facts AS f JOIN fact_evidence AS e ON e.fact_id = f.id",
)
# Version 2 (revision 0013): the join pairs the athlete id with the fact id.
FACT_EVIDENCE_V2 = View(
    "fact_evidence_list",
    "SELECT f.athlete_id, f.id AS fact_id, f.text, f.confidence, f.occurrences, e.id AS "
    "evidence_id, e.source, e.source_ref, e.extractor, e.words, e.observed_at, e.recorded_at "
    "FROM facts AS f JOIN fact_evidence AS e ON e.athlete_id = f.athlete_id "
    "AND e.fact_id = f.id",
)
FACT_EVIDENCE_DOCS: tuple[str, dict[str, str]] = (
    "Each active fact beside every observation it rests on (the words, where, when).",
    {
        "athlete_id": "whose memory this is",
        "fact_id": "the fact's id (facts.id)",
        "text": "the fact, as the coach model reads it",
        "confidence": "the fact's confidence today",
        "occurrences": "how many times the fact was observed",
        "evidence_id": "this observation's id (fact_evidence.id)",
        "source": "where it came from: conversation, user_message, activity_note, ...",
        "source_ref": "the message time or activity id",
        "extractor": "the rule that read it (`rules:goal`, `consolidate:issue`)",
        "words": "the words it was read from (personal data redacted)",
        "observed_at": "when it was said or done (UTC)",
        "recorded_at": "when the vault recorded it (UTC)",
    },
)
