"""Activities as the extraction and pattern code sees them, and facts from their notes."""

from __future__ import annotations

import datetime as dt
from datetime import datetime, time, timezone

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from vault.domain.models import Candidate, FactIn
from vault.domain.times import in_range
from vault.domain.vocabulary import Source
from vault.extraction.base import Extractor
from vault.extraction.privacy import scrub
from vault.extraction.rules import RuleExtractor

ONE_SESSION = (
    0.35  # below the prompt even if a second note repeats it (+0.1); a third makes it high
)


class ActivityIn(BaseModel):
    """One planned or done session: its notes, whether it happened, its effort.

    `started_at` keeps the athlete's own UTC offset, so weekdays are the athlete's weekdays;
    give `date` alone when only the day is known. `rest_suggested` marks a day the coach
    suggested rest: a completed session then is an override. `load` defaults to
    `duration_min x rpe` (session RPE) when not given.
    """

    model_config = ConfigDict(
        extra="forbid", str_strip_whitespace=True, frozen=True, defer_build=True
    )

    id: str = Field(min_length=1, max_length=200)
    started_at: datetime | None = None
    date: dt.date | None = None
    name: str | None = Field(default=None, max_length=2_000)
    description: str | None = Field(default=None, max_length=20_000)
    private_note: str | None = Field(default=None, max_length=20_000)
    sport: str | None = Field(default=None, max_length=60)
    planned: bool = True
    completed: bool = True
    rest_suggested: bool = False
    rpe: int | None = Field(default=None, ge=1, le=10, strict=True)
    load: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    duration_min: float | None = Field(default=None, ge=0, allow_inf_nan=False)

    @field_validator("started_at")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and (value.tzinfo is None or value.utcoffset() is None):
            raise ValueError("started_at must be timezone-aware (e.g. 2026-03-01T07:00:00+01:00)")
        if value is not None:
            in_range(value, "started_at")  # the vault's one time rule (1900-2500)
        return value

    @model_validator(mode="after")
    def _has_day(self) -> ActivityIn:
        if self.started_at is None and self.date is None:
            raise ValueError("an activity needs started_at or date")
        return self

    @property
    def local_date(self) -> dt.date:
        """The athlete's calendar day of the session."""
        if self.date is not None:
            return self.date
        assert self.started_at is not None
        return self.started_at.date()

    @property
    def observed_at(self) -> datetime:
        """When the session happened, in UTC (noon UTC for a date-only session)."""
        if self.started_at is not None:
            return self.started_at.astimezone(timezone.utc)
        return datetime.combine(self.local_date, time(12), tzinfo=timezone.utc)

    @property
    def effective_load(self) -> float | None:
        """`load`, else `duration_min x rpe`, else None."""
        if self.load is not None:
            return self.load
        if self.duration_min is not None and self.rpe is not None:
            return self.duration_min * self.rpe
        return None

    @property
    def text(self) -> str:
        """Name, description and private note as one text, one sentence each."""
        parts = [p for p in (self.name, self.description, self.private_note) if p]
        return " ".join(p if p.rstrip()[-1:] in ".!?" else p + "." for p in parts)


def extract_from_activity(
    activity: ActivityIn, extractor: Extractor | None = None
) -> list[Candidate]:
    """Candidates from an activity's notes: source ACTIVITY_NOTE, source_ref its id,
    observed at the session's time."""
    text = activity.text
    if not text.strip():
        return []
    reader = extractor or RuleExtractor()
    found = reader.extract(
        text, source=Source.ACTIVITY_NOTE, source_ref=activity.id, observed_at=activity.observed_at
    )
    return [_one_session(c) for c in scrub(found)]


def _one_session(candidate: Candidate) -> Candidate:
    """A note describes one session: what it says about the athlete stays below the prompt
    until other sessions repeat it (or consolidation finds it across sessions)."""
    if isinstance(candidate, FactIn) and candidate.confidence > ONE_SESSION:
        return candidate.model_copy(update={"confidence": ONE_SESSION})
    return candidate
