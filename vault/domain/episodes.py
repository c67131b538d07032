"""Episodes and reference knowledge: input/output models, store triggers, caps (pure).

An episode is something that happened to an owner (an athlete, or a game agent): text, a type,
an outcome, when it occurred, the app's own reference id and the episodic-memory design's metadata (location,
person / npc, item, outcome, day). Whether an observed event is stored at all is decided by a
`StorePolicy` (the episodic-memory design "Memory Triggers"): some types are always remembered, others only when a
condition holds (the text asks to remember, the outcome was an unexpected failure, a long stay).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from vault.domain.limits import (
    EPISODE_TEXT_MAX,
    EPISODE_TYPE_MAX,
    KNOWLEDGE_KIND_MAX,
    KNOWLEDGE_NAME_MAX,
    META_KEYS_MAX,
    META_VALUE_MAX,
    REF_MAX,
)
from vault.domain.text import clean_text
from vault.domain.times import in_range

DEFAULT_TYPE = "note"

# the episodic-memory design's metadata keys (any other short key is kept too)
META_KEYS = ("location", "person", "npc", "item", "outcome", "day")
PEOPLE_KEYS = ("person", "npc")
PLACE_KEYS = ("location",)

MetaValue = str | int | float | bool | None


class EpisodeIn(BaseModel):
    """One episode to record. `occurred_at` defaults to the time of the write."""

    text: str
    type: str = DEFAULT_TYPE
    outcome: str | None = None
    occurred_at: datetime | None = Field(default=None, alias="at")
    ref: str | None = None
    meta: dict[str, MetaValue] = Field(default_factory=dict)

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)

    @field_validator("text")
    @classmethod
    def _text(cls, value: str) -> str:
        text = clean_text(value)
        if not text:
            raise ValueError("must not be empty")
        if len(text) > EPISODE_TEXT_MAX:
            raise ValueError(f"at most {EPISODE_TEXT_MAX} characters, got {len(text)}")
        return text

    @field_validator("type", "outcome")
    @classmethod
    def _word(cls, value: str | None) -> str | None:
        if value is None:
            return None
        word = clean_text(value).lower().replace(" ", "_")
        if not word or len(word) > EPISODE_TYPE_MAX:
            raise ValueError(f"must be 1 to {EPISODE_TYPE_MAX} characters")
        return word

    @field_validator("ref")
    @classmethod
    def _ref(cls, value: str | None) -> str | None:
        if value is None:
            return None
        ref = value.strip()
        if not ref or len(ref) > REF_MAX:
            raise ValueError(f"must be 1 to {REF_MAX} characters")
        return ref

    @field_validator("occurred_at")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return None if value is None else in_range(value, "at")

    @field_validator("meta")
    @classmethod
    def _meta(cls, value: dict[str, MetaValue]) -> dict[str, MetaValue]:
        if len(value) > META_KEYS_MAX:
            raise ValueError(f"at most {META_KEYS_MAX} keys")
        cleaned: dict[str, MetaValue] = {}
        for key, item in value.items():
            name = clean_text(key).lower()
            if not name or len(name) > 40:
                raise ValueError(f"bad metadata key {key!r}")
            if isinstance(item, float) and not math.isfinite(item):
                raise ValueError(f"{name}: numbers must be finite")
            if isinstance(item, str):
                item = clean_text(item)
                if len(item) > META_VALUE_MAX:
                    raise ValueError(f"{name}: at most {META_VALUE_MAX} characters")
            cleaned[name] = item
        return dict(sorted(cleaned.items()))

    def outcome_value(self) -> str | None:
        """The outcome column: the field, else metadata's `outcome`."""
        if self.outcome is not None:
            return self.outcome
        found = self.meta.get("outcome")
        return None if found is None else str(found).lower()[:EPISODE_TYPE_MAX]


