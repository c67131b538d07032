"""What the tools take (arguments, with their real limits) and return (output schemas).

The outputs are plain pydantic models, so the SDK publishes each tool's output schema and
returns structured content a client can validate; every field is named for what it is.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from vault.domain.episodes import Episode
from vault.domain.limits import ATHLETE_ID_MAX, EPISODE_TEXT_MAX, FACT_TEXT_MAX, ITEM_TEXT_MAX
from vault.domain.models import Archived, Fact, ListItem

MAX_QUERY = 2_000  # a query is a few words; the facade bounds stored texts itself


Stripped = BeforeValidator(lambda value: value.strip() if isinstance(value, str) else value)


# -- arguments: each is declared once, with its real limits, and nothing else is accepted (a
# strict client such as openai-agents refuses undeclared names before the server sees them)
AthleteArg = Annotated[
    str | None,
    Field(
        max_length=ATHLETE_ID_MAX,
        description="The athlete; may be left out when the server serves one athlete.",
    ),
]
QueryArg = Annotated[
    str,
    Stripped,
    Field(
        min_length=1,
        max_length=MAX_QUERY,
        description="Words to search for.",
    ),
]
OptionalQueryArg = Annotated[
    str | None,
    Field(
        max_length=MAX_QUERY,
        description="Rank by relevance to these words; leave out to list everything.",
    ),
]
AboutArg = Annotated[
    str | None,
    Field(
        max_length=MAX_QUERY,
        description="A question: only the topics among its words and phrases; leave out for all.",
    ),
]
TextArg = Annotated[
    str,
    Stripped,
    Field(
        min_length=1,
        max_length=ITEM_TEXT_MAX,
        description=f"The text, in the athlete's third person, e.g. 'prefers morning runs' (at "
        f"most {FACT_TEXT_MAX} characters for a fact, {ITEM_TEXT_MAX} for a pattern or note).",
    ),
]
EpisodeTextArg = Annotated[
    str,
    Stripped,
    Field(
        min_length=1,
        max_length=EPISODE_TEXT_MAX,
        description="What happened, in the athlete's third person, e.g. 'ran the hill session'.",
    ),
]
MessageArg = Annotated[
    str,
    Stripped,
    Field(
        min_length=1,
        max_length=20_000,
        description="What the athlete wrote (one conversation turn) or the activity's note.",
    ),
]
AtArg = Annotated[
    datetime | None,
    Field(
        description="When it was said or happened, ISO 8601 with a timezone (default: now).",
    ),
]

Kind = Annotated[
    Literal["fact", "pattern", "note"],
    Field(
        description="fact (who the athlete is), pattern (what recurs) or note (for the coach).",
    ),
]
Format = Annotated[
    Literal["memory", "markdown"],
    Field(
        description="memory: the MEMORY block as the coach model sees it; markdown: a section "
        "listing every active item."
    ),
]
LearnSource = Annotated[
    Literal["conversation", "activity"],
    Field(
        description="conversation: a turn the athlete wrote; activity: a training session's "
        "note (also recorded as episodes).",
    ),
]


def limit_arg(default: int, most: int) -> Any:
    return Field(
        ge=1,
        le=most,
        description=f"How many to return (1 to {most}).",
    )


# -- results
class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class Evidence(_Out):
    """Where an item came from and how often it was seen."""

    source: str
    source_ref: str | None
    extractor: str | None
    occurrences: int
    observed_at: datetime | None
    learned_at: datetime
    last_reinforced_at: datetime


class MemoryItem(_Out):
    id: int
    kind: str
    text: str
    category: str | None
    confidence: float
    tags: list[str]
    evidence: Evidence

    @classmethod
    def of(cls, item: Fact | ListItem) -> MemoryItem:
        fact = item if isinstance(item, Fact) else None
        return cls(
            id=item.id,
            kind=item.kind.value,
            text=item.text,
            category=fact.category.value if fact else None,
            confidence=item.confidence,
            tags=list(fact.tags) if fact else [],
            evidence=Evidence(
                source=item.source.value,
                source_ref=item.source_ref,
                extractor=item.extractor,
                occurrences=item.occurrences,
                observed_at=fact.observed_at if fact else None,
                learned_at=item.learned_at,
                last_reinforced_at=item.last_reinforced_at,
            ),
        )


class ArchivedItem(_Out):
    id: int
    kind: str
    original_id: int | None
    text: str
    reason: str
    superseded_by: int | None
    learned_at: datetime
    archived_at: datetime

    @classmethod
    def of(cls, row: Archived) -> ArchivedItem:
        return cls(
            id=row.id,
            kind=row.kind.value,
            original_id=row.original_id,
            text=row.original_text,
            reason=row.reason.value,
            superseded_by=row.superseded_by,
            learned_at=row.learned_at,
            archived_at=row.archived_at,
        )


class DroppedItem(_Out):
    kind: str
    id: int
    text: str
    reason: str


class MemoryDocument(_Out):
    athlete_id: str
    format: str
    text: str = Field(description="Put this text into the model's prompt as it is.")
    tokens: int | None = None
    budget: int | None = None
    included_ids: list[int] = Field(default_factory=list)
    dropped: list[DroppedItem] = Field(default_factory=list)


class FactList(_Out):
    athlete_id: str
    query: str | None
    items: list[MemoryItem]


class IgnoredItem(_Out):
    text: str
    reason: str


class MergeReport(_Out):
    athlete_id: str
    added: list[MemoryItem]
    updated: list[MemoryItem]
    archived: list[ArchivedItem]
    ignored: list[IgnoredItem]


class RecalledEpisode(_Out):
    id: int
    type: str
    outcome: str | None
    text: str
    occurred_at: datetime
    ref: str | None
    score: float
    meta: dict[str, Any]

    @classmethod
    def of(cls, episode: Episode) -> RecalledEpisode:
        return cls(
            id=episode.id,
            type=episode.type,
            outcome=episode.outcome,
            text=episode.text,
            occurred_at=episode.occurred_at,
            ref=episode.ref,
            score=episode.score,
            meta=dict(episode.meta),
        )


class RecallResult(_Out):
    athlete_id: str
    query: str
    episodes: list[RecalledEpisode]


class TopicRow(_Out):
    topic: str
    mention_count: int
    first_mentioned: datetime
    last_mentioned: datetime


class TopicList(_Out):
    athlete_id: str
    about: str | None
    topics: list[TopicRow]


class SkippedEpisode(_Out):
    index: int
    reason: str


class EpisodeReport(_Out):
    athlete_id: str
    added: list[int]
    updated: list[int]
    skipped: list[SkippedEpisode]


class ForgetReport(_Out):
    athlete_id: str
    facts: int
    patterns: int
    notes: int
    archived: int
    episodes: int
    erased_from_disk: bool = Field(
        description="False while a reader's snapshot keeps the erased text in the WAL; "
        "`vault erase --wait` finishes the job."
    )


class FactHistory(_Out):
    athlete_id: str
    fact_id: int
    replaced: list[ArchivedItem] = Field(description="What the fact replaced, oldest first.")
    active_id: int | None = Field(description="The fact that holds its place today.")


class AthleteOverview(_Out):
    athlete_id: str
    facts: int
    patterns: int
    notes: int
    archived: int
    last_updated: datetime | None


class AthleteList(_Out):
    athletes: list[AthleteOverview]


# -- corrections of one item (strict: one name per argument, limits in the schema)
ItemKind = Annotated[
    Literal["fact", "pattern", "note"],
    Field(description="What the id names: a fact, a pattern or a note (each has its own ids)."),
]
ItemIdArg = Annotated[
    int,
    Field(
        ge=1, le=2**63 - 1, description="The item's id, as search_facts or read_memory shows it."
    ),
]
NewTextArg = Annotated[
    str,
    Stripped,
    Field(
        min_length=1,
        max_length=300,
        description="The corrected text, in the athlete's third person, e.g. 'runs in the evening'.",
    ),
]


class CorrectionReport(_Out):
    athlete_id: str
    item: MemoryItem = Field(description="The item that now holds the corrected text.")
    replaced: ArchivedItem = Field(
        description="The old item, archived with reason `edited` (fact_history shows it)."
    )


class RemovalReport(_Out):
    athlete_id: str
    kind: str
    id: int
    reason: Literal["wrong", "deleted"]
    erased_from_disk: bool = Field(
        description="False while a reader's snapshot keeps the removed text in the WAL; "
        "`vault erase --wait` finishes the job."
    )
