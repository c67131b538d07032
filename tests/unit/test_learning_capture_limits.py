"""A free-text capture longer than a fact may be is dropped, never raised (issue 28 review):
every frame that copies the speaker's words into the fact ("allergic to <x>", "my job as
<role>", "the <place> where I work", "my <x> business") meets an over-long capture here, and
the message is still read."""

from __future__ import annotations

from pathlib import Path

import pytest

from vault import open_vault
from vault.domain.limits import FACT_TEXT_MAX
from vault.domain.models import FactIn
from vault.domain.vocabulary import Source
from vault.extraction import RuleExtractor

LONG = "x" * (FACT_TEXT_MAX + 10)
FRAMES = [
    f"I'm allergic to {LONG}",
    f"I'm allergic to {LONG} and pollen",
    f"I have a {LONG} allergy",
    f"my job as a {LONG} keeps me busy",
    f"my job at the {LONG} is fun",
    f"the {LONG} where I work is big",
    f"the {LONG} I work at is crowded",
    f"I work as a {LONG}",
    f"I work at the {LONG}",
    f"my {LONG} business is growing",
    f"my {LONG} game was cancelled",
    f"I'm a {LONG} and I love it",
    f"I'm studying {LONG} at college",
    f"I have {LONG}",
    f"my {LONG} allergy is acting up",
]


@pytest.mark.parametrize("text", FRAMES)
def test_an_over_long_capture_is_dropped_not_raised(text: str) -> None:
    found = RuleExtractor().extract(text, source=Source.CONVERSATION)
    assert all(len(c.text) <= FACT_TEXT_MAX for c in found if isinstance(c, FactIn))
    assert not any(LONG in c.text for c in found if isinstance(c, FactIn))


def test_an_over_long_capture_leaves_the_rest_of_the_message(tmp_path: Path) -> None:
    vault = open_vault(tmp_path / "v.db", upgrade=True)
    vault.ingest_message("ana", f"I'm allergic to {LONG}. I'm vegan.")
    for text in FRAMES:
        vault.ingest_message("ana", text)
    texts = {fact.text for fact in vault.facts("ana")}
    assert "is vegan" in texts
    assert not any(LONG in text for text in texts)
