"""The canonical UTC text: one form for storage and provenance, sorting like the times it holds."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from freezegun import freeze_time
from hypothesis import given
from hypothesis import strategies as st

from vault.domain.times import format_utc, parse_utc, utc_now

UTC = timezone.utc
# Any fixed offset strictly inside a day, at minute resolution (what real zones use).
offsets = st.integers(min_value=-(24 * 60 - 1), max_value=24 * 60 - 1).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
# Kept a day inside 0001..9999 so converting any offset to UTC stays in range.
moments = st.datetimes(
    min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30), timezones=offsets
)


@pytest.mark.parametrize(
    ("moment", "text"),
    [
        (datetime(2026, 3, 2, 7, 30, tzinfo=UTC), "2026-03-02T07:30:00.000000Z"),
        (datetime(2026, 3, 2, 7, 30, 0, 123456, tzinfo=UTC), "2026-03-02T07:30:00.123456Z"),
        (datetime(2026, 3, 2, 7, 30, 0, 500000, tzinfo=UTC), "2026-03-02T07:30:00.500000Z"),
        # other offsets become UTC; the date may change
        (
            datetime(2026, 3, 2, 1, 0, 0, 1, tzinfo=timezone(timedelta(hours=2))),
            "2026-03-01T23:00:00.000001Z",
        ),
        (datetime(999, 1, 1, tzinfo=UTC), "0999-01-01T00:00:00.000000Z"),  # years padded to 4
    ],
)
def test_format_utc_writes_the_canonical_text_and_parse_utc_reads_it_back(
    moment: datetime, text: str
) -> None:
    assert format_utc(moment) == text
    parsed = parse_utc(text)
    assert parsed == moment and parsed.tzinfo is UTC


def test_format_utc_refuses_a_naive_time() -> None:
    with pytest.raises(ValueError, match="must be timezone-aware"):
        format_utc(datetime(2026, 3, 2, 7, 30))


@pytest.mark.parametrize(
    "text",
    [
        "2026-03-02 07:30:00.000000",  # the pre-0003 SQLite form
        "2026-03-02T07:30:00Z",  # no fraction
        "2026-03-02T07:30:00.000+00:00",
        "2026-03-02T07:30:00.000000+00:00",  # isoformat(): an offset instead of Z
        "2026-03-02T07:30:00.000000z",
        "",
    ],
)
def test_parse_utc_accepts_only_the_canonical_form(text: str) -> None:
    with pytest.raises(ValueError, match="canonical UTC time"):
        parse_utc(text)


@freeze_time("2026-03-02 07:30:00.25")
def test_the_frozen_clock_formats_canonically() -> None:
    assert format_utc(utc_now()) == "2026-03-02T07:30:00.250000Z"
    assert parse_utc(format_utc(utc_now())) == utc_now()


@given(moments)
def test_round_trip_is_exact(moment: datetime) -> None:
    parsed = parse_utc(format_utc(moment))
    assert parsed == moment and parsed.tzinfo is UTC


@given(moments, moments)
def test_lexical_order_is_chronological_order(a: datetime, b: datetime) -> None:
    ta, tb = format_utc(a), format_utc(b)
    assert (ta < tb) == (a < b) and (ta == tb) == (a == b)
