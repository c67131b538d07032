"""Merge and recall latency on PostgreSQL, plain tables vs hash-partitioned by athlete.

    python tools/bench_scale_out.py postgresql://postgres@127.0.0.1:5432/postgres \
        [--facts 1000000] [--episodes 1000000] [--athletes 50000] [--partitions 8] [--ops 300]

For each layout it creates a throwaway database on the server (`vault upgrade`, or
`vault upgrade --partitions N`), loads the same generated rows server-side (INSERT ... SELECT
over generate_series: facts with a tag each, episodes with their tsvector), ANALYZEs, then
times through the public API, one call after another on warm caches:
- merge: `Vault.merge(athlete, [one new fact])` for random athletes (a write transaction:
  the athlete's lock, its active set, the plan, the writes, the evidence);
- recall: `Vault.episodes.recall(athlete, query, k=5)` for random athletes.
It prints p50 / p95 in ms per layout and drops the databases. Load generation is not timed.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from vault import FactIn, open_vault  # noqa: E402
from vault.storage.engine import create_vault_engine  # noqa: E402
from vault.storage.migrations import create_partitioned, upgrade  # noqa: E402

NOW = datetime(2026, 6, 1, 12, tzinfo=timezone.utc)
WORDS = ["run", "swim", "ride", "knee", "hill", "river", "tempo", "rest", "coach", "race"]
QUERIES = ["knee pain after the hill run", "tempo ride by the river", "race day swim"]
SPORTS = ["running", "cycling", "swimming", "rowing", "climbing", "yoga", "tennis", "skiing"]

LOAD = (
    "INSERT INTO athletes (id, created_at, updated_at) "
    "SELECT 'a' || g, now(), now() FROM generate_series(1, :athletes) AS g",
    "INSERT INTO facts (athlete_id, text, normalized_text, category, source, confidence, "
    "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at, "
    "decay_due_at) SELECT 'a' || (1 + g %% :athletes), 'note ' || g, 'note ' || g, 'general', "
    "'conversation', 0.7, 0.7, 1, now(), now(), now(), now(), now() + interval '7 days' "
    "FROM generate_series(1, :facts) AS g",
    "INSERT INTO fact_tags (athlete_id, fact_id, tag) SELECT athlete_id, id, 'context:bench' "
    "FROM facts",
    "INSERT INTO episodes (owner_id, owner_key, ref, type, text, occurred_at, metadata, "
    "created_at) SELECT 'a' || (1 + g %% :athletes), 'k', 'e' || g, 'session', "
    "(ARRAY['run','swim','ride','knee','hill','river','tempo','rest','coach','race'])[1 + g %% 10]"
    " || ' ' || (ARRAY['hill','river','tempo','knee','race','rest','coach','run','ride','swim'])"
    "[1 + (g / 10) %% 10] || ' session number ' || g, now() - (g %% 1000) * interval '1 hour', "
    "'{}', now() FROM generate_series(1, :episodes) AS g",
)


def _database(admin_url: str, name: str) -> str:
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


def _timed(calls: Callable[[], None], n: int) -> tuple[float, float]:
    took = []
    for _ in range(n):
        start = time.perf_counter()
        calls()
        took.append((time.perf_counter() - start) * 1000)
    took.sort()
    return statistics.median(took), took[int(len(took) * 0.95) - 1]


def run_layout(admin_url: str, partitions: int, args: argparse.Namespace) -> dict[str, float]:
    name = f"vault_bench_{secrets.token_hex(3)}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    url = _database(admin_url, name)
    try:
        engine = create_vault_engine(url)
        if partitions:
            create_partitioned(engine, partitions)
        else:
            upgrade(engine)
        started = time.perf_counter()
        with engine.begin() as connection:
            for statement in LOAD:
                connection.exec_driver_sql(
                    statement.replace(":athletes", str(args.athletes))
                    .replace(":facts", str(args.facts))
                    .replace(":episodes", str(args.episodes))
                )
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM ANALYZE")
        loaded = time.perf_counter() - started
        engine.dispose()
        rng = random.Random(7)
        with open_vault(url) as vault:

            def merge() -> None:
                athlete = f"a{rng.randint(1, args.athletes)}"
                words = " ".join(rng.sample(WORDS, 3))
                vault.merge(athlete, [FactIn(text=f"enjoys {rng.choice(SPORTS)} {words}")], now=NOW)

            def recall() -> None:
                athlete = f"a{rng.randint(1, args.athletes)}"
                vault.episodes.recall(athlete, rng.choice(QUERIES), k=5, now=NOW)

            for warm in (merge, recall):
                _timed(warm, 20)
            merge_p50, merge_p95 = _timed(merge, args.ops)
            recall_p50, recall_p95 = _timed(recall, args.ops)
        return {
            "load_s": loaded,
            "merge_p50": merge_p50,
            "merge_p95": merge_p95,
            "recall_p50": recall_p50,
            "recall_p95": recall_p95,
        }
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="a server database to create the throwaway ones from")
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--episodes", type=int, default=1_000_000)
    parser.add_argument("--athletes", type=int, default=50_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--ops", type=int, default=300)
    args = parser.parse_args()
    admin_url = args.url.replace("postgresql://", "postgresql+psycopg://", 1)
    print(
        f"{args.facts:,} facts (+1 tag each), {args.episodes:,} episodes, "
        f"{args.athletes:,} athletes; {args.ops} calls each"
    )
    for label, partitions in (("plain", 0), (f"{args.partitions} partitions", args.partitions)):
        r = run_layout(admin_url, partitions, args)
        print(
            f"{label:14} load {r['load_s']:6.1f} s | merge p50 {r['merge_p50']:6.2f} ms "
            f"p95 {r['merge_p95']:6.2f} ms | recall p50 {r['recall_p50']:6.2f} ms "
            f"p95 {r['recall_p95']:6.2f} ms"
        )


if __name__ == "__main__":
    main()
