"""Calendar dates, the first conversation and the vector maths (pure)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from vault.domain.embedding import cosine, cosines, pack, unpack
from vault.domain.episode_query import analyze
from vault.domain.errors import InvalidInput

NOW = datetime(2023, 5, 10, 12, 0, tzinfo=timezone.utc)


def day_of(query: str, now: datetime = NOW) -> str | None:
    window = analyze(query, now).window
    return None if window is None else window.start.date().isoformat()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("On May 4th, what did I say?", "2023-05-04"),
        ("what did we talk about on April 27th", "2023-04-27"),
        ("the 3rd of May", "2023-05-03"),
        ("on 2 May", "2023-05-02"),
        ("on 2021-12-25", "2021-12-25"),
        ("May 11, 2022", "2022-05-11"),
        ("December 24th", "2022-12-24"),  # not yet this year: last year's
    ],
)
def test_a_calendar_date_is_its_day(query: str, expected: str) -> None:
    assert day_of(query) == expected


def test_no_real_day_is_no_day() -> None:
    assert day_of("February 30th") == "2023-02-01"  # the month, as before: not a made-up day
    assert day_of("May I ask you something") is None
    assert analyze("On May 4th", NOW, dates=False).window is None  # bare "may" is not a month


def test_the_date_is_not_a_word_to_find() -> None:
    assert [g.stem for g in analyze("On May 4th, which movie?", NOW).groups] == ["movi"]


def test_the_first_conversation_is_asked_for() -> None:
    assert analyze("what did we discuss in our first conversation?", NOW).wants_first
    assert not analyze("the first time I ran a marathon", NOW).wants_first


def test_vectors_pack_and_compare() -> None:
    blob = pack([3.0, 4.0], 2)
    assert len(blob) == 8 and list(unpack(blob)) == [3.0, 4.0]
    assert cosines([3.0, 4.0], [blob, pack([0.0, 0.0], 2), pack([-4.0, 3.0], 2)]) == pytest.approx(
        [1.0, 0.0, 0.0]
    )
    assert cosine([1.0, 0.0], [0.0, 0.0]) == 0.0
    with pytest.raises(InvalidInput, match="3 values, its dim is 2"):
        pack([1.0, 2.0, 3.0], 2)
    with pytest.raises(InvalidInput, match="not finite"):
        pack([1.0, float("nan")], 2)


def test_numpy_and_plain_python_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    from vault.domain import embedding

    assert embedding._numpy() is not None  # the test extra installs it: both paths run here
    blobs = [pack([float(i % 7) - 3.0, float(i % 5), 0.5, -1.0], 4) for i in range(50)]
    blobs.append(pack([0.0, 0.0, 0.0, 0.0], 4))
    query = [0.3, -1.2, 2.0, 0.1]
    fast = embedding.cosines(query, blobs)
    monkeypatch.setattr(embedding, "_numpy", lambda: None)
    assert embedding.cosines(query, blobs) == pytest.approx(fast, abs=1e-6)
    assert fast[-1] == 0.0


@pytest.mark.parametrize(
    ("query", "start", "end"),
    [
        ("what happened in 2022", "2022-01-01", "2023-01-01"),
        ("my races last year", "2022-01-01", "2023-01-01"),
        ("back in May 2021", "2021-05-01", "2021-06-01"),
    ],
)
def test_years_and_months_of_a_year(query: str, start: str, end: str) -> None:
    window = analyze(query, NOW).window
    assert window is not None
    assert (window.start.date().isoformat(), window.end.date().isoformat()) == (start, end)


def test_the_span_around_an_event_can_be_a_day_a_week_or_a_month() -> None:
    spans = {
        q: analyze(q, NOW).anchor
        for q in (
            "the week before the race",
            "the day after my marathon",
            "the month before the race",
            "before the race",
        )
    }
    assert [a.span.days for a in spans.values() if a] == [7, 1, 30, 14]
