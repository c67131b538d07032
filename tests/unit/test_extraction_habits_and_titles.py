"""Two kinds the fresh persona speakers showed (issue 28), with sentences written for the test:

- an activity told by its own verb as a habit of the speaker ("I hike every weekend"), and the
  same verb with an object, a particle, another subject or inside a clause of time or condition;
- a job title with the words that say what kind of work it is ("a convenience store manager"),
  without the words that describe the person ("a proud nurse"), and sport for pay as a job."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts
from vault.extraction.words import indefinite


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I snowboard most winters.", "also does snowboarding"),
        ("We canoe on the river in the summer.", "also does kayaking"),
        ("I usually wrestle twice a week at the club.", "also does wrestling"),
        ("I bowl with my coworkers on Thursdays.", "also does bowling"),
        ("I fish whenever the weather is nice.", "also does fishing"),
        ("I really just dance, mostly salsa.", "also does dance"),
        ("I climb at the bouldering gym near my house.", "also does climbing"),
    ],
)
def test_an_activity_told_by_its_own_verb_is_done(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "I box the leftovers for my lunch.",  # an object
        "I skate over the details sometimes.",  # a particle: another verb
        "My wife skis every winter.",  # another subject
        "My wrist hurts when I climb.",  # a clause of time
        "If I surf in winter I need a thicker suit.",  # a condition
        "I'd kayak every day if I lived by the lake.",  # a wish
        "I don't golf anymore.",  # a denial
        "I like fish, but not salmon.",  # the food, not the verb
        "Do you ski?",  # a question
    ],
)
def test_the_same_verbs_outside_the_habit_frame_are_no_activity(text: str) -> None:
    learned = facts(text)
    assert not any(fact.startswith("also does") for fact in learned), learned


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a hardware store manager.", "works as a hardware store manager"),
        ("I'm a middle school music teacher.", "works as a middle school music teacher"),
        ("I am a pediatric dental hygienist.", "works as a pediatric dental hygienist"),
        ("I'm a used car salesman.", "works as a used car salesman"),
        # the words that describe the person are no part of the title
        ("I'm a proud new nurse.", "works as a nurse"),
        ("I'm a 40 year old accountant.", "works as an accountant"),
        ("I'm a part-time night shift nurse.", "works as a nurse"),
        ("I'm a successful divorce lawyer.", "works as a divorce lawyer"),
        # sport for pay is work
        ("I'm a professional golfer.", "works as a professional golfer"),
        ("I am a semi-pro hockey player.", "works as a semi-pro hockey player"),
    ],
)
def test_a_title_keeps_the_words_that_say_what_kind(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm a patient at a dental clinic.",
        "I'm a retired professional golfer.",
        "I'd love to be a professional dancer.",
        "My brother is a professional hockey player.",
        "I'm a graduate student.",  # study, not a job: `is a student`
        # a pastime or a skill: "a keen baker" bakes for fun, "a hopeless cook" badly
        "I'm a keen amateur baker.",
        "I'm a hopeless cook.",
        "I'm an avid photographer.",
    ],
)
def test_no_title_from_a_phrase_that_is_no_job_of_mine(text: str) -> None:
    learned = facts(text)
    assert not any(fact.startswith("works as") for fact in learned), learned


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("engineer", "an"),
        ("used car salesman", "a"),
        ("university lecturer", "a"),
        ("er nurse", "an"),
        ("hourly worker", "an"),
        ("nurse", "a"),
        ("one-man band", "a"),
    ],
)
def test_the_article_follows_the_first_sound(word: str, article: str) -> None:
    assert indefinite(word) == article


@pytest.mark.parametrize(
    ("text", "done", "watched"),
    [
        # "watch" governs its own list items, not an item with its own verb of doing
        ("I like to watch films, cook, and go for long walks.", "likes walking", None),
        ("I enjoy watching hockey and playing squash.", "likes squash", "likes hockey"),
        ("I love cycling while I watch the news.", "likes cycling", None),
        ("I like to watch golf and tennis.", None, "likes tennis"),
        ("I love rugby on TV.", None, "likes rugby"),
    ],
)
def test_watching_governs_its_own_items_only(
    text: str, done: str | None, watched: str | None
) -> None:
    learned = believed(text)
    if done:
        assert done in learned
    if watched:
        assert watched not in learned


@pytest.mark.parametrize(
    ("text", "mine", "not_mine"),
    [
        # a relative clause is about what it follows
        ("I have three daughters who never call.", "has kids", None),
        ("I have a neighbour who swims every morning.", None, "primary sport: swimming"),
        ("I have a brother who hates yoga.", None, "dislikes yoga"),
        # unless what it follows is the speaker
        ("I'm a dad who loves to hike.", "likes hiking", None),
    ],
)
def test_a_relative_clause_is_about_what_it_follows(
    text: str, mine: str | None, not_mine: str | None
) -> None:
    learned = facts(text)
    if mine:
        assert mine in learned, learned
    if not_mine:
        assert not_mine not in learned, learned


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a title said in capitals with its workplace
        ("I'm an LPN at a nursing home.", "works as an LPN"),
        ("I am a CPA for a small firm.", "works as a CPA"),
        # the words that say what kind, after "as a" too
        ("I work nights as a pediatric nurse.", "works as a pediatric nurse"),
        # the one who manages a place is its manager
        ("I manage a hardware store.", "works as a hardware store manager"),
    ],
)
def test_a_title_in_capitals_or_after_as_is_believed(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "My son is an RN at a hospital.",
        "I'm a VIP at the casino.",
        "I'd love to work as a pediatric nurse.",  # a wish
        "My dream is to work as a vet.",
        "I want to work as a nurse.",
        "I manage my money carefully.",
    ],
)
def test_a_title_of_another_or_of_no_job_is_not_mine(text: str) -> None:
    assert not any(fact.startswith("works as") for fact in believed(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "no" before a noun joined to the clause denies that noun only
        ("I have three kids and no free time.", "has kids"),
        ("I have asthma but no other problems.", "has asthma"),
        # a survivor of an illness had it, however it is said
        ("I'm a survivor of ovarian cancer.", "had cancer"),
        ("I'm a breast cancer survivor.", "had cancer"),
    ],
)
def test_a_denied_noun_or_a_survivor_still_says_the_fact(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("I have no kids and no plans to.", "has kids"),
        ("I don't have asthma, no.", "has asthma"),
        ("My aunt is a cancer survivor.", "had cancer"),
    ],
)
def test_a_denied_predicate_or_another_persons_illness_is_not_mine(text: str, fact: str) -> None:
    assert fact not in facts(text)
