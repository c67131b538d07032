"""Stored facts and list items for tests that render or rank without a database.

Every field a stored row has gets a plain default; a test names only what it is about.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from vault.domain.models import Fact, ListItem
from vault.domain.vocabulary import Category, Kind, Source


def stored_fact(
    id: int,
    text: str,
    confidence: float = 0.8,
    *,
    at: datetime,
    learned_at: datetime | None = None,
    **fields: Any,
) -> Fact:
    """A fact as the repository hands it back, observed and reinforced `at`."""
    values: dict[str, Any] = {
        "id": id,
        "athlete_id": "ath",
        "text": text,
        "category": Category.GENERAL,
        "conflict_key": None,
        "source": Source.CONVERSATION,
        "source_ref": None,
        "extractor": None,
        "confidence": confidence,
        "occurrences": 1,
        "tags": (),
        "learned_at": learned_at or at,
        "observed_at": at,
        "last_reinforced_at": at,
        "updated_at": at,
    }
    return Fact(**(values | fields))


def stored_item(
    kind: Kind,
    id: int,
    text: str,
    confidence: float = 0.7,
    *,
    at: datetime,
    learned_at: datetime | None = None,
    **fields: Any,
) -> ListItem:
    """A pattern or note as the repository hands it back, reinforced `at`."""
    values: dict[str, Any] = {
        "id": id,
        "athlete_id": "ath",
        "kind": kind,
        "text": text,
        "source": Source.PATTERN_ANALYSIS,
        "source_ref": None,
        "extractor": None,
        "confidence": confidence,
        "occurrences": 1,
        "learned_at": learned_at or at,
        "last_reinforced_at": at,
        "updated_at": at,
    }
    return ListItem(**(values | fields))
