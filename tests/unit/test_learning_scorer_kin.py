"""The learning scorer (tools/person_facts.py) reads a grandparent's kin as one group: a stored
`has grandchildren` is supported by the grandsons, granddaughters or grand-kids a person wrote
of, and a sentence about them is of the family kind (issue 28)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _scorer() -> Any:
    spec = importlib.util.spec_from_file_location("person_facts", ROOT / "tools/person_facts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "sentence",
    [
        "I have two grandsons.",
        "I have a granddaughter who swims.",
        "I love cooking for my grandkids.",
        "I have three grand-kids.",
        "I have a new grandbaby.",
    ],
)
def test_grand_kin_supports_has_grandchildren(sentence: str) -> None:
    scorer = _scorer()
    assert scorer.supports(sentence, "has grandchildren")
    assert "family" in scorer.kinds_of(sentence)


def test_grand_kin_is_not_a_child_of_ones_own() -> None:
    scorer = _scorer()
    assert not scorer.supports("I have two grandsons.", "has kids")
    assert not scorer.supports("I have two sons.", "has grandchildren")
