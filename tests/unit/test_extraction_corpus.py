"""Precision and recall of the rule extractor over the labelled corpus in tests/data.

The corpus has four splits (see the header of extraction_corpus.yaml): `dev`, `holdout1` and
`holdout2` were used to build the rules ("tuned"); `blind` was written after the last change
and never tuned on, so its figures estimate how the rules do on new phrasing. Both are
printed; the floors sit just under the measured figures, so a regression fails the test.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

from tests.job_titles import as_labelled
from vault.domain.models import Candidate, FactIn, Retraction
from vault.domain.text import normalize_text
from vault.domain.vocabulary import Category, Source
from vault.extraction import ActivityIn, RuleExtractor, extract_from_activity

CORPUS = Path(__file__).resolve().parents[1] / "data" / "extraction_corpus.yaml"
TUNED = ("dev", "holdout1", "holdout2")
AT = datetime(2026, 3, 2, 7, 30, tzinfo=timezone.utc)

# Floors: just under what was measured when the corpus was written (see docs/learning.md
# "Learning from conversations"). Tuned splits are in-sample: they guard against regressions.
TUNED_FLOORS = {"precision": 0.99, "recall": 0.96}  # measured P 1.000, R 0.977 (n=414)
TUNED_CATEGORY_FLOORS = {  # category: (precision, recall); measured P 1.000 everywhere
    "sport": (0.97, 0.95),
    "time_preference": (0.97, 0.97),
    "duration": (0.97, 0.92),
    "injury": (0.97, 0.95),
    "context": (0.97, 0.97),
    "goal": (0.97, 0.88),
    "level": (0.97, 0.97),
    "preference": (0.97, 0.97),
    "training_response": (0.97, 0.97),
    "retraction": (0.97, 0.93),
}
BLIND_FLOORS = {"precision": 0.9, "recall": 0.6}  # measured P 0.943, R 0.647 (n=66)
# Issue 12 relabelled two entries once groin became a body part (dev-155, blind-006: a groin
# strain/niggle is `has groin issue`); blind then measured P 0.944, R 0.654.
# Issue 28 relabelled two more once the speaker's own possessive became a partner ("my wife and I
# both have bad knees", "my husband's achilles": `has a partner`, blind-009 and blind-054).

Item = tuple[str, str]  # (category, normalised text or retraction key)


def _entries() -> list[dict[str, Any]]:
    data = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))
    return list(data["entries"])


def gold_category(text: str) -> str:
    """A gold fact's category, read from its canonical wording (independent of the rules)."""
    prefixes = {
        "primary sport:": "sport",
        "goal:": "goal",
        "typical duration:": "duration",
        "level:": "level",
    }
    for prefix, category in prefixes.items():
        if text.startswith(prefix):
            return category
    if re.fullmatch(r"prefers \w+ sessions", text):
        return "time_preference"
    if re.fullmatch(r"has (?:recurring )?(?:(?:left|right) )?[\w ]+ issue", text):
        return "injury"
    if text.startswith(("likes ", "dislikes ")):
        return "preference"
    if text.startswith(("recovers ", "responds well to ")) or " leave them " in text:
        return "training_response"
    return "context"


def _retraction_key(conflict_key: str | None, tags: Iterable[str]) -> str:
    return f"key:{conflict_key}" if conflict_key else "tags:" + ",".join(sorted(tags))


def gold_items(entry: dict[str, Any]) -> set[Item]:
    items = {(gold_category(text), normalize_text(text)) for text in entry["facts"]}
    for retraction in entry["retract"]:
        items.add(
            (
                "retraction",
                _retraction_key(retraction.get("conflict_key"), retraction.get("tags", [])),
            )
        )
    return items


def extracted(entry: dict[str, Any]) -> list[Candidate]:
    if entry["kind"] == "activity":
        activity = ActivityIn(id=entry["id"], started_at=AT, description=entry["text"])
        return extract_from_activity(activity, RuleExtractor())
    return RuleExtractor().extract(entry["text"], source=Source.USER_MESSAGE, observed_at=AT)


def predicted_items(candidates: list[Candidate]) -> set[Item]:
    items: set[Item] = set()
    for candidate in candidates:
        if isinstance(candidate, FactIn):
            assert candidate.category is not None
            items.add((candidate.category.value, normalize_text(candidate.text)))
        elif isinstance(candidate, Retraction):
            items.add(("retraction", _retraction_key(candidate.conflict_key, candidate.tags)))
    return items


