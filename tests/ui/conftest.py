"""The memory page's fixtures: a vault with one athlete worth looking at."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the memory page's extra (vault[ui]) is not installed")

from vault import FactIn, NoteIn, PatternIn, Vault, open_vault  # noqa: E402

SCRIPT = "<script>alert('x')</script> likes hill repeats"
MESSAGE = "I have a recurring knee issue and I usually run in the morning"


def fill(vault: Vault) -> None:
    """Written as of the clock, as the page reads as of the clock (confidence decays)."""
    now = datetime.now(timezone.utc)
    vault.ingest_message("ana", MESSAGE, now=now)
    vault.merge(
        "ana",
        [
            FactIn(text=SCRIPT, category="preference"),
            PatternIn(text="skips Mondays after long weekends"),
            NoteIn(text="responds well to blunt feedback"),
        ],
        now=now,
        trusted=True,
    )
    vault.episodes.add(
        "ana",
        [
            {"text": f"easy run number {i}", "type": "session", "at": now - timedelta(hours=i + 2)}
            for i in range(25)
        ]
        + [
            {
                "text": "10k race in 41:30, a personal best",
                "type": "race",
                "outcome": "pb",
                "at": now - timedelta(hours=1),
            }
        ],
        now=now,
    )
    vault.merge("bob", [FactIn(text="primary sport: swimming")], now=now)


@pytest.fixture
def page_file(tmp_path: Path) -> Path:
    path = tmp_path / "page.db"
    with open_vault(path, upgrade=True) as vault:
        fill(vault)
    return path


@pytest.fixture
def page_vault(page_file: Path) -> Iterator[Vault]:
    with open_vault(page_file) as vault:
        yield vault
