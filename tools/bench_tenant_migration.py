"""How long revision 0013 (tenant keys) takes on a large device file, and that it loses nothing.

    python tools/bench_tenant_migration.py [--facts 1000000] [--athletes 66667] [--db PATH]
    python tools/bench_tenant_migration.py --url postgresql://postgres@127.0.0.1:5432/DB ...

Builds a vault at revision 0012 (SQLite file, or an EMPTY PostgreSQL database given by --url)
holding `--facts` facts spread over `--athletes` athletes, one tag and one evidence row per
fact, one archived fact (with a tag) per 10 facts and one episode per fact; then times the
upgrade to 0013 alone and checks every table kept its row count. Prints the counts and the time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import Engine, text  # noqa: E402

from vault.storage.engine import create_vault_engine, sqlite_url  # noqa: E402
from vault.storage.migrations import upgrade  # noqa: E402

TABLES = ("facts", "fact_tags", "fact_evidence", "archive", "archive_tags", "episodes")
T = "2026-03-02T08:00:00.000000Z"
# One statement per table, set-wise over a counter (a recursive CTE on SQLite, generate_series
# on PostgreSQL): :facts rows, athlete `a<n % athletes>`.
SERIES = {
    "sqlite": "WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < {n}) ",
    "postgresql": "WITH s(g) AS (SELECT generate_series(1, {n})) ",
}
LOAD = (
    "INSERT INTO athletes (id, created_at, updated_at) SELECT 'a' || g, '{t}', '{t}' FROM s",
    "INSERT INTO facts (id, athlete_id, text, normalized_text, category, source, confidence, "
    "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at) "
    "SELECT g, 'a' || (1 + g % {a}), 'note ' || g, 'note ' || g, 'general', 'conversation', "
    "0.7, 0.7, 1, '{t}', '{t}', '{t}', '{t}' FROM s",
    "INSERT INTO fact_tags (fact_id, tag) SELECT g, 'context:bench' FROM s",
    "INSERT INTO fact_evidence (fact_id, athlete_id, source, words, observed_at, recorded_at) "
    "SELECT g, 'a' || (1 + g % {a}), 'conversation', 'some words', '{t}', '{t}' FROM s",
    "INSERT INTO archive (athlete_id, kind, original_id, original_text, category, source, "
    "confidence, occurrences, learned_at, reason, archived_at) SELECT 'a' || (1 + g % {a}), "
    "'fact', {n} + g, 'old ' || g, 'general', 'conversation', 0.2, 1, '{t}', 'decayed', '{t}' "
    "FROM s WHERE g % 10 = 0",
    "INSERT INTO archive_tags (archive_id, tag) SELECT id, 'body:knee' FROM archive",
    "INSERT INTO episodes (owner_id, owner_key, ref, type, text, occurred_at, metadata, "
    "created_at) SELECT 'a' || (1 + g % {a}), 'k', 'e' || g, 'session', 'easy run ' || g, "
    "'{t}', '{{}}', '{t}' FROM s",
)


def counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as connection:
        return {
            t: int(connection.execute(text(f"SELECT COUNT(*) FROM {t}")).scalar_one())
            for t in TABLES
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--athletes", type=int, default=66_667)
    parser.add_argument("--db", type=Path, help="SQLite file to build (default: a temporary one)")
    parser.add_argument("--url", help="an EMPTY PostgreSQL database instead of a SQLite file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = args.url or sqlite_url(args.db or Path(scratch) / "device.db")
        url = url.replace("postgresql://", "postgresql+psycopg://", 1)
        engine = create_vault_engine(url)
        upgrade(engine, "0012")
        dialect = engine.dialect.name
        started = time.perf_counter()
        with engine.begin() as connection:
            for n, statement in ((args.athletes, LOAD[0]), *((args.facts, s) for s in LOAD[1:])):
                sql = SERIES[dialect].format(n=n) + statement.format(n=n, a=args.athletes, t=T)
                connection.exec_driver_sql(sql.replace("%", "%%") if dialect != "sqlite" else sql)
        loaded = time.perf_counter() - started
        before = counts(engine)
        started = time.perf_counter()
        upgrade(engine, "0013")
        took = time.perf_counter() - started
        after = counts(engine)
        engine.dispose()
    print(
        f"{dialect}: loaded in {loaded:.1f} s: "
        + ", ".join(f"{t} {n:,}" for t, n in before.items())
    )
    print(f"revision 0012 -> 0013 took {took:.1f} s; rows kept: {before == after}")
    if before != after:
        sys.exit(f"rows changed: {after}")


if __name__ == "__main__":
    main()
