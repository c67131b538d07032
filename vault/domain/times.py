"""Time is an input: one place reads the clock, everything else receives `now`."""

from __future__ import annotations

from datetime import datetime, timezone

from vault.domain.limits import TIME_MAX, TIME_MIN


def utc_now() -> datetime:
    """The current time, timezone-aware UTC (freezegun controls it in tests)."""
    return datetime.now(timezone.utc)


def require_aware(value: datetime, name: str = "time") -> datetime:
    """Return `value` converted to UTC; reject naive datetimes with a clear message."""
    if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
        raise ValueError(
            f"{name} must be timezone-aware (e.g. 2026-03-01T08:00:00+00:00 or ...Z), got {value.isoformat()}"
        )
    return value.astimezone(timezone.utc)


def in_range(value: datetime, name: str = "time") -> datetime:
    """`value` in UTC, or ValueError: naive, or outside the years vault accepts (TIME_MIN up to
    TIME_MAX, 1900-2500 UTC). The one time rule of every input path: merge, episodes, activities,
    vault-export documents, memories.yaml, `now`.

    Converting 0001-01-01T00:00:00+01:00 or 9999-12-31T23:30:00-01:00 to UTC leaves the
    calendar (OverflowError); both are refused as out of range instead.
    """
    try:
        utc = require_aware(value, name)
    except OverflowError:
        utc = None
    if utc is None or not TIME_MIN <= utc < TIME_MAX:
        raise ValueError(
            f"{name} is out of range: {value.isoformat()} is not a time between "
            f"{TIME_MIN:%Y-%m-%d} and {TIME_MAX:%Y-%m-%d} UTC"
        )
    return utc


def parse_iso_time(text: str, name: str = "time") -> datetime:
    """Parse an ISO-8601 / RFC 3339 time with an offset (`Z` allowed) into aware UTC.

    Digits past microseconds (chrono writes up to nanoseconds) are truncated.
    """
    raw = text.strip()
    if raw.endswith(("Z", "z")):
        raw = raw[:-1] + "+00:00"
    raw = _truncate_fraction(raw)
    try:
        parsed = datetime.fromisoformat(raw)
    except ValueError:
        raise ValueError(f"{name} is not an ISO-8601 time: {text!r}") from None
    return require_aware(parsed, name)


def _truncate_fraction(raw: str) -> str:
    """Cut a fractional second to at most 6 digits (Python's resolution)."""
    dot = raw.find(".", raw.find("T") if "T" in raw else raw.find(" "))
    if dot < 0:
        return raw
    end = dot + 1
    while end < len(raw) and raw[end].isdigit():
        end += 1
    digits = raw[dot + 1 : end]
    if len(digits) <= 6:
        return raw
    return raw[: dot + 1] + digits[:6] + raw[end:]


_CANONICAL = "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ"


def _reads_z() -> bool:
    try:
        datetime.fromisoformat("2000-01-01T00:00:00.000000Z")
    except ValueError:  # Python 3.10
        return False
    return True


_READS_Z = _reads_z()


def format_utc(value: datetime, name: str = "time") -> str:
    """The canonical UTC text of an aware time: `2026-03-02T07:30:00.000000Z`.

    Always `T`, six fraction digits and `Z`, so the text sorts lexically in chronological order
    (years 0001-9999). SQLite stores every vault time this way and `source_ref` holds it. On the
    hot write path: %-formatting is about 3x faster than isoformat(timespec=...) or strftime.
    """
    utc = value if value.tzinfo is timezone.utc else require_aware(value, name)
    return _CANONICAL % (
        utc.year,
        utc.month,
        utc.day,
        utc.hour,
        utc.minute,
        utc.second,
        utc.microsecond,
    )


def parse_utc(text: str) -> datetime:
    """Parse the canonical text of `format_utc` back into an aware UTC datetime (hot read path).

    Only the canonical form is accepted; anything else (another offset, a naive value, missing
    fraction digits) raises ValueError instead of being guessed at. From Python 3.11
    `fromisoformat` reads the `Z` itself and returns `timezone.utc` (no slicing, no `replace`,
    which costs several times the parse); Python 3.10 gets the offset spelled out.
    """
    if len(text) != 27 or text[26] != "Z" or text[10] != "T" or text[19] != ".":
        raise ValueError(f"not a canonical UTC time (YYYY-MM-DDTHH:MM:SS.ffffffZ): {text!r}")
    return datetime.fromisoformat(text if _READS_Z else text[:26] + "+00:00")
