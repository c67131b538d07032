"""Recall latency at scale: one owner with 100k episodes in a file of 1M, through Vault.recall.

    python tools/bench_episodes.py [--total 1000000] [--owner 100000] [--queries 400] [--db PATH]

Builds the file once (set-wise `add_episodes`, 5,000 a call; other owners get 1,000 each), then
times `Vault.recall(owner, query, k=10)` end to end (SQLAlchemy, FTS5, session neighbours,
ranking in Python; the default options) for generated questions, on the big owner and on a
small one, and prints p50 / p95 / p99 in ms with the median candidate-pool size; then times
`Vault.import_episodes` of 20,000 episodes for a new owner into the same file (episodes/s). `--vectors N` also stores a 64-dim hashed embedding for N of the
big owner's episodes and compares cosine over the FTS candidate set with brute force over all N.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import statistics
import sys
import time
from array import array
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import episode_corpus as corpus  # noqa: E402

from vault import open_vault  # noqa: E402
from vault.services import recall as service  # noqa: E402
from vault.storage.repositories.episodes import EpisodeRepository  # noqa: E402

NOW = datetime(2026, 6, 1, 12, tzinfo=timezone.utc)
QUESTIONS = [
    "Who did I go running with at {place}?",
    "Which shoes did I buy?",
    "What got hurt during {workout}?",
    "How did {race} go?",
    "What did I eat before the race?",
    "How did {workout} feel last week?",
    "Did caffeine before training cause problems?",
    "Why did I skip training?",
    "when did my {body} hurt in May",
    "{person} yesterday",
]


def _slots(rng: random.Random) -> dict[str, str]:
    return {
        "person": rng.choice(corpus.PEOPLE),
        "place": rng.choice(corpus.PLACES),
        "shoe": rng.choice(corpus.SHOES),
        "body": rng.choice(corpus.BODY),
        "food": rng.choice(corpus.FOODS),
        "race": rng.choice(corpus.RACES),
        "workout": rng.choice(corpus.WORKOUTS),
        "feeling_bad": rng.choice(corpus.FEELINGS_BAD),
        "feeling_good": rng.choice(corpus.FEELINGS_GOOD),
    }


def _text(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(corpus.FILLER_USER + corpus.FILLER_COACH) + f" ({rng.randrange(10**6)})"
    kind = rng.choice(list(corpus.EVENTS))
    return rng.choice(corpus.EVENTS[kind]["turn"]).format(**_slots(rng))


def embed(text: str) -> list[float]:
    """A cheap deterministic 64-dim embedding (hashed word counts): stands in for a model."""
    vector = [0.0] * 64
    for word in text.lower().split():
        vector[int(hashlib.md5(word.encode()).hexdigest()[:4], 16) % 64] += 1.0
    return vector


def build(path: Path, total: int, owner_size: int, vectors: int) -> None:
    rng = random.Random(7)
    start = time.perf_counter()
    with open_vault(path, upgrade=True) as v:
        owners = [("big", owner_size)] + [
            (f"o{i}", 1000) for i in range(max(0, (total - owner_size) // 1000))
        ]
        done = 0
        for owner, size in owners:
            for offset in range(0, size, 5000):
                items = [
                    {
                        "text": _text(rng),
                        "type": rng.choice(["session", "conversation", "race"]),
                        "at": NOW - timedelta(minutes=(size - offset - i) * 7),
                        "ref": f"{owner}-{offset + i}",
                    }
                    for i in range(min(5000, size - offset))
                ]
                use_vectors = owner == "big" and offset < vectors
                v.episodes.add(owner, items, now=NOW, embed=embed if use_vectors else None)
                done += len(items)
            if owner == "big" or done % 100_000 < 1000:
                print(f"  {done:,} episodes, {time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"built {total:,} episodes in {elapsed:.0f} s ({total / elapsed:,.0f} episodes/s)")


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # noqa: E731
    return f"p50 {pick(0.5):.2f} ms  p95 {pick(0.95):.2f} ms  p99 {pick(0.99):.2f} ms"


def time_import(path: Path, count: int = 20_000) -> None:
    rng = random.Random(5)
    items = [
        {"text": _text(rng), "at": NOW - timedelta(minutes=i), "ref": f"imp-{i}"}
        for i in range(count)
    ]
    with open_vault(path) as v:
        began = time.perf_counter()
        v.episodes.import_stream("importer", items, now=NOW)
        elapsed = time.perf_counter() - began
        v.delete_athlete("importer")
    print(
        f"import_episodes {count:,} (no embedder): {elapsed:.2f} s, {count / elapsed:,.0f} episodes/s"
    )


def time_recall(path: Path, owner: str, queries: int, use_embed: bool = False, k: int = 10) -> None:
    rng = random.Random(11)
    questions = [rng.choice(QUESTIONS).format(**_slots(rng)) for _ in range(queries)]
    samples: list[float] = []
    pools: list[int] = []
    with open_vault(path) as v:
        for q in questions[:20]:  # warm the page cache and the statement cache
            v.episodes.recall(owner, q, now=NOW, embed=embed if use_embed else None)
        for q in questions:
            began = time.perf_counter()
            v.episodes.recall(owner, q, now=NOW, k=k, embed=embed if use_embed else None)
            samples.append(time.perf_counter() - began)
        with v.engine.connect() as connection:
            repo = EpisodeRepository(connection)
            for q in questions[:50]:
                analyzed = service.analyze(q, NOW)
                pools.append(len(service.text_candidate_ids(repo, owner, analyzed)))
    label = f"{owner}{' +vector' if use_embed else ''}"
    print(
        f"recall k={k} [{label}] x{queries}: {_percentiles(samples)}  median pool {statistics.median(pools):.0f}"
    )


def brute_force(path: Path, queries: int) -> None:
    rng = random.Random(13)
    with open_vault(path) as v, v.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT episode_id, vector FROM episode_vectors"
        ).fetchall()
        vectors = []
        for episode_id, blob in rows:
            values = array("f")
            values.frombytes(blob)
            vectors.append((episode_id, values))
        samples = []
        for _ in range(queries):
            wanted = embed(rng.choice(QUESTIONS).format(**_slots(rng)))
            norm = math.sqrt(sum(x * x for x in wanted)) or 1.0
            began = time.perf_counter()
            best = sorted(
                ((sum(a * b for a, b in zip(wanted, vec)), i) for i, vec in vectors), reverse=True
            )[:3]
            samples.append(time.perf_counter() - began)
            assert best and norm
    print(f"brute-force cosine over {len(vectors):,} vectors x{queries}: {_percentiles(samples)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, default=Path("/tmp/bench-episodes.db"))
    parser.add_argument("--total", type=int, default=1_000_000)
    parser.add_argument("--owner", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--vectors", type=int, default=0)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    if args.rebuild or not args.db.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(f"{args.db}{suffix}").unlink(missing_ok=True)
        build(args.db, args.total, args.owner, args.vectors)
    time_recall(args.db, "big", args.queries)
    time_recall(args.db, "big", args.queries, k=3)
    time_recall(args.db, "o5", args.queries)
    time_import(args.db)
    if args.vectors:
        time_recall(args.db, "big", min(args.queries, 100), use_embed=True)
        brute_force(args.db, 20)


if __name__ == "__main__":
    main()
