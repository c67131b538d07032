"""Import speed with the privacy gate on and off, on LoCoMo's turns (a real chat corpus).

    python tools/bench_privacy_import.py PATH/locomo10.json [--rounds 3]

Each round imports every LoCoMo turn as an episode (one owner per conversation, through
`v.episodes.import_stream`) into a fresh vault twice, gate on and `trusted=True`, alternating,
and prints episodes per second for each (best round). Not a test: BENCHMARKS.md records it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from privacy_corpus import locomo  # noqa: E402

from vault import open_vault  # noqa: E402


def run(conversations: list[tuple[str, str, list[str]]], trusted: bool) -> float:
    with tempfile.TemporaryDirectory() as folder:
        with open_vault(Path(folder) / "v.db", upgrade=True) as vault:
            started, total = time.perf_counter(), 0
            for number, (_source, _name, turns) in enumerate(conversations):
                items = ({"text": t} for t in turns)
                vault.episodes.import_stream(f"c{number}", items, trusted=trusted)
                total += len(turns)
            return total / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("locomo", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    conversations = list(locomo(args.locomo))
    on, off = [], []
    for _ in range(args.rounds):
        on.append(run(conversations, trusted=False))
        off.append(run(conversations, trusted=True))
    print(f"gate on: {max(on):,.0f} episodes/s; gate off (trusted): {max(off):,.0f} episodes/s")


if __name__ == "__main__":
    main()
