"""Seed a new athlete's memory from their profile (the athlete-memory plan, open question 5).

A new athlete has no conversations yet, but the app already knows their sport, level, goal and
weekly hours. Turning those into facts means Josi never asks "what sport do you do?" on day one:

    Profile(sport="Run", level="Intermediate", goal="Half Marathon", weekly_hours=6,
            preferred_time="mornings")
    -> "primary sport: running", "level: intermediate", "goal: half marathon",
       "weekly hours: 6", "prefers morning sessions"

The texts use the engine guide's conflict-key labels, so a later conversation ("I've switched to
cycling") replaces them by the usual newer-wins rule. Every fact has source `profile_change`
(the contract's own word for it) and confidence 0.9: the athlete typed it, which is as sure as
the M13 spec's "high", yet below 1.0 because profiles go stale without anyone editing them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from vault.domain.errors import InvalidInput
from vault.domain.models import FactIn, validated
from vault.domain.text import clean_text
from vault.domain.times import require_aware
from vault.domain.vocabulary import LEVEL_CONFIDENCE, Category, Level, Source

PROFILE_CONFIDENCE = LEVEL_CONFIDENCE[Level.HIGH]  # 0.9
EXTRACTOR = "profile_bootstrap"

# The same canonical sport words as the rule extractor's tables (vault.extraction.lexicon).
_SPORT_WORDS: dict[str, tuple[str, ...]] = {
    "running": ("run", "runs", "running", "runner", "jog", "jogging", "jogger", "trail running"),
    "cycling": (
        "bike",
        "biking",
        "cycle",
        "cycling",
        "cyclist",
        "ride",
        "riding",
        "rider",
        "biker",
        "roadie",
        "road cycling",
        "mountain biking",
    ),
    "swimming": ("swim", "swimming", "swimmer"),
    "triathlon": ("tri", "triathlon", "triathlons", "triathlete"),
    "rowing": ("row", "rowing", "rower"),
}
SPORTS: dict[str, str] = {word: sport for sport, words in _SPORT_WORDS.items() for word in words}

# The times `vault.domain.text` recognises in "prefers <time> sessions" (the engine guide's conflict key).
TIMES = (
    "early morning",
    "morning",
    "midday",
    "lunchtime",
    "lunch",
    "afternoon",
    "evening",
    "night",
    "before work",
    "after work",
    "weekend",
    "weekday",
)
_TIME_ALIASES = {"am": "morning", "pm": "evening", "noon": "midday", "weekends": "weekend"}


def normalize_sport(value: str) -> str:
    """Map sport words to one name ("Run" -> "running"); unknown sports are only lower-cased."""
    word = clean_text(value).lower()
    return SPORTS.get(word, word)


def normalize_time(value: str) -> str:
    """Map a time of day to one of `TIMES` ("Mornings" -> "morning"); refuse anything else."""
    word = clean_text(value).lower()
    word = _TIME_ALIASES.get(word, word)
    if word not in TIMES and word.endswith("s") and word[:-1] in TIMES:
        word = word[:-1]
    if word not in TIMES:
        raise ValueError(f"unknown preferred time {value!r}; use one of: {', '.join(TIMES)}")
    return word


def _words(value: str) -> str:
    cleaned = clean_text(value).lower()
    if not cleaned:
        raise ValueError("must not be blank")
    return cleaned


Words = Annotated[str, Field(max_length=120), AfterValidator(_words)]


class Profile(BaseModel):
    """What the app's profile already says about an athlete; every field is optional."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True
    )

    sport: Annotated[Words, AfterValidator(normalize_sport)] | None = None
    level: Words | None = None
    goal: Words | None = None
    weekly_hours: Annotated[float, Field(gt=0, le=168, allow_inf_nan=False)] | None = None
    preferred_time: Annotated[Words, AfterValidator(normalize_time)] | None = None


def facts_from_profile(profile: Profile | dict[str, Any], now: datetime) -> list[FactIn]:
    """The canonical facts for `profile`, observed at `now`, in a fixed order.

    Raises:
        InvalidInput: the profile is invalid, or `now` is naive.
    """
    profile = validated(Profile, profile)
    try:
        observed = require_aware(now, "now")
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None
    texts: list[tuple[str, Category]] = []
    if profile.sport:
        texts.append((f"primary sport: {profile.sport}", Category.SPORT))
    if profile.level:
        texts.append((f"level: {profile.level}", Category.LEVEL))
    if profile.goal:
        texts.append((f"goal: {profile.goal}", Category.GOAL))
    if profile.weekly_hours is not None:
        texts.append((f"weekly hours: {round(profile.weekly_hours, 2):g}", Category.CONTEXT))
    if profile.preferred_time:
        texts.append((f"prefers {profile.preferred_time} sessions", Category.TIME_PREFERENCE))
    return [
        validated(
            FactIn,
            {
                "text": text,
                "category": category,
                "source": Source.PROFILE_CHANGE,
                "extractor": EXTRACTOR,
                "confidence": PROFILE_CONFIDENCE,
                "observed_at": observed,
            },
        )
        for text, category in texts
    ]
