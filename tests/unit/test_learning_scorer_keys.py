"""The label scorer (tools/eval_learning.py) gives health facts, employers and table tennis the
keys the label files use, so a true stored fact is not counted wrong (issue 28)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _scorer() -> Any:
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location("eval_learning", ROOT / "tools/eval_learning.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_learning"] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("stored", "key"),
    [
        ("is pregnant", "health:pregnancy"),
        ("has a disability", "health:disability"),
        ("had cancer", "health:cancer"),
        ("works for the US Postal Service", "job:us postal service"),
        ("likes ping pong", "activity:table tennis"),
        ("works in the army", "job:army"),  # the article is no part of the key
        # the family and injury facts keep their own keys ahead of the health reading of "has"
        ("has kids", "family:kids"),
        ("has a partner", "family:partner"),
        ("has recurring knee issue", "injury:knee"),
    ],
)
def test_stored_fact_carries_its_label_key(stored: str, key: str) -> None:
    assert _scorer().fact_key(stored) == key


@pytest.mark.parametrize(
    ("key", "labels", "expected"),
    [
        ("job:elementary school teacher", {"job:teacher"}, "job:teacher"),
        ("job:convenience store manager", {"job:store manager"}, "job:store manager"),
        (
            "job:convenience store manager",
            {"job:convenience store manager", "job:manager"},
            "job:convenience store manager",
        ),
        ("job:steelworker", {"job:worker"}, "job:steelworker"),  # a word, not a compound
        # the most specific labelled title
        ("job:hardware store manager", {"job:manager", "job:store manager"}, "job:store manager"),
        ("activity:trail running", {"activity:running"}, "activity:trail running"),
    ],
)
def test_a_narrowed_job_title_is_the_labelled_job(
    key: str, labels: set[str], expected: str
) -> None:
    assert _scorer()._narrowed(key, labels) == expected
