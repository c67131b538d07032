"""What each page shows, read through the public library only (no HTML here)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Union

from vault.api import Vault
from vault.domain.episodes import Episode
from vault.domain.models import Archived, AthleteSummary, Evidence, Fact, ListItem
from vault.facade.store import EngineWritesNotApplied
from vault.prompt.memory_block import MemoryBlock

EPISODES_PER_PAGE = 20
RECALLED = 20

Item = Union[Fact, ListItem]


@dataclass
class ShownItem:
    """One fact, pattern or note with why it is there and what it replaced."""

    item: Item
    evidence: list[Evidence] = field(default_factory=list)
    history: list[Archived] = field(default_factory=list)


@dataclass
class AthletePage:
    athlete_id: str
    block: MemoryBlock
    facts: list[ShownItem]
    patterns: list[ShownItem]
    notes: list[ShownItem]
    episodes: list[Episode]
    episode_count: int
    page: int
    pages: int
    query: str
    recalled: list[Episode] | None
    engine_waiting: int


def athletes(vault: Vault, served: tuple[str, ...] | None, query: str) -> list[AthleteSummary]:
    """The athletes shown on the first page (only the served ones), filtered by `query`."""
    if served is None:
        found = vault.summaries()
    else:
        found = [s for s in (vault.summary(a) for a in served) if s is not None]
    wanted = query.strip().casefold()
    return [s for s in found if wanted in s.athlete_id.casefold()]


def athlete_page(vault: Vault, athlete_id: str, *, page: int, query: str) -> AthletePage:
    with warnings.catch_warnings():  # the page shows the engine's waiting writes itself
        warnings.simplefilter("ignore", EngineWritesNotApplied)
        block = vault.memory_block(athlete_id)  # exactly what `vault prompt ATHLETE` prints
        memory = vault.memory(athlete_id)
    why = vault.why([f.id for f in memory.facts]) if memory.facts else {}
    archive = vault.archive(athlete_id)
    count = vault.episodes.count(athlete_id)
    pages = max(1, -(-count // EPISODES_PER_PAGE))
    page = min(max(page, 1), pages)
    episodes = vault.episodes.newest(
        athlete_id, limit=EPISODES_PER_PAGE, offset=(page - 1) * EPISODES_PER_PAGE
    )
    recalled = vault.episodes.recall(athlete_id, query, k=RECALLED) if query.strip() else None

    def shown(items: tuple[Item, ...]) -> list[ShownItem]:
        return [
            ShownItem(i, why.get(i.id, []) if isinstance(i, Fact) else [], _history(i, archive))
            for i in items
        ]

    return AthletePage(
        athlete_id=athlete_id,
        block=block,
        facts=shown(memory.facts),
        patterns=shown(memory.patterns),
        notes=shown(memory.notes),
        episodes=episodes,
        episode_count=count,
        page=page,
        pages=pages,
        query=query,
        recalled=recalled,
        engine_waiting=vault.admin.engine_writes_waiting(),
    )


def find_item(vault: Vault, athlete_id: str, kind: str, item_id: int) -> Item | None:
    memory = vault.memory(athlete_id)
    items: list[Item] = [*memory.facts, *memory.patterns, *memory.notes]
    for item in items:
        if item.kind.value == kind and item.id == item_id:
            return item
    return None


def _history(item: Item, archive: list[Archived]) -> list[Archived]:
    """What the item replaced, directly or through earlier replacements, oldest first."""
    replaced: list[Archived] = []
    frontier, seen = [item.id], set()
    while frontier:
        current = frontier.pop()
        if current in seen:
            continue
        seen.add(current)
        for row in archive:
            if row.kind is item.kind and row.superseded_by == current:
                replaced.append(row)
                if row.original_id is not None:
                    frontier.append(row.original_id)
    return sorted(replaced, key=lambda a: (a.archived_at, a.id))
