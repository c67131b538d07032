"""Where text comes from: conversations (athlete turns only) and activities (notes, provenance)."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from vault.domain.errors import InvalidInput
from vault.domain.models import Candidate, FactIn, Retraction
from vault.domain.vocabulary import Source
from vault.extraction import ActivityIn, Turn, extract_from_activity, mine_conversation

AT = datetime(2026, 3, 2, 7, 30, tzinfo=timezone.utc)


class Recorder:
    """A fake extractor that records what it was asked to read."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[tuple[str, Source, str | None, datetime | None]] = []

    def extract(
        self,
        text: str,
        *,
        source: Source,
        source_ref: str | None = None,
        observed_at: datetime | None = None,
    ) -> list[Candidate]:
        self.calls.append((text, source, source_ref, observed_at))
        return [
            FactIn(
                text=f"said {len(self.calls)}",
                source=source,
                source_ref=source_ref,
                observed_at=observed_at,
            )
        ]


def test_only_the_athletes_turns_are_mined() -> None:
    turns = [
        Turn(role="system", text="You are a running coach. The athlete prefers mornings."),
        Turn(role="assistant", text="You have a bad knee, right? Do you prefer evenings?"),
        Turn(role="coach", text="I run every morning myself."),
        Turn(role="user", text="I run most mornings", at=AT),
        Turn(role="athlete", text="and my knee is fine now", at=AT + timedelta(minutes=1)),
    ]
    found = mine_conversation(turns)
    assert [c.text for c in found if isinstance(c, FactIn)] == [
        "primary sport: running",
        "prefers morning sessions",
    ]
    assert [c.tags for c in found if isinstance(c, Retraction)] == [{"body:knee"}]
    assert all(
        c.source is Source.CONVERSATION and c.source_ref == AT.isoformat()
        for c in found
        if isinstance(c, FactIn)
    )


def test_turn_time_becomes_observation_time_and_reference() -> None:
    recorder = Recorder()
    turns = [
        {"role": "user", "text": "hello", "at": "2026-03-02T08:30:00+01:00"},
        {"role": "user", "text": "again"},
    ]
    mine_conversation(turns, recorder, conversation_ref="chat-9")
    (_, source, ref, at), (_, _, ref2, at2) = recorder.calls
    assert source is Source.CONVERSATION and ref == "2026-03-02T07:30:00+00:00" and at == AT
    assert ref2 == "chat-9" and at2 is None


def test_empty_turns_are_skipped_and_bad_turns_rejected() -> None:
    recorder = Recorder()
    assert (
        mine_conversation([Turn(role="user", text="   ")], recorder) == [] and recorder.calls == []
    )
    with pytest.raises(InvalidInput, match="role"):
        mine_conversation([{"role": "friend", "text": "hi"}])
    with pytest.raises(InvalidInput, match="timezone-aware"):
        mine_conversation([{"role": "user", "text": "hi", "at": "2026-03-02T08:30:00"}])


def test_conversation_output_is_scrubbed_even_from_a_custom_extractor() -> None:
    class Leaky(Recorder):
        def extract(self, text: str, **kwargs: object) -> list[Candidate]:
            return [FactIn(text="email is jo@example.com"), FactIn(text="likes hills")]

    assert [
        c.text
        for c in mine_conversation([Turn(role="user", text="x")], Leaky())
        if isinstance(c, FactIn)
    ] == ["likes hills"]


def test_activity_text_joins_name_description_and_private_note() -> None:
    activity = ActivityIn(
        id="a-1",
        started_at=AT,
        name="Morning run",
        description="8k easy",
        private_note="Left knee sore",
    )
    assert activity.text == "Morning run. 8k easy. Left knee sore."
    [fact] = extract_from_activity(activity)
    assert isinstance(fact, FactIn) and fact.text == "has left knee issue"
    assert (
        fact.source is Source.ACTIVITY_NOTE and fact.source_ref == "a-1" and fact.observed_at == AT
    )
    assert fact.extractor == "rules:injury"


def test_activity_passes_its_provenance_to_any_extractor() -> None:
    recorder = Recorder()
    extract_from_activity(ActivityIn(id="a-2", date=date(2026, 3, 1), name="Long run"), recorder)
    [(text, source, ref, at)] = recorder.calls
    assert (text, source, ref) == ("Long run.", Source.ACTIVITY_NOTE, "a-2")
    assert at == datetime(2026, 3, 1, 12, tzinfo=timezone.utc)  # date-only: noon UTC
    assert extract_from_activity(ActivityIn(id="a-3", date=date(2026, 3, 1)), recorder) == []


def test_activity_keeps_the_athletes_own_day_and_computes_load() -> None:
    sydney = timezone(timedelta(hours=10))
    activity = ActivityIn(
        id="a", started_at=datetime(2026, 3, 2, 6, 0, tzinfo=sydney), rpe=6, duration_min=50
    )
    assert activity.local_date == date(2026, 3, 2) and activity.observed_at.date() == date(
        2026, 3, 1
    )
    assert activity.effective_load == 300
    assert (
        ActivityIn(id="b", date=date(2026, 3, 2), load=120, rpe=9, duration_min=60).effective_load
        == 120
    )
    assert ActivityIn(id="c", date=date(2026, 3, 2), rpe=5).effective_load is None


@pytest.mark.parametrize(
    "fields",
    [
        {"id": "x"},
        {"id": "", "date": "2026-03-01"},
        {"id": "x", "started_at": "2026-03-01T07:00:00"},
        {"id": "x", "date": "2026-03-01", "rpe": 11},
        {"id": "x", "date": "2026-03-01", "rpe": 0},
        {"id": "x", "date": "2026-03-01", "load": -1},
        {"id": "x", "date": "2026-03-01", "load": "nan"},
        {"id": "x", "date": "2026-03-01", "colour": "red"},
    ],
)
def test_invalid_activities_are_rejected(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ActivityIn.model_validate(fields)
