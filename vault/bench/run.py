"""Set up both databases, time each workload (vault and raw sqlite3 interleaved), report."""

from __future__ import annotations

import copy
import os
import platform
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from vault.api import Vault, open_vault
from vault.bench import peer, raw, writers
from vault.bench.workload import T0, athlete_id, populate_engine, populate_sqlite, turns
from vault.domain.models import FactIn
from vault.domain.vocabulary import Source
from vault.extraction import RuleExtractor
from vault.storage.engine import sqlite_url

MESSAGE = "I run most mornings before work, usually 45 minutes"


@dataclass(frozen=True)
class Options:
    athletes: int = 1000
    db_url: str | None = None
    repeat: int = 200
    writers: int = 0
    writer_merges: int = 200
    seed: int = 42

    @property
    def warmup(self) -> int:
        return max(3, self.repeat // 10)


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "sqlite": sqlite3.sqlite_version,
        "date": date.today().isoformat(),
    }


def _us(samples: list[int]) -> float:
    return round(statistics.median(samples) / 1000, 1)


def _clock(action: Callable[[], object]) -> int:
    start = time.perf_counter_ns()
    action()
    return time.perf_counter_ns() - start


def _row(vault_us: float, raw_us: float | None = None, **extra: Any) -> dict[str, Any]:
    ratio = round(vault_us / raw_us, 2) if raw_us else None
    return {"vault_us": vault_us, "raw_us": raw_us, "ratio": ratio, **extra}


def run(options: Options) -> dict[str, Any]:
    """Every workload once; returns the report as plain JSON values."""
    with tempfile.TemporaryDirectory(prefix="vault-bench-") as tmp:
        vault_file, raw_file = Path(tmp, "vault.db"), Path(tmp, "raw.db")
        started = time.perf_counter()
        open_vault(vault_file, upgrade=True).close()  # vault's own migrations make the layout
        populate_sqlite(str(vault_file), options.seed, options.athletes)
        shutil.copyfile(vault_file, raw_file)
        target = options.db_url or sqlite_url(vault_file)
        vault = open_vault(target, upgrade=True)
        if vault.engine.dialect.name != "sqlite":
            populate_engine(vault.engine, options.seed, options.athletes)
        db = raw.connect(str(raw_file))
        setup_s = round(time.perf_counter() - started, 1)
        try:
            workloads = _workloads(vault, db, options)
            if peer.available():
                workloads.update(_peer_workloads(vault, Path(tmp, "peer.db"), options))
        finally:
            db.close()
            vault.close()
        report: dict[str, Any] = {
            "backend": make_url(target).get_backend_name(),
            "athletes": options.athletes,
            "repeat": options.repeat,
            "warmup": options.warmup,
            "setup_s": setup_s,
            "machine": machine(),
            "workloads": workloads,
        }
        if options.writers > 0:
            report["writers"] = _writers(options, sqlite_url(vault_file))
        return report


