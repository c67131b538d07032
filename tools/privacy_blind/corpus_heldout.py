"""Held-out corpus check: the speech gate over every persona sentence of MSC's train split.

    python tools/privacy_blind/corpus_heldout.py PATH/msc_personas_all.json [--changes out.jsonl]

`msc_personas_all.json` holds Multi-Session Chat's persona sentences (people wrote each one
about the speaker they played: "I have two dogs and a cat.") split as train / valid / test.
Only `train` is read here: the shared development data is MSC's validation split (dialogue
turns, measured in docs/reliability.md), and test files are never used. Each sentence is one
turn through `redact_speech`; the tool prints the share changed, the cost per sentence, and
writes every change for review by hand (the review is in RESULT-corpus.md beside this file).
Nothing is downloaded; the data path is an argument and the text is never committed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vault.extraction.privacy import redact_speech  # noqa: E402


def sentences(path: Path) -> list[tuple[str, str]]:
    """(where, sentence) for every persona sentence of the train split."""
    found = []
    for number, pair in enumerate(json.loads(path.read_text())["train"]):
        for speaker in ("Speaker 1", "Speaker 2"):
            for index, sentence in enumerate(pair[speaker]):
                found.append((f"train:{number}:{speaker[-1]}:{index}", sentence))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("personas", type=Path, help="msc_personas_all.json")
    parser.add_argument("--changes", type=Path, help="write every change here (JSON lines)")
    args = parser.parse_args()
    turns = sentences(args.personas)
    redact_speech("warm up")  # first use loads the tables; not part of the per-turn cost
    changes = []
    started = time.perf_counter()
    for where, text in turns:
        after, kinds = redact_speech(text)
        if kinds:
            changes.append({"where": where, "kinds": kinds, "before": text, "after": after})
    elapsed = time.perf_counter() - started
    print(
        f"{len(turns)} sentences (MSC persona sentences, train), {len(changes)} changed "
        f"({len(changes) / len(turns):.3%}); {elapsed / len(turns) * 1e6:,.1f} µs per sentence"
    )
    if args.changes:
        with args.changes.open("w") as out:
            for change in changes:
                out.write(json.dumps(change, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
