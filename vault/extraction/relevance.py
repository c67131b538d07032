"""The M13 spec §5.5's relevance scoring: which memories matter for the message at hand.

Score of an item against a context text:
    +2 per content word shared with the context (stop-words ignored, words stemmed, so
       "knees"/"knee" and "running"/"runs" match),
    +5 per entity tag whose entity appears in the context (`body:knee` and "my knee hurts"),
    +3 for high confidence, +1 for medium (vault.domain.vocabulary.level_of),
    +2 if reinforced in the last 7 days, +1 in the last 30.
The M13 spec keeps every item scoring above 0, but confidence and recency alone give almost every
item a positive score, so an item must also share a word or a tag with the context to be
returned at all. Ties break on confidence, then the most recently reinforced, then kind (facts
before patterns before notes) and id, so the order is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from vault.domain.models import Fact, ListItem
from vault.domain.text import entity_tags
from vault.domain.times import require_aware
from vault.domain.vocabulary import Category, Kind, Level, level_of
from vault.extraction.words import content_stems

Item = Fact | ListItem
_KIND_ORDER = {Kind.FACT: 0, Kind.PATTERN: 1, Kind.NOTE: 2}
_TAG_SOURCES = (Category.INJURY, Category.PREFERENCE, Category.CONTEXT)


def item_tags(item: Item) -> frozenset[str]:
    """A fact's stored tags; for patterns and notes, the entity tags their text implies."""
    if isinstance(item, Fact):
        return frozenset(item.tags)
    tags: set[str] = set()
    for category in _TAG_SOURCES:
        tags |= entity_tags(item.text, category)
    return frozenset(tags)


def relevance_score(item: Item, context: str, now: datetime) -> tuple[int, bool]:
    """(score, matched): the the M13 spec score, and whether a word or tag matched at all."""
    return _score(item, content_stems(context), now)


def _score(item: Item, context_stems: frozenset[str], now: datetime) -> tuple[int, bool]:
    overlap = len(content_stems(item.text) & context_stems)
    tag_hits = sum(
        1
        for tag in item_tags(item)
        if (entity := content_stems(tag.partition(":")[2])) and entity <= context_stems
    )
    score = 2 * overlap + 5 * tag_hits
    level = level_of(item.confidence)
    score += 3 if level is Level.HIGH else 1 if level is Level.MEDIUM else 0
    age_days = (now - item.last_reinforced_at).days
    score += 2 if age_days < 7 else 1 if age_days < 30 else 0
    return score, bool(overlap or tag_hits)


def rank_relevant(items: Sequence[Item], context: str, now: datetime, limit: int = 5) -> list[Item]:
    """The `limit` items most relevant to `context`, best first (see the module docstring)."""
    now = require_aware(now, "now")
    if limit <= 0:
        return []
    context_stems = content_stems(context)
    scored = []
    for item in items:
        score, matched = _score(item, context_stems, now)
        if matched:
            scored.append((score, item))
    scored.sort(
        key=lambda pair: (
            -pair[0],
            -pair[1].confidence,
            -pair[1].last_reinforced_at.timestamp(),
            _KIND_ORDER[pair[1].kind],
            pair[1].id,
        )
    )
    return [item for _, item in scored[:limit]]