def _workloads(vault: Vault, db: sqlite3.Connection, options: Options) -> dict[str, Any]:
    rng = random.Random(options.seed + 1)
    count = options.warmup + options.repeat
    skip = options.warmup
    result: dict[str, Any] = {}

    # 1. merge turns, vault and raw interleaved on the same turn
    plan = turns(options.seed, options.athletes, count)
    inputs = [
        [FactIn(text=c.text, category=c.category, confidence=c.confidence) for c in t.candidates]
        for t in plan
    ]
    vault_ns, raw_ns = [], []
    for t, candidates in zip(plan, inputs):
        vault_ns.append(_clock(lambda: vault.merge(t.athlete, candidates, now=t.now)))
        raw_ns.append(_clock(lambda: raw.merge(db, t.athlete, t.candidates, t.now)))
    merged = sorted({t.athlete for t in plan})
    same_rows = _same_rows(vault, db, merged) if vault.engine.dialect.name == "sqlite" else None
    result["merge"] = _row(_us(vault_ns[skip:]), _us(raw_ns[skip:]), same_rows=same_rows)

    # 2. MEMORY block, then the byte-identical check (every merged athlete and the sample)
    sample = [athlete_id(rng.randrange(options.athletes)) for _ in range(count)]
    vault_ns, raw_ns = [], []
    for athlete in sample:
        vault_ns.append(_clock(lambda: vault.memory_block(athlete, now=T0)))
        raw_ns.append(_clock(lambda: raw.memory_block(db, athlete, T0)))
    checked = sorted(set(merged) | set(sample))
    mismatched = [a for a in checked if _vault_block(vault, a) != raw.memory_block(db, a, T0)]
    result["memory_block"] = _row(
        _us(vault_ns[skip:]),
        _us(raw_ns[skip:]),
        checked=len(checked),
        identical=not mismatched,
        mismatched=mismatched[:5],
    )

    # 3. ingest (extract + merge) and extraction alone
    extractor = RuleExtractor()
    ingest_ns = [
        _clock(
            lambda: vault.ingest_message(
                athlete_id(rng.randrange(options.athletes)),
                MESSAGE,
                now=T0 + timedelta(days=1, seconds=n),
            )
        )
        for n in range(count)
    ]
    result["ingest"] = _row(_us(ingest_ns[skip:]))
    extract_ns = [
        _clock(lambda: extractor.extract(MESSAGE, source=Source.USER_MESSAGE)) for _ in range(count)
    ]
    result["extraction"] = _row(_us(extract_ns[skip:]))

    # 5. import of one exported athlete under fresh ids (4. decay comes last: it touches all)
    document = vault.transfer.export(plan[0].athlete)
    copies = [_renamed(document, f"imported-{n:06d}") for n in range(count)]
    import_ns = [_clock(lambda: vault.transfer.import_document(d)) for d in copies]
    result["import"] = _row(_us(import_ns[skip:]), facts=len(document["facts"]))

    # 4. whole-vault decay: once with changes, once with nothing left to change (single timings)
    later = T0 + timedelta(days=90)
    for name in ("decay", "decay_noop"):
        outcome: list[Any] = []
        vault_ns_one = _clock(lambda: outcome.append(vault.decay(now=later)))
        raw_ns_one = _clock(lambda: outcome.append(raw.decay(db, later)))
        lowered, raw_lowered = outcome[0].lowered, outcome[1]
        result[name] = _row(
            round(vault_ns_one / 1000, 1),
            round(raw_ns_one / 1000, 1),
            lowered=lowered,
            raw_lowered=raw_lowered,
            archived=_count(outcome[0].archived),
        )
    return result


def _peer_workloads(vault: Vault, path: Path, options: Options) -> dict[str, Any]:
    """Vault against LangGraph's SqliteStore (vault.bench.peer), interleaved per iteration.
    Run after the raw workloads: it writes to the vault file."""
    rng = random.Random(options.seed + 2)
    count, skip = options.warmup + options.repeat, options.warmup
    athletes = [athlete_id(i) for i in range(options.athletes)]
    other = peer.Peer(path)
    try:
        other.load(
            {a: [(f.id, f.text, f.confidence) for f in vault.facts(a, T0)] for a in athletes}
        )
        sample = [rng.choice(athletes) for _ in range(count)]
        vault_ns, peer_ns = [], []
        for athlete in sample:
            vault_ns.append(_clock(lambda: vault.top_facts(athlete, now=T0)))
            peer_ns.append(_clock(lambda: other.top(athlete)))
        result = {"top_facts": _peer_row(_us(vault_ns[skip:]), _us(peer_ns[skip:]))}
        vault_ns, peer_ns = [], []
        for n, athlete in enumerate(sample):
            text = f"likes trail route number {n % 50}"  # a new fact, then repeats of it
            at = T0 + timedelta(days=2, seconds=n)
            vault_ns.append(_clock(lambda: vault.remember(athlete, text, at)))
            peer_ns.append(_clock(lambda: other.remember(athlete, text, f"new-{n}")))
        result["remember"] = _peer_row(_us(vault_ns[skip:]), _us(peer_ns[skip:]))
        return result
    finally:
        other.close()


def _peer_row(vault_us: float, peer_us: float) -> dict[str, Any]:
    return {
        "vault_us": vault_us,
        "raw_us": None,
        "ratio": None,
        "peer_us": peer_us,
        "peer_ratio": round(vault_us / peer_us, 2),
    }


def _count(archived: Any) -> int:
    """DecayResult.archived: a count, or the archived rows (it has been both)."""
    return archived if isinstance(archived, int) else len(archived)


