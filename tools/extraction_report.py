"""Print extraction precision/recall tables and the cost per message (issue 12, items 4 and 7).

    .venv/bin/python tools/extraction_report.py [--errors dev|blind|logs|corpus] [--cost]

Scores the rule extractor on the persona-chat dev and blind splits, the activity logs and the
existing corpus (tuned and blind splits), reusing the scorers of the tests so the figures are
the ones the tests check. `--cost` times RuleExtractor.extract over every persona turn (median
and p95 per message, and a 4x-longer paste for growth); timing lives here, never in a test.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str) -> ModuleType:
    path = ROOT / "tests" / "unit" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", choices=["dev", "blind", "logs", "corpus"])
    parser.add_argument("--cost", action="store_true")
    args = parser.parse_args()
    persona = _load("test_extraction_persona")
    corpus = _load("test_extraction_corpus")
    scores = {
        "dev": persona.score_persona("dev"),
        "blind": persona.score_persona("blind"),
        "logs": persona.score_logs(),
    }
    print(scores["dev"].table("persona dev (tuned on)"))
    print(scores["blind"].table("persona blind (never tuned on)"))
    print(scores["logs"].table("activity logs (written by us, tuned on)"))
    print(corpus.score(corpus.TUNED).table("existing corpus, tuned splits"))
    print(corpus.score(["blind"]).table("existing corpus, blind split"))
    if args.errors in scores:
        for kind, text, fact in scores[args.errors].errors:
            print(f"{kind}  {fact!r:40}  {text[:110]}")
    if args.errors == "corpus":
        for entry in corpus._entries():
            gold = corpus.gold_items(entry)
            got = corpus.predicted_items(corpus.extracted(entry))
            if gold != got:
                print(
                    entry["id"], entry["text"][:90], "| missing", gold - got, "| extra", got - gold
                )
    if args.cost:
        from vault.domain.vocabulary import Source
        from vault.extraction import RuleExtractor

        texts = [e["text"] for e in persona.entries()]
        extractor = RuleExtractor()
        for text in texts[:50]:
            extractor.extract(text, source=Source.USER_MESSAGE)  # warm up
        runs = []
        for _ in range(5):
            for text in texts:
                started = time.perf_counter()
                extractor.extract(text, source=Source.USER_MESSAGE)
                runs.append(time.perf_counter() - started)
        runs.sort()
        chars = statistics.mean(len(t) for t in texts)
        print(
            f"cost per message over {len(texts)} persona turns x5 (mean {chars:.0f} chars): "
            f"median {statistics.median(runs) * 1e3:.3f} ms, "
            f"p95 {runs[int(len(runs) * 0.95)] * 1e3:.3f} ms, mean {statistics.mean(runs) * 1e3:.3f} ms"
        )
        for n in (1_000, 4_000):
            text = "my knee hurts and I run most mornings, usually 45 min. " * (n // 55)
            started = time.perf_counter()
            extractor.extract(text, source=Source.USER_MESSAGE)
            print(
                f"  a {len(text)}-character paste: {(time.perf_counter() - started) * 1e3:.1f} ms"
            )


if __name__ == "__main__":
    main()
