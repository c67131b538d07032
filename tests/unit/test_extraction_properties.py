"""Property tests: no input crashes the extractors; the LLM adapter raises only ExtractionError."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vault.domain.errors import ExtractionError
from vault.domain.models import FactIn, Retraction
from vault.domain.text import HEALTH_CONDITIONS
from vault.domain.vocabulary import Source
from vault.extraction import RuleExtractor, find_pii, parse_llm_reply, scrub_text
from vault.extraction.clauses import split_clauses

CANONICAL = re.compile(
    r"primary sport: \w+|prefers (?:morning|lunchtime|afternoon|evening) sessions"
    r"|typical duration: \d+ min"
    r"|goal: [\w ]+|level: (?:beginner|intermediate|advanced)|has (?:recurring )?(?:(?:left"
    r"|right) )?[\w ]+ issue"
    r"|(?:likes|dislikes) [\w ]+|also does [\w ]+|works as an? [\w ]+|recovers (?:quickly|slowly)"
    r"|[\w ]+ leave them \w+|responds well to [\w ]+|works (?:night )?shifts|has kids"
    r"|busy schedule|is a student|has trouble sleeping|(?:teaches|coaches) [\w ]+"
    r"|has a partner|is not working|sleeps (?:poorly|about \d+ hours)|counts calories"
    r"|does intermittent fasting|preps meals|wants to (?:lose weight|get stronger)"
    r"|(?:owns|runs) an? [\w ]+"
    r"|is retired|has a desk job|works from home|works long hours|travels often for work"
    r"|commutes by bike"
    r"|run-commutes to work|has a long commute"
    r"|works (?:in|at|on|for) [\w ]+|is (?:vegan|vegetarian|pescatarian|pregnant)|eats [\w -]+"
    r"|had (?:cancer|surgery)|has (?:a disability|sleep debt|"
    + "|".join(re.escape(c) for c in HEALTH_CONDITIONS)
    + ")"
)
WORDS = st.sampled_from(
    """
    I i'm my wife coach run running ride swim knee left sore fine now not don't never used to
    should what if ? . , but and marathon half 10k usually 45 minutes an hour morning evening
    before work love hate intervals treadmill kids nurse shifts busy recover quickly long runs
    leave me exhausted anymore switched to cycling history of achilles John Sarah 07700 900123
    jo@x.com https://x.io 12 Baker Street beginner goal training for since the
    """.split()  # noqa: SIM905
)
athlete_like = st.lists(WORDS, max_size=40).map(" ".join)
any_text = st.one_of(st.text(max_size=400), athlete_like)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(any_text)
def test_rule_extractor_never_crashes_and_only_speaks_canonically(text: str) -> None:
    found = RuleExtractor().extract(text, source=Source.USER_MESSAGE)
    for candidate in found:
        assert isinstance(candidate, (FactIn, Retraction))
        if isinstance(candidate, FactIn):
            assert CANONICAL.fullmatch(candidate.text), candidate.text
            assert candidate.extractor and candidate.extractor.startswith("rules:")
            assert not find_pii(candidate.text)


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_clause_splitting_never_crashes(text: str) -> None:
    for clause in split_clauses(text):
        assert clause.text == clause.text.lower()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_scrub_text_never_crashes_and_never_returns_pii(text: str) -> None:
    cleaned = scrub_text(text)
    if cleaned is not None:
        assert not [s for s in find_pii(cleaned) if s.kind != "name"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
fact_items = st.fixed_dictionaries(
    {"fact": st.one_of(st.text(max_size=220), json_values)},
    optional={
        "category": st.one_of(
            st.sampled_from(
                ["personal", "preference", "work", "habit", "relationship", "sport", "hobby"]
            ),
            json_values,
        ),
        "confidence": st.one_of(st.floats(allow_nan=True, allow_infinity=True), json_values),
    },
)
replies = st.one_of(
    st.text(max_size=400),
    st.lists(st.one_of(fact_items, json_values), max_size=5).map(json.dumps),
    st.lists(fact_items, max_size=5).map(
        lambda items: "Here you go:\n```json\n" + json.dumps(items) + "\n```"
    ),
)


@settings(max_examples=400, deadline=None)
@given(replies)
def test_llm_adapter_returns_facts_or_raises_extraction_error_only(reply: str) -> None:
    try:
        facts = parse_llm_reply(reply, model="prop")
    except ExtractionError as exc:
        assert str(exc)
        return
    for fact in facts:
        assert isinstance(fact, FactIn) and fact.extractor == "llm:prop"
        assert 0.0 <= fact.confidence <= 1.0 and len(fact.text) <= 200


HOSTILE = [
    "A" + " " * 20_000 + "B is here",
    "1-" * 10_000,
    "1 " * 10_000 + "a",
    "x." * 10_000,
    "a" * 20_000,
    "a@" * 10_000,
    "Sarah " * 4_000,
    " and" * 6_000,
    "my knee " * 3_000,
]


def test_hostile_inputs_are_handled() -> None:
    """Hostile shapes give ordinary answers; their cost is checked by operation counts in
    test_extraction_linear.py (growth from n to 4n), never by the wall clock."""
    for text in HOSTILE:
        assert isinstance(RuleExtractor().extract(text, source=Source.USER_MESSAGE), list)
        assert isinstance(find_pii(text), list)
