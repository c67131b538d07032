"""The peer column: LangGraph's `SqliteStore` (package `langgraph-checkpoint-sqlite`, extra
`bench`) doing less than vault on the same SQLite settings.

- reading the top facts: `store.search(namespace, limit=15)` against `Vault.top_facts`;
- remembering a fact: the app's own `search` + dedup by text + `put`, against `Vault.remember`.

The store holds each athlete's active facts (copied from the vault file before timing) as one
item per fact under the namespace ("athletes", id, "facts"). It knows nothing of confidence,
conflicts, decay, caps or privacy: that is the "doing less".
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from vault.domain.text import normalize_text

INSTALL = "pip install 'vault[bench]' adds LangGraph's SqliteStore as a peer column"


def available() -> bool:
    try:
        import langgraph.store.sqlite  # noqa: F401
    except ImportError:
        return False
    return True


class Peer:
    """A SqliteStore on its own file, with vault's connection settings."""

    def __init__(self, path: Path) -> None:
        from langgraph.store.sqlite import SqliteStore

        self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        for pragma in (
            "journal_mode=WAL",
            "synchronous=NORMAL",
            "busy_timeout=5000",
            "foreign_keys=ON",
            "secure_delete=ON",
        ):
            self.conn.execute(f"PRAGMA {pragma}")
        self.store: Any = SqliteStore(self.conn)
        self.store.setup()

    def close(self) -> None:
        self.conn.close()

    def load(self, facts: dict[str, list[tuple[int, str, float]]]) -> None:
        from langgraph.store.base import PutOp

        ops = [
            PutOp(_namespace(athlete), str(fact_id), {"text": text, "confidence": confidence})
            for athlete, rows in facts.items()
            for fact_id, text, confidence in rows
        ]
        for start in range(0, len(ops), 5000):
            self.store.batch(ops[start : start + 5000])

    def top(self, athlete: str) -> list[Any]:
        return list(self.store.search(_namespace(athlete), limit=15))

    def remember(self, athlete: str, text: str, key: str) -> None:
        """What an app does on top of the store: look, dedup by normalized text, put."""
        namespace = _namespace(athlete)
        wanted = normalize_text(text)
        for item in self.store.search(namespace, limit=15):
            if normalize_text(item.value["text"]) == wanted:
                value = dict(item.value, confidence=min(1.0, item.value["confidence"] + 0.1))
                self.store.put(namespace, item.key, value)
                return
        self.store.put(namespace, key, {"text": text, "confidence": 0.8})


def _namespace(athlete: str) -> tuple[str, ...]:
    return ("athletes", athlete, "facts")
