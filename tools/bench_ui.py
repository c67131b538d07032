"""How long the memory page's athlete page takes server-side (BENCHMARKS.md, "The memory page").

    .venv/bin/python tools/bench_ui.py [--episodes 10000] [--runs 50]

One athlete with 15 facts (each with evidence words and some with a replaced predecessor in the
archive), 5 patterns, 5 notes and 10,000 episodes in a fresh SQLite file. Each request goes
through the whole Starlette application in process (middleware, the library's reads, the
Jinja2 render), timed from request to full body, no network; warm (the first request is not
counted). Reported: median and 95th percentile per page variant.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from starlette.testclient import TestClient  # noqa: E402

from vault import FactIn, NoteIn, PatternIn, open_vault  # noqa: E402
from vault.ui.app import build_app  # noqa: E402

CATEGORIES = ["sport", "goal", "injury", "preference", "context"]


def fill(path: Path, episodes: int) -> None:
    now = datetime.now(timezone.utc)
    with open_vault(path, upgrade=True) as vault:
        facts = [
            FactIn(
                text=f"fact number {i} about training block {i}",
                category=CATEGORIES[i % 5],
                confidence=0.9,
                observed_at=now - timedelta(days=2),
                evidence=f"I said something about training block {i}",
            )
            for i in range(15)
        ]
        vault.merge("ana", facts, now=now - timedelta(days=2))
        for fact in vault.facts("ana")[:5]:  # a history for a third of them
            vault.items.edit(
                "ana", "fact", fact.id, fact.text + " (corrected)", now=now - timedelta(days=1)
            )
        vault.merge(
            "ana",
            [PatternIn(text=f"pattern {i} skips day {i} after long weekends") for i in range(5)]
            + [NoteIn(text=f"note {i} responds well to framing {i}") for i in range(5)],
            now=now,
        )
        vault.episodes.import_stream(
            "ana",
            (
                {
                    "text": f"session {i}: easy run {5 + i % 7} km in the park, felt {'good' if i % 3 else 'tired'}",
                    "type": "session",
                    "at": now - timedelta(hours=i),
                }
                for i in range(episodes)
            ),
            now=now,
        )


def timed(client: TestClient, url: str, runs: int) -> tuple[float, float]:
    assert client.get(url).status_code == 200  # warm
    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url)
        spent.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    spent.sort()
    return statistics.median(spent), spent[int(0.95 * (len(spent) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "bench.db"
        fill(path, args.episodes)
        with open_vault(path) as vault:
            memory = vault.memory("ana")
            print(
                f"athlete: {len(memory.facts)} facts, {len(memory.patterns)} patterns, "
                f"{len(memory.notes)} notes, {vault.episodes.count('ana')} episodes, "
                f"{len(vault.archive('ana'))} archived"
            )
            client = TestClient(build_app(vault), base_url="http://127.0.0.1:8765")
            last = -(-args.episodes // 20)
            for label, url in [
                ("athlete page", "/athlete?id=ana"),
                ("last episode page", f"/athlete?id=ana&page={last}"),
                ("with recall", "/athlete?id=ana&q=tired+park+run"),
                ("athletes list", "/"),
            ]:
                median, p95 = timed(client, url, args.runs)
                print(f"{label:20s} median {median:6.1f} ms   p95 {p95:6.1f} ms")


if __name__ == "__main__":
    main()