def meta_json(meta: dict[str, MetaValue]) -> str:
    """The stored metadata text: sorted keys, compact, unicode kept (byte-stable)."""
    return json.dumps(meta, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class ScoreParts(BaseModel):
    """The parts of a recall score before their weights, each in 0..1 except `neighbour`, up to
    `Weights.reply` / `Weights.neighbour` (2 by default) for a reply to a question (see
    vault.domain.episode_rank)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    text: float = 0.0
    entity: float = 0.0
    time: float = 0.0
    recency: float = 0.0
    type: float = 0.0
    vector: float = 0.0
    neighbour: float = 0.0
    speaker: float = 0.0
    answer: float = 0.0
    session: float = 0.0


class Episode(BaseModel):
    """A stored episode, as recall and listings return it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    id: int
    owner_id: str
    ref: str | None
    type: str
    outcome: str | None
    text: str
    occurred_at: datetime
    meta: dict[str, Any]
    score: float = 0.0
    parts: ScoreParts = ScoreParts()


class Topic(BaseModel):
    """What an owner's conversations were about: a word or phrase used, how often, first and
    last (one row of the `conversation_topics` view)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    topic: str
    mention_count: int
    first_mentioned: datetime
    last_mentioned: datetime


class AddEpisodesResult(BaseModel):
    """What `add_episodes` did: ids stored (in input order), refs already present, skips, caps."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    added: tuple[int, ...] = ()
    updated: tuple[int, ...] = ()
    skipped: tuple[tuple[int, str], ...] = ()  # (input index, reason)
    archived: int = 0
    redacted: tuple[tuple[int, tuple[str, ...]], ...] = ()  # (input index, kinds redacted)


class KnowledgeIn(BaseModel):
    """A static fact sheet about a named entity, with optional aliases."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: str
    name: str
    attributes: dict[str, Any] = Field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    @field_validator("kind")
    @classmethod
    def _kind(cls, value: str) -> str:
        kind = clean_text(value).lower()
        if not kind or len(kind) > KNOWLEDGE_KIND_MAX:
            raise ValueError(f"must be 1 to {KNOWLEDGE_KIND_MAX} characters")
        return kind

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        name = clean_text(value)
        if not name or len(name) > KNOWLEDGE_NAME_MAX:
            raise ValueError(f"must be 1 to {KNOWLEDGE_NAME_MAX} characters")
        return name

    def name_keys(self) -> list[str]:
        """The lookup keys: the name and each alias, lower-cased, unique, in order."""
        keys: list[str] = []
        for name in (self.name, *self.aliases):
            key = name_key(name)
            if key and key not in keys and len(key) <= KNOWLEDGE_NAME_MAX:
                keys.append(key)
        return keys


class Knowledge(BaseModel):
    """A stored knowledge row."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    id: int
    kind: str
    name: str
    attributes: dict[str, Any]


def name_key(name: str) -> str:
    """How a name is looked up: lower case, white space folded."""
    return " ".join(clean_text(name).lower().split())


# -- the episodic-memory design's memory triggers ----------------------------------------------------------------

SEED_ALWAYS_REMEMBER = frozenset(
    {"npc_interaction", "item_obtained", "location_first", "death", "tool_upgrade"}
)
COACH_ALWAYS_REMEMBER = frozenset({"race", "injury", "illness", "personal_best", "conversation"})
NOTABLE_WORDS = ("remember this", "notable", "important")
FAILED_OUTCOMES = frozenset({"failed", "failure", "fail", "negative", "unexpected_failure"})


@dataclass(frozen=True)
class StorePolicy:
    """Which observed events become episodes (the episodic-memory design §3, configurable).

    - `always`: types stored whatever happened.
    - otherwise stored when the text holds one of `notable_words`, when the outcome is a failure
      (`failed_outcomes`; the episodic-memory design "action failed unexpectedly") and `store_failures` is on, or
      when metadata `minutes` (time spent in a location) is at least `long_stay_minutes`.
    """

    always: frozenset[str] = SEED_ALWAYS_REMEMBER | COACH_ALWAYS_REMEMBER
    notable_words: tuple[str, ...] = NOTABLE_WORDS
    store_failures: bool = True
    failed_outcomes: frozenset[str] = FAILED_OUTCOMES
    long_stay_minutes: float | None = 60.0
    extra: frozenset[str] = field(default_factory=frozenset)  # more always-remembered types

    def decide(self, episode: EpisodeIn) -> str | None:
        """Why `episode` is stored (`always`, `notable`, `failed`, `long_stay`), or None to skip."""
        if episode.type in self.always or episode.type in self.extra:
            return "always"
        lowered = episode.text.lower()
        if any(word in lowered for word in self.notable_words):
            return "notable"
        outcome = episode.outcome_value()
        if self.store_failures and outcome is not None and outcome in self.failed_outcomes:
            return "failed"
        minutes = episode.meta.get("minutes")
        if (
            self.long_stay_minutes is not None
            and isinstance(minutes, (int, float))
            and not isinstance(minutes, bool)
            and minutes >= self.long_stay_minutes
        ):
            return "long_stay"
        return None
