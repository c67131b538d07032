"""One new fact: `Vault.merge` against a minimal raw sqlite3 merge of it (the held-out kind of
comparison in issue 25), on copies of the bench's population, interleaved, one run.

    python tools/bench_minimal_merge.py [--athletes 1000] [--merges 400] [--below-cap | --turns]

The raw side does only what a bare key-value upsert does: BEGIN IMMEDIATE, look the fact up by
its normalized text, UPDATE or INSERT, COMMIT. No privacy check, caps, archive, evidence,
decay on load or engine row: the ratio is what everything vault adds to that costs.

The population's athletes are all at the 15-fact cap, so each new fact also evicts one. With
`--below-cap` the facts go to new athletes instead, ten each (created on both sides before the
clock starts), so no merge evicts anything. With `--turns` each merge is one of `vault.bench`'s
merge turns instead (a repeat, a `primary sport:` value and a new fact, on athletes at the cap),
and the raw side upserts the same three texts in one transaction.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from vault import FactIn, NoteIn, open_vault
from vault.bench import raw
from vault.bench.workload import T0, athlete_id, populate_sqlite, sqlite_time, turns
from vault.domain.text import normalize_text

_ATHLETE = "INSERT INTO athletes (id, created_at, updated_at) VALUES (?, ?, ?)"
_FIND = "SELECT id FROM facts WHERE athlete_id = ? AND normalized_text = ?"
_BUMP = "UPDATE facts SET occurrences = occurrences + 1 WHERE id = ?"
_ADD = (
    "INSERT INTO facts (athlete_id, text, normalized_text, category, source, confidence, "
    "base_confidence, occurrences, learned_at, observed_at, last_reinforced_at, updated_at, "
    "decay_due_at) VALUES (?, ?, ?, 'general', 'manual', 0.8, 0.8, 1, ?, ?, ?, ?, ?)"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--athletes", type=int, default=1000)
    parser.add_argument("--merges", type=int, default=400)
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--below-cap", action="store_true", help="new athletes, ten facts each")
    kind.add_argument("--turns", action="store_true", help="vault.bench's three-candidate turns")
    options = parser.parse_args()
    plan = turns(7, options.athletes, options.merges) if options.turns else []
    newcomers = max(1, options.merges // 10)
    with tempfile.TemporaryDirectory() as tmp:
        vault_file, raw_file = Path(tmp, "vault.db"), Path(tmp, "raw.db")
        open_vault(vault_file, upgrade=True).close()
        populate_sqlite(str(vault_file), 7, options.athletes)
        shutil.copyfile(vault_file, raw_file)
        vault, db = open_vault(vault_file), raw.connect(str(raw_file))
        if options.below_cap:
            for k in range(newcomers):
                vault.merge(f"newcomer-{k}", [NoteIn(text="new to the app")], now=T0)
                db.execute(_ATHLETE, (f"newcomer-{k}", sqlite_time(T0), sqlite_time(T0)))
        vault_ns, raw_ns = [], []
        for i in range(options.merges):
            athlete = (
                f"newcomer-{i % newcomers}"
                if options.below_cap
                else athlete_id(i % options.athletes)
            )
            now = T0 + timedelta(seconds=i)
            texts = [f"likes trail loop number {i}"]
            if options.turns:
                athlete, now = plan[i].athlete, plan[i].now
                texts = [c.text for c in plan[i].candidates]
            start = time.perf_counter_ns()
            vault.merge(athlete, [FactIn(text=text) for text in texts], now=now)
            vault_ns.append(time.perf_counter_ns() - start)
            start = time.perf_counter_ns()
            stamp = sqlite_time(now)
            db.execute("BEGIN IMMEDIATE")
            for text in texts:
                found = db.execute(_FIND, (athlete, normalize_text(text))).fetchone()
                if found:
                    db.execute(_BUMP, found)
                else:
                    db.execute(_ADD, (athlete, text, normalize_text(text), *[stamp] * 5))
            db.execute("COMMIT")
            raw_ns.append(time.perf_counter_ns() - start)
        vault.close()
        db.close()
    skip = options.merges // 10
    ours = statistics.median(vault_ns[skip:]) / 1000
    theirs = statistics.median(raw_ns[skip:]) / 1000
    ours_mean = statistics.mean(vault_ns[skip:]) / 1000
    theirs_mean = statistics.mean(raw_ns[skip:]) / 1000
    print(
        f"{'a merge turn' if options.turns else 'one new fact'}"
        f"{' (below the cap)' if options.below_cap else ''}: Vault.merge {ours:,.0f} µs, "
        f"minimal raw {theirs:,.0f} µs, ratio {ours / theirs:.1f} (median of "
        f"{options.merges - skip} after {skip}); means {ours_mean:,.0f} / {theirs_mean:,.0f} µs, "
        f"ratio {ours_mean / theirs_mean:.1f} (WAL checkpoints included)"
    )


if __name__ == "__main__":
    main()
