"""The one place the MCP server calls the vault: every name of the facade it uses.

Each method is a thin pass-through to a public `Vault` method, so the same validation, privacy
filter and one-transaction-per-operation apply as for any other caller. When the facade is
split by resource (`v.episodes`, `v.knowledge`, ...), only the names below change.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from vault.api import Vault
from vault.domain.corrections import Edited, Removed
from vault.domain.episodes import AddEpisodesResult, Episode, Topic
from vault.domain.models import (
    Archived,
    AthleteMemory,
    AthleteSummary,
    Fact,
    ForgetResult,
    ListItem,
    MergeResult,
)
from vault.prompt import render_markdown
from vault.prompt.memory_block import MemoryBlock


class VaultPort:
    """The facade methods the MCP tools need, nothing else."""

    def __init__(self, vault: Vault) -> None:
        self.vault = vault

    # -- reads
    def memory_block(self, athlete_id: str, budget: int) -> MemoryBlock:
        return self.vault.memory_block(athlete_id, budget=budget)

    def memory(self, athlete_id: str) -> AthleteMemory:
        return self.vault.memory(athlete_id)

    def markdown(self, athlete_id: str) -> str:
        return render_markdown(self.vault.memory(athlete_id))

    def relevant(self, athlete_id: str, query: str, limit: int) -> list[Fact | ListItem]:
        return self.vault.relevant(athlete_id, query, limit)

    def summary(self, athlete_id: str) -> AthleteSummary | None:
        return self.vault.summary(athlete_id)

    def history(self, fact_id: int) -> tuple[list[Archived], int | None]:
        return self.vault.history(fact_id)

    def recall(self, athlete_id: str, query: str, limit: int) -> list[Episode]:
        return self.vault.episodes.recall(athlete_id, query, k=limit)

    def topics(self, athlete_id: str, about: str | None, limit: int) -> list[Topic]:
        return self.vault.episodes.topics(athlete_id, limit=limit, about=about)

    # -- writes (each one transaction in the facade)
    def merge(
        self, athlete_id: str, candidate: dict[str, Any], now: datetime | None
    ) -> MergeResult:
        return self.vault.merge(athlete_id, [candidate], now)

    def learn_message(self, athlete_id: str, text: str, now: datetime | None) -> MergeResult:
        return self.vault.ingest_message(athlete_id, text, now=now)

    def learn_activity(
        self, athlete_id: str, activity: dict[str, Any], now: datetime | None
    ) -> MergeResult:
        return self.vault.ingest_activity(athlete_id, activity, now=now)

    def add_episode(
        self, athlete_id: str, text: str, now: datetime | None, **fields: Any
    ) -> AddEpisodesResult:
        return self.vault.episodes.add_one(athlete_id, text, now=now, **fields)

    def forget(self, athlete_id: str, query: str) -> ForgetResult:
        return self.vault.forget(athlete_id, query)

    def edit_item(self, athlete_id: str, kind: str, item_id: int, text: str) -> Edited:
        return self.vault.items.edit(athlete_id, kind, item_id, text)

    def remove_item(self, athlete_id: str, kind: str, item_id: int, wrong: bool) -> Removed:
        items = self.vault.items
        return (items.reject if wrong else items.delete)(athlete_id, kind, item_id)
