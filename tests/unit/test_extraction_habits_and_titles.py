"""Kinds the fresh persona speakers showed (issue 28), with sentences written for the test, each
with its near misses: the same words where they are not a present fact about the speaker.

- an activity told by its own verb as a habit of the speaker ("I hike every weekend");
- a job title narrowed by the place, field, school stage or sport of the work ("a hospital
  pharmacist"), never by a word that describes the person ("an unemployed teacher"); sport for
  pay as a job; a store one manages; a job wished for or missed is none;
- watching governs its own list items; a relative clause is about whom it follows; "no" before
  a noun denies that noun only; a survivor of an illness had it."""

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
        ("Honestly I skate every winter on the pond.", "also does skating"),  # ice, not a board
        ("We go for walks along the canal most days.", "also does walking"),
        # a time or a word of chat may open the clause
        ("Most weekends I snowboard.", "also does snowboarding"),
        ("In the summer I kayak a lot.", "also does kayaking"),
        ("Oh I climb when I have the time.", "also does climbing"),
    ],
)
def test_an_activity_told_by_its_own_verb_is_done(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I box the leftovers for my lunch.",  # an object
        "I skate over the details sometimes.",  # a particle: another verb
        "I wrestle with my conscience.",  # a figure of speech
        "I wrestle with my kids every night.",  # play: "with" names the other side
        "I surf a lot of forums at night.",  # "a lot of" opens an object
        "I climb a few stairs at work.",
        "I walk with a limp these days.",
        "I surf on my phone all evening.",
        "I climb in my company, slowly.",
        "My wife skis every winter.",  # another subject
        "My wrist hurts when I climb.",  # a clause of time
        "I doubt I golf at all this year.",  # the speaker is not the clause's subject
        "The horses that I ride are old.",
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
        ("I'm a hospital pharmacist.", "works as a hospital pharmacist"),
        ("I'm a middle school music teacher.", "works as a music teacher"),
        ("I am a third grade teacher.", "works as a third grade teacher"),
        ("I'm a tennis coach.", "works as a tennis coach"),
        ("I work nights as a hospital pharmacist.", "works as a hospital pharmacist"),
        # after "as a" too, a describing word is left out
        ("I work twelve hour shifts as a pediatric nurse.", "works as a nurse"),
        ("I'm employed as a civil engineer.", "works as an engineer"),
        # liking one's work is no wish for it; a dash ends the title
        ("I love being a bee farmer.", "works as a bee farmer"),
        ("I'm working as a baker--it pays the bills.", "works as a baker"),
        # a word that may describe the person is no part of the title
        ("I'm a proud new nurse.", "works as a nurse"),
        ("I'm a Walmart cashier.", "works as a cashier"),
        ("I'm a coffee shop barista.", "works as a barista"),  # "shop" needs its "coffee"
        ("I'm a social media manager.", "works as a manager"),
        ("I'm a 40 year old accountant.", "works as an accountant"),
        # sport for pay is work
        ("I'm a professional golfer.", "works as a professional golfer"),
        ("I'm a pro boxer.", "works as a pro boxer"),
        ("I am a semi-pro hockey player.", "works as a semi-pro hockey player"),
        # the one who manages a store is its manager
        ("I manage a hardware store.", "works as a hardware store manager"),
        # a role for an employer
        ("I'm a reporter for a local newspaper.", "works as a reporter"),
        # a field after "the"
        ("I work in the real estate business.", "works in real estate"),
    ],
)
def test_a_title_keeps_the_words_that_say_what_kind(text: str, expected: str) -> None:
    learned = believed(text)
    assert expected in learned, learned
    assert not any(
        f.startswith(("works as", "works in ", "works at")) and f != expected for f in learned
    ), learned


@pytest.mark.parametrize(
    "text",
    [
        "I'm a patient at a dental clinic.",
        "I'm a little worried my doctor is wrong.",  # a title word after a possessive
        "I'm a bit sore since physio on Monday.",  # a degree, not an article and a noun
        "I'm a tad nervous before dentist visits.",
        "I'm a farmer's daughter.",  # the title is not the head of its phrase
        "I'm a teacher's pet.",
        "I'm an unemployed teacher.",  # a job one has not got
        "I'm a volunteer coach.",
        "I'm an expert gardener.",  # a skill
        "I'm a professional gym rat at this point.",  # no sport, no job
        "I'm a pro hiker in my dreams.",
        "As a woman my doctor ignores me.",
        "I volunteer as a youth soccer coach.",  # only "I'm a" may skip a describing word
        "I'm a retired professional golfer.",
        "I'm a professional golfer's wife.",  # the title ends its phrase
        "I'd love to be a professional dancer.",
        "My brother is a professional hockey player.",
        "I'm a graduate student.",  # study, not a job: `is a student`
        # a pastime or a skill: "a keen baker" bakes for fun, "a hopeless cook" badly
        "I'm a keen amateur baker.",
        "I'm a hopeless cook.",
        "I'm an avid photographer.",
        # a job wished for, missed or managed in another sense
        "I'd love to work as a pediatric nurse.",
        "My dream is to work as a vet.",
        "I want to work as a nurse.",
        "I miss being a gym teacher.",
        "I manage my money carefully.",
        "I run the nursery at church on Sundays.",  # a task, not one's own business
        "I'm looking for work as a nurse.",  # a job looked for
        "I'm applying for a job as a paramedic.",
        "I can't wait to start my career as a physical therapist.",
        "I'm following in his footsteps as a navy pilot.",  # a bare "as a" with its own word
        "I volunteer as a soccer coach.",
        "I'm a sucker for a good bakery.",  # a taste, not an employer
        # "for" a thing is a taste, not an employer
        "I'm a sucker for a good burrito.",
        "I'm a stickler for clean dishes.",
        "I manage the store's social media.",
        "I run the company softball team.",
    ],
)
def test_no_title_from_a_phrase_that_is_no_job_of_mine(text: str) -> None:
    learned = facts(text)
    assert not any(fact.startswith(("works as", "runs a", "owns a")) for fact in learned), learned


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("engineer", "an"),
        ("used car salesman", "a"),
        ("university lecturer", "a"),
        ("unemployed teacher", "an"),
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
        # a list of things watched runs on past its commas
        ("I love watching darts, snooker, and cycling.", None, "likes cycling"),
        ("I like watching the Olympics, especially rowing.", None, "likes rowing"),
        ("I like to watch golf and tennis.", None, "likes tennis"),
        # what is watched is a screen or a story: the items after it are done
        ("I like reading, watching films, hiking, and rowing.", "likes hiking", None),
        ("I love watching darts, snooker, and cycling.", None, "likes cycling"),
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
        # a relative clause is about whom it follows
        ("I have three daughters who never call.", "has kids", None),
        ("I have a neighbour who swims every morning.", None, "primary sport: swimming"),
        ("I have a brother who hates yoga.", None, "dislikes yoga"),
        ("I'm a mom of a boy who hates cycling.", None, "dislikes cycling"),
        # unless whom it follows is the speaker
        ("I'm a dad who loves to hike.", "likes hiking", None),
        ("I'm a nurse at a clinic run by a doctor who loves to surf.", None, "likes surfing"),
        # and the clause after it goes on with the speaker
        ("I have a cat who is shy, but still love hiking alone.", "likes hiking", None),
    ],
)
def test_a_relative_clause_is_about_whom_it_follows(
    text: str, mine: str | None, not_mine: str | None
) -> None:
    learned = believed(text)
    if mine:
        assert mine in learned, learned
    if not_mine:
        assert not_mine not in facts(text), learned


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