class Score:
    """True positives, false positives and false negatives per category."""

    def __init__(self) -> None:
        self.tp: Counter[str] = Counter()
        self.fp: Counter[str] = Counter()
        self.fn: Counter[str] = Counter()

    def add(self, gold: set[Item], predicted: set[Item]) -> None:
        texts = {text for _, text in gold}
        predicted = {(category, as_labelled(text, texts)) for category, text in predicted}
        for category, _ in gold & predicted:
            self.tp[category] += 1
        for category, _ in predicted - gold:
            self.fp[category] += 1
        for category, _ in gold - predicted:
            self.fn[category] += 1

    def precision(self, category: str | None = None) -> float:
        tp = self.tp[category] if category else sum(self.tp.values())
        fp = self.fp[category] if category else sum(self.fp.values())
        return tp / (tp + fp) if tp + fp else 1.0

    def recall(self, category: str | None = None) -> float:
        tp = self.tp[category] if category else sum(self.tp.values())
        fn = self.fn[category] if category else sum(self.fn.values())
        return tp / (tp + fn) if tp + fn else 1.0

    def table(self, title: str) -> str:
        lines = [
            f"{title}: precision {self.precision():.3f}  recall {self.recall():.3f}",
            f"  {'category':<18} {'P':>6} {'R':>6} {'tp':>4} {'fp':>4} {'fn':>4}",
        ]
        for category in sorted(set(self.tp) | set(self.fp) | set(self.fn)):
            lines.append(
                f"  {category:<18} {self.precision(category):>6.3f} {self.recall(category):>6.3f}"
                f" {self.tp[category]:>4} {self.fp[category]:>4} {self.fn[category]:>4}"
            )
        return "\n".join(lines)


def score(splits: Iterable[str]) -> Score:
    wanted = set(splits)
    result = Score()
    for entry in _entries():
        if entry["split"] in wanted:
            result.add(gold_items(entry), predicted_items(extracted(entry)))
    return result


@pytest.fixture(scope="module")
def tuned() -> Score:
    return score(TUNED)


@pytest.fixture(scope="module")
def blind() -> Score:
    return score(["blind"])


def test_corpus_is_large_varied_and_full_of_traps() -> None:
    entries = _entries()
    assert len(entries) >= 200
    assert len({e["id"] for e in entries}) == len(entries)
    assert {e["split"] for e in entries} == {*TUNED, "blind"}
    assert {e["kind"] for e in entries} == {"message", "activity"}
    traps = Counter(t for e in entries for t in e["traps"])
    for trap in (
        "negation",
        "other-person",
        "past",
        "question",
        "hypothetical",
        "resolution",
        "pii",
    ):
        assert traps[trap] >= 5, trap
    assert (
        sum(1 for e in entries if not e["facts"] and not e["retract"]) >= 60
    )  # must yield nothing


def test_every_gold_fact_is_canonical_and_fills_its_slot() -> None:
    slots = {
        "sport": "primary sport",
        "goal": "goal",
        "duration": "typical duration",
        "time_preference": "time preference",
        "level": "level",
    }
    for entry in _entries():
        for text in entry["facts"]:
            fact = FactIn(text=text)
            category = gold_category(text)
            assert fact.conflict_key == slots.get(category), (entry["id"], text)
            if category == "injury" and fact.category is not Category.INJURY:
                # parts beyond seed 002's list (groin, leg, neck, ...) are tagged by the
                # extractor itself; vault.domain.text does not derive them from the text
                [found] = RuleExtractor().extract(f"my {text[4:-6]} hurts", source=Source.MANUAL)
                assert isinstance(found, FactIn) and found.category is Category.INJURY, text
                assert any(tag.startswith("body:") for tag in found.tags or ()), text
            elif category == "injury":
                assert any(tag.startswith("body:") for tag in fact.tags or ()), text


def test_tuned_splits_hold_their_floors(tuned: Score, capsys: pytest.CaptureFixture[str]) -> None:
    report = tuned.table("tuned splits (dev + holdout1 + holdout2)")
    with capsys.disabled():
        print("\n" + report)
    assert tuned.precision() >= TUNED_FLOORS["precision"], report
    assert tuned.recall() >= TUNED_FLOORS["recall"], report
    for category, (precision, recall) in TUNED_CATEGORY_FLOORS.items():
        assert tuned.precision(category) >= precision, f"{category}\n{report}"
        assert tuned.recall(category) >= recall, f"{category}\n{report}"


def test_blind_split_holds_its_floors(blind: Score, capsys: pytest.CaptureFixture[str]) -> None:
    report = blind.table("blind split (never tuned on)")
    with capsys.disabled():
        print("\n" + report)
    assert blind.precision() >= BLIND_FLOORS["precision"], report
    assert blind.recall() >= BLIND_FLOORS["recall"], report


def test_trap_messages_without_facts_yield_nothing_in_tuned_splits() -> None:
    leaks = [
        (entry["id"], entry["text"], sorted(predicted_items(extracted(entry))))
        for entry in _entries()
        if entry["split"] in TUNED
        and entry["traps"]
        and not entry["facts"]
        and not entry["retract"]
        and predicted_items(extracted(entry))
    ]
    assert leaks == []
