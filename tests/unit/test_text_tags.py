"""Entity tags and the injury category find a vocabulary's terms as whole words, each one on
its own: the same terms a search per term finds, whatever else the text holds."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from vault.domain.text import (
    BODY_PARTS,
    CONTEXT_TOPICS,
    INTENSITY_TOPICS,
    TIME_PREFERENCES,
    category_of,
    clean_text,
    entity_tags,
    normalize_text,
)
from vault.domain.vocabulary import Category
from vault.prompt.items import inline


def _each_term(text: str, terms: tuple[str, ...], plural: bool = False) -> set[str]:
    suffix = "s?" if plural else ""
    return {t for t in terms if re.search(rf"\b{re.escape(t)}{suffix}\b", text)}


_WORDS = st.sampled_from(
    [*BODY_PARTS, *TIME_PREFERENCES, *INTENSITY_TOPICS, *CONTEXT_TOPICS]
    + ["early", "s", "knees", "workout", "homework", "sore", "pain", "my", "-", "'s", "x"]
)
_TEXTS = st.lists(
    st.tuples(_WORDS, st.sampled_from(["", "s", "es", "ing"]), st.sampled_from([" ", "", ", "])),
    max_size=8,
).map(lambda parts: "".join(w + ending + gap for w, ending, gap in parts))


@given(_TEXTS)
def test_tags_are_every_term_a_search_per_term_finds(text: str) -> None:
    lowered = text.lower()
    assert entity_tags(text, Category.INJURY) == {
        f"body:{p}" for p in _each_term(lowered, BODY_PARTS, plural=True)
    }
    assert entity_tags(text, Category.PREFERENCE) == {
        f"time:{t}" for t in _each_term(lowered, TIME_PREFERENCES)
    } | {f"intensity:{t}" for t in _each_term(lowered, INTENSITY_TOPICS)}
    assert entity_tags(text, Category.CONTEXT) == {
        f"context:{t}" for t in _each_term(lowered, CONTEXT_TOPICS)
    }


@given(_TEXTS)
def test_an_injury_needs_a_body_part_as_a_whole_word(text: str) -> None:
    said = f"sore {text}"
    parts = _each_term(said.lower(), BODY_PARTS, plural=True)
    assert (category_of(said) is Category.INJURY) == bool(parts)


_ANY_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40
) | st.sampled_from(["has a sore knee\x90ankle", "doesn\x92t like mornings", "cafe\u0301 au lait"])


@given(_ANY_TEXT)
def test_a_stored_text_and_the_form_the_block_shows_are_one_text(text: str) -> None:
    """The MEMORY block and the engine's row show `inline(text)`; the engine writes back
    what it read. Dedup and erasure compare `normalize_text` of cleaned texts: they agree."""
    stored = clean_text(text)
    assert normalize_text(clean_text(inline(stored))) == normalize_text(stored)


@given(_ANY_TEXT)
def test_combining_accents_are_the_same_text(text: str) -> None:
    decomposed = unicodedata.normalize("NFD", text)
    assert clean_text(decomposed) == clean_text(text)
    assert normalize_text(clean_text(decomposed)) == normalize_text(clean_text(text))
