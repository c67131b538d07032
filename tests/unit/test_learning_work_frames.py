"""Work read by the frame of the clause (issue 28): whatever "I work as a ..." names is a role;
the speaker's own job in a possessive ("my job at the bank", "my nursing job"); a workplace in a
relative clause ("the bar I work at"); a field as the object of "work" ("I work retail")."""

from __future__ import annotations

import pytest

from tests.unit.test_learning_trust import believed, facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # any role after "I work as a"
        ("I work as a hostess on weekends", "works as a hostess"),
        ("I work as a park ranger", "works as a park ranger"),
        # the speaker's own job, whoever the clause is about
        ("Sorry, my job at the hospital keeps me busy", "works at the hospital"),
        ("Tomorrow I start my new job as a dental assistant", "works as a dental assistant"),
        ("My plumbing job pays the bills", "works in plumbing"),
        # a workplace in a relative clause
        ("The diner I work at closes early on Sundays", "works at a diner"),
        ("That's the library where I work", "works at a library"),
        # a field as the object of "work"
        ("I work retail, so weekends are busy", "works in retail"),
        # an adverb after the verb
        ("I work part-time at a garden centre", "works at a garden centre"),
    ],
)
def test_work_told_by_its_frame(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I work as a team with my brother",
        "My old job at the mill was awful",
        "I quit my job at the bank last spring",
        "My next job at the zoo starts in June",
        "The hours I work are long",
        "The people I work with are kind",
        "Back in college my job at the cafe paid for books",
    ],
)
def test_the_same_words_name_no_job(text: str) -> None:
    assert not any(f.startswith(("works ",)) for f in believed(text))


def test_a_possessive_job_is_one_fact_in_the_job_slot() -> None:
    assert [f for f in facts("My job at the bank is boring") if f.startswith("works")] == [
        "works at the bank"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the apostrophe lost
        ("I m a nurse on the night ward", "works as a nurse"),
        # a service with an adjective, a present perfect of working
        ("I serve in the British army", "works in the army"),
        ("I've been working in retail since school", "works in retail"),
        # a title after "being a", a job one has "as"
        ("I get plenty of steps being a mail carrier", "works as a mail carrier"),
        ("I've got a part-time job as a lifeguard", "works as a lifeguard"),
        # a business named by its trade, a title before a thing of the job
        ("Things are slow at my landscaping business", "owns a landscaping business"),
        ("My nurse uniform is in the wash", "works as a nurse"),
    ],
)
def test_more_work_frames(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "Honestly, that's none of my business",
        "I just mind my own business",
        "I'm thinking about being a nurse",
        "Being a lawyer is my dream",
    ],
)
def test_no_business_nor_job_of_the_speakers(text: str) -> None:
    assert not any(f.startswith(("owns", "works")) for f in facts(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The kids love coming into my candy shop", "owns a candy shop"),
        ("I'm off from my hardware store job all week", "works at a hardware store"),
    ],
)
def test_a_shop_of_ones_own_or_ones_workplace(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I went to my local pet store for treats",
        "My favourite bakery sells rye bread",
        "I picked up milk at my grocery store",
        "I use my phone to practice",
    ],
)
def test_a_shop_one_goes_to_is_no_business(text: str) -> None:
    assert not any(f.startswith(("owns", "works")) for f in facts(text))


@pytest.mark.parametrize(
    "text",
    [
        "I think I would like being a vet",
        "I once thought about being a pilot",
        "When I'm done being a cashier I'll travel",
    ],
)
def test_being_a_title_in_a_wish_or_an_end_is_no_job(text: str) -> None:
    assert not any(f.startswith("works") for f in facts(text))


def test_whatever_i_work_as_now_is_read_without_the_adverb() -> None:
    assert "is a student" in believed("I am working as a student now")


