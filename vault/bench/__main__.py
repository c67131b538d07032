"""`python -m vault.bench [--athletes N] [--db-url URL] [--json] [--repeat R] [--writers K]`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from vault.bench.run import Options, render, run


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m vault.bench",
        description="Time vault's hot paths against raw sqlite3 doing the same work (see BENCHMARKS.md).",
    )
    parser.add_argument("--athletes", type=int, default=1000, help="population size (default 1000)")
    parser.add_argument(
        "--db-url",
        help="run the vault column on this database instead of a temporary SQLite file; "
        "a PostgreSQL database given here is EMPTIED first",
    )
    parser.add_argument("--repeat", type=int, default=200, help="timed iterations per workload")
    parser.add_argument(
        "--writers", type=int, default=0, help="concurrent writer processes (0: skip)"
    )
    parser.add_argument("--writer-merges", type=int, default=200, help="merges per writer process")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.athletes < 1 or args.repeat < 1 or args.writers < 0 or args.writer_merges < 1:
        parser.error("--athletes, --repeat and --writer-merges must be >= 1, --writers >= 0")
    if args.db_url and args.db_url.startswith("sqlite"):
        parser.error("--db-url is for a server database; SQLite is what runs without it")
    report = run(
        Options(
            athletes=args.athletes,
            db_url=args.db_url,
            repeat=args.repeat,
            writers=args.writers,
            writer_merges=args.writer_merges,
            seed=args.seed,
        )
    )
    print(json.dumps(report, indent=2) if args.json else render(report))
    block = report["workloads"]["memory_block"]
    if not block["identical"]:
        print(f"warning: MEMORY block differs from raw for {block['mismatched']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
