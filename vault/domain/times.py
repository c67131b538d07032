"""Time is an input: one place reads the clock, everything else receives `now`."""

from __future__ import annotations

from datetime import datetime, timezone


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
