"""One category per canonical text, whatever the path (issue 11): a fact given to `remember` or
`merge` without a category is filed where the extractor files the same text."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
import yaml

from vault.domain.models import FactIn
from vault.domain.vocabulary import Category, Source
from vault.extraction import RuleExtractor

DATA = Path(__file__).resolve().parents[1] / "data"
NOW = datetime(2026, 3, 1, tzinfo=timezone.utc)


def _texts(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [
            t
            for key, value in node.items()
            for t in (
                [value]
                if key in ("text", "turn", "message") and isinstance(value, str)
                else _texts(value)
            )
        ]
    if isinstance(node, list):
        return [t for item in node for t in _texts(item)]
    return []


def _extracted() -> dict[str, Category]:
    texts = [
        e["text"] for e in yaml.safe_load((DATA / "extraction_corpus.yaml").read_text())["entries"]
    ]
    for name in ("persona_corpus.yaml", "activity_logs.yaml"):
        texts += _texts(yaml.safe_load((DATA / name).read_text()))
    found: dict[str, Category] = {}
    for text in texts:
        for candidate in RuleExtractor().extract(
            text, source=Source.USER_MESSAGE, source_ref=None, observed_at=NOW
        ):
            if isinstance(candidate, FactIn):
                found[candidate.text] = candidate.category
    return found


EXTRACTED = _extracted()


def test_the_corpora_give_many_distinct_canonical_texts() -> None:
    assert len(EXTRACTED) > 150 and len(set(EXTRACTED.values())) >= 8


@pytest.mark.parametrize("text", sorted(EXTRACTED))
def test_a_canonical_text_gets_the_extractors_category_without_one(text: str) -> None:
    assert FactIn(text=text).category is EXTRACTED[text]
