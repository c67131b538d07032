"""`v.knowledge`: reference knowledge (exercises, injuries, races) looked up by name."""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from vault.domain.episodes import Knowledge, KnowledgeIn
from vault.domain.models import validated
from vault.facade.store import Store, moment
from vault.services import knowledge as services
from vault.services import privacy_gate
from vault.storage.repositories.episodes import KnowledgeRepository


def read_knowledge_files(paths: Sequence[str | os.PathLike[str]]) -> list[KnowledgeIn]:
    """Parse knowledge JSON files (a directory means every *.json in it), touching no
    database: check the input before opening a vault to load it."""
    return services.load_knowledge_files([Path(p) for p in paths])


class KnowledgeBase:
    """Load knowledge rows and find those a context names."""

    read_files = staticmethod(read_knowledge_files)

    def __init__(self, store: Store) -> None:
        self._store = store

    def load(
        self,
        source: str | os.PathLike[str] | Sequence[KnowledgeIn | dict[str, Any]],
        *,
        now: datetime | None = None,
        trusted: bool = False,
    ) -> tuple[int, int]:
        """Load knowledge (a JSON file, a directory of them, or rows); (added, updated).
        Every field passes the privacy gate unless `trusted`."""
        if isinstance(source, (str, os.PathLike)):
            items = services.load_knowledge_files([Path(source)])
        else:
            items = [validated(KnowledgeIn, item) for item in source]
        privacy_gate.check(privacy_gate.knowledge_fields(items), trusted=trusted)
        with self._store.write() as uow:
            return services.store_knowledge(uow, items, moment(now))

    def for_context(self, context: str) -> list[Knowledge]:
        """Knowledge rows whose name or alias appears in `context`."""
        with self._store.read() as connection:
            return services.lookup_knowledge(KnowledgeRepository(connection), context)