@pytest.mark.parametrize(
    "text",
    [
        # a time or a part of one, not a workplace
        "my job at the end of the day is to rest",
        "My job at the start of each week is planning",
        "the hours that I work in summer are long",
        "The shifts I work at night are brutal",
        "the days I work are long",
        # a pronoun, someone else's, a family or friendship role
        "my job as your friend is to tell you the truth",
        "my job as a mom is exhausting",
        "My job as a big sister is to annoy him",
        "my job as his wife is to keep him sane",
        # a job that ended, or denied
        "my job at the bank ended",
        "My job at the hardware store is over",
        "my job at the call centre finished last month",
        "I don't have my job at the bank anymore",
        "I no longer have my job as a cashier",
    ],
)
def test_a_job_frame_that_names_no_job_of_the_speakers_now_gives_nothing(text: str) -> None:
    assert not any(f.startswith("works ") for f in facts(text)), facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my job at the bank doesn't pay enough", "works at the bank"),
        ("My job at the hardware store will be busy", "works at the hardware store"),
        ("my job as a nurse can be stressful", "works as a nurse"),
        ("The bar I work at is crowded", "works at a bar"),
    ],
)
def test_a_job_frame_ends_its_capture_at_the_verb(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "As a lawyer would say, I plead the fifth",
        "As a lawyer says, I need a break",
        "As a doctor told me, I should rest more",
        "as a wise chef once said, I keep it simple",
        "As a friend of mine likes to say, I'm my own worst critic",
        "As a nurse of his put it, I need to slow down",
    ],
)
def test_as_a_role_that_quotes_or_compares_is_not_the_speakers_role(text: str) -> None:
    assert not any(f.startswith("works as") for f in facts(text)), facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As a nurse, I work long shifts", "works as a nurse"),
        ("As a teacher, my summers are free", "works as a teacher"),
    ],
)
def test_as_a_role_fronting_the_speaker_is_their_role(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        # a named body is no branch of service
        "I'm in the Salvation Army",
        "I'm in the Salvation army choir",
        # a joke marker: no self-description
        "I work as a slave for my boss lol",
        "I work as a professional napper haha",
        "I work as a human alarm clock for my kids jk",
        # a business that is no trade of the speaker's
        "it's my personal business",
        "That's my private business",
        "my husbands business is booming",
        "my dads business is doing well",
    ],
)
def test_a_named_body_a_joke_or_anothers_business_is_no_job(text: str) -> None:
    assert not any(f.startswith(("works ", "owns ")) for f in facts(text)), facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm in the army", "works in the army"),
        ("my plumbing business is growing", "owns a plumbing business"),
        ("I work as a nurse", "works as a nurse"),
    ],
)
def test_a_branch_a_trade_and_a_role_are_still_read(text: str, expected: str) -> None:
    assert expected in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # what one does "for a living": the object's head noun and the verb's doer
        ("Honestly I clean offices for a living", "works as an office cleaner"),
        ("I also build custom guitars for a living", "works as a guitar builder"),
        ("I babysit for a living, so evenings are hard", "works as a babysitter"),
        ("I translate for a living", "works as a translator"),
    ],
)
def test_what_one_does_for_a_living_is_a_job(text: str, expected: str) -> None:
    assert expected in believed(text)


@pytest.mark.parametrize(
    "text",
    [
        "I work for a living like everyone else",
        "I do this for a living, you know",
        "My brother fixes boilers for a living",
        "I used to deliver mail for a living",
        "Do you paint houses for a living?",
        # a verb that is no trade, a catenative, a preposition: no title is made up
        "I basically argue for a living",
        "Sometimes it feels like I sit in traffic for a living",
        "I want to write for a living",
        "I lie for a living lol",
    ],
)
def test_for_a_living_without_a_job_of_ones_own(text: str) -> None:
    assert not any(f.startswith("works as") for f in facts(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a retired <title>: the title says what one was, the word what one is
        ("I'm a retired firefighter, so I have time to train", "is retired"),
        ("I am a happily retired accountant", "is retired"),
        # a school year said in words, or a student's year at school
        ("I'm in the ninth grade and play in the band", "is a student"),
        ("I'm a college sophomore", "is a student"),
    ],
)
def test_retirement_and_school_years_said_in_words(text: str, expected: str) -> None:
    assert expected in believed(text)
