"""The closed word lists of the vault: kinds, categories, sources, archive reasons, levels."""

from __future__ import annotations

from enum import Enum

from vault.domain.limits import HIGH, MEDIUM


class Kind(str, Enum):
    """What sort of memory item a row is."""

    FACT = "fact"
    PATTERN = "pattern"
    NOTE = "note"


class Category(str, Enum):
    """Fact categories: the engine guide's conflict categories plus the M13 spec's memory types."""

    SPORT = "sport"
    GOAL = "goal"
    DURATION = "duration"
    TIME_PREFERENCE = "time_preference"
    LEVEL = "level"
    INJURY = "injury"
    PREFERENCE = "preference"
    CONTEXT = "context"
    TRAINING_RESPONSE = "training_response"
    INSIGHT = "insight"
    GENERAL = "general"


# Names used by the seeds for the same categories.
CATEGORY_ALIASES: dict[str, Category] = {
    "primary_sport": Category.SPORT,
    "typical_duration": Category.DURATION,
    "injury_history": Category.INJURY,
    "lifestyle": Category.CONTEXT,
}


def parse_category(value: str) -> Category:
    """Accept a category by its name or a seed alias (`injury_history`, `lifestyle`, ...)."""
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    if key in CATEGORY_ALIASES:
        return CATEGORY_ALIASES[key]
    try:
        return Category(key)
    except ValueError:
        known = ", ".join(c.value for c in Category)
        raise ValueError(f"unknown category {value!r}; use one of: {known}") from None


class Source(str, Enum):
    """Where a memory came from (the engine guide's and the M13 spec's vocabularies together)."""

    CONVERSATION = "conversation"
    USER_MESSAGE = "user_message"
    ACTIVITY_NOTE = "activity_note"
    BEHAVIOR = "behavior"
    PATTERN_ANALYSIS = "pattern_analysis"
    PROFILE_CHANGE = "profile_change"
    MANUAL = "manual"


# The `athlete_memory` JSON contract (the athlete-memory plan §2a) only knows three sources.
CONTRACT_SOURCE: dict[Source, str] = {
    Source.CONVERSATION: "conversation",
    Source.USER_MESSAGE: "conversation",
    Source.MANUAL: "conversation",
    Source.ACTIVITY_NOTE: "behavior",
    Source.BEHAVIOR: "behavior",
    Source.PATTERN_ANALYSIS: "behavior",
    Source.PROFILE_CHANGE: "profile_change",
}


class ArchiveReason(str, Enum):
    """Why an item left the active set."""

    SUPERSEDED = "superseded"  # a newer value for the same conflict key replaced it
    MERGED = "merged"  # a newer text about the same entity took it over (the M13 spec step 2)
    RESOLVED = "resolved"  # the athlete said it no longer holds ("my knee is fine now")
    DECAYED = "decayed"  # confidence fell below the floor
    CAPPED = "capped"  # pushed out by the 15 / 5 / 5 caps
    EDITED = "edited"  # the athlete rewrote it (memory page, MCP): `superseded_by` the new text


class Level(str, Enum):
    """The M13 spec's confidence words, derived from the numeric confidence."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


def level_of(confidence: float) -> Level:
    """high >= 0.8, medium >= 0.5, low below."""
    if confidence >= HIGH:
        return Level.HIGH
    if confidence >= MEDIUM:
        return Level.MEDIUM
    return Level.LOW


# Representative confidence for each the M13 spec level when only the word is known.
LEVEL_CONFIDENCE: dict[Level, float] = {Level.HIGH: 0.9, Level.MEDIUM: 0.6, Level.LOW: 0.4}
