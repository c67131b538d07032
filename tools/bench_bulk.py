"""Time `vault export --all` and `vault import` of the stream for N athletes (default 10,000).

    .venv/bin/python tools/bench_bulk.py [N] [--keep DIR]

Builds a vault of N athletes (8 facts with tags, 2 patterns, 1 note, 2 archived facts each)
through the library, then runs the real command line: export --all to a file, import of that
file into a fresh vault, and a second import (idempotent: nothing rewritten). Prints seconds.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from vault import open_vault

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SPORTS = ("running", "cycling", "swimming", "triathlon", "rowing")


def _t(days: int) -> str:
    return (T0 + timedelta(days=days)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def document(n: int) -> dict[str, Any]:
    fact_texts = [
        (f"primary sport: {SPORTS[n % 5]}", "sport", "primary sport", []),
        (f"goal: {n % 40 + 5}k race", "goal", "goal", []),
        ("has recurring knee issue", "injury", None, ["body:knee"]),
        ("prefers morning sessions", "time_preference", "time preference", ["time:morning"]),
        (f"typical duration: {30 + n % 60} min", "duration", "typical duration", []),
        ("has kids", "context", None, ["context:kids"]),
        ("likes intervals", "preference", None, []),
        ("recovers quickly", "training_response", None, []),
    ]
    facts = [
        {
            "id": i,
            "text": text,
            "category": category,
            "conflict_key": key,
            "source": "manual",
            "source_ref": None,
            "extractor": None,
            "confidence": 0.8,
            "base_confidence": 0.8,
            "occurrences": 1,
            "tags": tags,
            "learned_at": _t(0),
            "observed_at": _t(1),
            "last_reinforced_at": _t(1),
            "updated_at": _t(1),
        }
        for i, (text, category, key, tags) in enumerate(fact_texts, 1)
    ]
    items = [
        {
            "id": i,
            "text": text,
            "source": "manual",
            "source_ref": None,
            "extractor": None,
            "confidence": 0.7,
            "occurrences": 1,
            "learned_at": _t(0),
            "last_reinforced_at": _t(1),
            "updated_at": _t(1),
        }
        for i, text in enumerate(("skips Mondays frequently", "ramps too fast"), 1)
    ]
    archive = [
        {
            "id": 1,
            "kind": "fact",
            "original_id": 20,
            "original_text": "primary sport: hiking",
            "category": "sport",
            "conflict_key": "primary sport",
            "source": "manual",
            "confidence": 0.8,
            "occurrences": 1,
            "tags": [],
            "learned_at": _t(-20),
            "superseded_by": 1,
            "reason": "superseded",
            "archived_at": _t(0),
        },
        {
            "id": 2,
            "kind": "fact",
            "original_id": 21,
            "original_text": "has recurring hip issue",
            "category": "injury",
            "conflict_key": None,
            "source": "manual",
            "confidence": 0.6,
            "occurrences": 1,
            "tags": ["body:hip"],
            "learned_at": _t(-20),
            "superseded_by": None,
            "reason": "resolved",
            "archived_at": _t(0),
        },
    ]
    return {
        "format": "vault-export",
        "version": 1,
        "athlete": {"id": f"athlete-{n:05d}", "created_at": _t(-30), "updated_at": _t(1)},
        "facts": facts,
        "patterns": items,
        "notes": items[:1],
        "archive": archive,
    }


def vault_cli(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "vault", *args], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(sys.argv[sys.argv.index("--keep") + 1]) if "--keep" in sys.argv else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        source, target, stream = work / "source.db", work / "target.db", work / "all.jsonl"
        for path in (source, target, stream):
            path.unlink(missing_ok=True)
        started = time.perf_counter()
        with open_vault(source, upgrade=True) as v:
            for first in range(0, count, 500):
                v.transfer.import_documents(
                    document(n) for n in range(first, min(first + 500, count))
                )
        print(f"built {count} athletes via the library in {time.perf_counter() - started:.1f} s")
        exported = vault_cli("--db", str(source), "export", "--all", "--output", str(stream))
        size = stream.stat().st_size
        print(f"export --all: {exported:.1f} s ({size / 1e6:.1f} MB of JSON Lines)")
        imported = vault_cli("--db", str(target), "import", str(stream))
        print(f"import into a fresh vault: {imported:.1f} s")
        again = vault_cli("--db", str(target), "import", str(stream))
        print(f"import again (nothing changes): {again:.1f} s")
        backup = vault_cli("--db", str(source), "backup", str(work / "backup.db"), "--force")
        print(f"backup: {backup:.1f} s")


if __name__ == "__main__":
    main()