def _same_rows(vault: Vault, db: sqlite3.Connection, athletes: list[str]) -> bool:
    """True when both files hold the same facts, tags, evidence and archive rows for these
    athletes."""
    queries = [
        f"SELECT * FROM {table} WHERE athlete_id = ? ORDER BY id"
        for table in ("facts", "archive", "fact_evidence")
    ] + ["SELECT t.* FROM fact_tags AS t WHERE t.athlete_id = ? ORDER BY t.fact_id, t.tag"]
    connection = vault.engine.raw_connection()
    try:
        return all(
            list(map(tuple, connection.cursor().execute(sql, (a,)).fetchall()))
            == db.execute(sql, (a,)).fetchall()
            for a in athletes
            for sql in queries
        )
    finally:
        connection.close()


def _renamed(document: dict[str, Any], athlete: str) -> dict[str, Any]:
    """A copy of `document` for another athlete id, so each import really writes rows."""
    result = copy.deepcopy(document)
    result["athlete"]["id"] = athlete
    return result


def _vault_block(vault: Vault, athlete: str) -> tuple[str, int]:
    block = vault.memory_block(athlete, now=T0)
    return block.text, block.tokens


def _writers(options: Options, sqlite_target: str) -> list[dict[str, Any]]:
    targets = [sqlite_target]
    if options.db_url and make_url(options.db_url).get_backend_name() != "sqlite":
        targets.append(options.db_url)
    rows = []
    for url in targets:
        one = writers.merges_per_second(
            url, options.seed, options.athletes, 1, options.writer_merges
        )
        many = writers.merges_per_second(
            url, options.seed, options.athletes, options.writers, options.writer_merges
        )
        rows.append(
            {
                "backend": make_url(url).get_backend_name(),
                "writers": options.writers,
                "merges_per_writer": options.writer_merges,
                "merges_per_s_1": round(one, 1),
                "merges_per_s": round(many, 1),
                "scaling": round(many / one, 2),
            }
        )
    return rows


LABELS = {
    "merge": "merge turn (3 candidates)",
    "memory_block": "MEMORY block (+ tokens)",
    "ingest": "ingest_message",
    "extraction": "  of which extraction",
    "import": "import (one athlete)",
    "decay": "decay, whole vault (1 run)",
    "decay_noop": "decay again, no-op (1 run)",
    "top_facts": "top_facts vs search(limit=15)",
    "remember": "remember vs search+dedup+put",
}


def render(report: dict[str, Any]) -> str:
    """The report as a text table."""
    m = report["machine"]
    lines = [
        f"vault bench: backend {report['backend']} (raw column: sqlite3 {m['sqlite']}), "
        f"{report['athletes']} athletes, median of {report['repeat']} after {report['warmup']} "
        f"warm-up; setup {report['setup_s']} s",
        f"{m['platform']}, python {m['python']}, {m['cpu_count']} cpus",
        "",
        f"{'workload':<30} {'vault µs':>12} {'raw µs':>12} {'ratio':>7}",
    ]
    peers = {n: r for n, r in report["workloads"].items() if "peer_us" in r}
    for name, row in report["workloads"].items():
        if name in peers:
            continue
        raw_us = "n/a" if row["raw_us"] is None else f"{row['raw_us']:,.1f}"
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        lines.append(f"{LABELS[name]:<30} {row['vault_us']:>12,.1f} {raw_us:>12} {ratio:>7}")
    if peers:
        lines += ["", f"{'against the peer':<30} {'vault µs':>12} {'SqliteStore':>12} {'ratio':>7}"]
        for name, row in peers.items():
            lines.append(
                f"{LABELS[name]:<30} {row['vault_us']:>12,.1f} {row['peer_us']:>12,.1f} "
                f"{row['peer_ratio']:>7.2f}"
            )
    else:
        lines += ["", peer.INSTALL]
    block = report["workloads"]["memory_block"]
    if report["workloads"]["merge"]["same_rows"] is False:
        lines.append("\nWARNING: after the merge turns, vault's rows differ from raw's")
    elif report["workloads"]["merge"]["same_rows"]:
        lines.append(
            "\nafter the merge turns, facts, tags, evidence and archive rows are identical in both files"
        )
    if block["identical"]:
        lines.append(
            f"MEMORY text and tokens identical for all {block['checked']} athletes checked"
        )
    else:
        lines.append(f"WARNING: MEMORY block differs from raw for {block['mismatched']}")
    for row in report.get("writers", []):
        lines.append(
            f"writers on {row['backend']}: 1 process {row['merges_per_s_1']:,.0f} merges/s, "
            f"{row['writers']} processes {row['merges_per_s']:,.0f} merges/s "
            f"(x{row['scaling']})"
        )
    return "\n".join(lines)
