"""The person a question asks about: their own episodes (`speaker` metadata) are preferred,
and their name stops counting as a word (every one of their messages would match it)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from vault import Vault

ASKED = datetime(2024, 3, 30, 12, 0, tzinfo=timezone.utc)
T0 = datetime(2024, 3, 1, 19, 0, tzinfo=timezone.utc)


def turn(speaker: str | None, text: str, ref: str, minutes: int, session: str) -> dict[str, object]:
    meta: dict[str, object] = {"session": session}
    if speaker is not None:
        meta["speaker"] = speaker
    return {
        "text": f"{speaker}: {text}" if speaker else text,
        "at": T0 + timedelta(minutes=minutes),
        "ref": ref,
        "meta": meta,
    }


def two_people(vault: Vault, with_speakers: bool = True) -> None:
    """Priya and Tom talk over a few evenings; both mention cooking and books."""
    p = "Priya" if with_speakers else None
    t = "Tom" if with_speakers else None
    day = 24 * 60
    vault.episodes.add(
        "chat",
        [
            turn(t, "I cook a big curry every Sunday for my flatmates", "t1", 0, "s1"),
            turn(p, "ok!", "p1", 1, "s1"),
            turn(p, "lol", "p2", 2, "s1"),
            turn(p, "I mostly cook soups when it gets cold", "p3", day, "s2"),
            turn(t, "soups are nice", "t2", day + 1, "s2"),
            turn(t, "I am reading a thriller about a heist", "t3", 2 * day, "s3"),
            turn(p, "cool", "p4", 2 * day + 1, "s3"),
            turn(
                p,
                "my book club picked a novel about a lighthouse keeper on a stormy island up north",
                "p5",
                3 * day,
                "s4",
            ),
            turn(t, "Priya, did you finish it?", "t4", 7 * day, "s8"),
            turn(t, "Priya, your novel beats mine", "t5", 4 * day, "s5"),
            turn(p, "I go bouldering at the gym on weekends with my brother", "p6", 5 * day, "s6"),
            turn(p, "ok", "p7", 5 * day + 1, "s6"),
            turn(p, "sure", "p8", 5 * day + 2, "s6"),
            turn(t, "weekends are for sleeping in", "t6", 6 * day, "s7"),
        ],
        now=ASKED,
    )


def refs(vault: Vault, question: str, k: int = 3) -> list[str]:
    return [e.ref or "" for e in vault.episodes.recall("chat", question, now=ASKED, k=k)]


def test_the_named_persons_own_turn_comes_before_the_others_with_the_same_words(
    vault: Vault,
) -> None:
    two_people(vault)
    assert refs(vault, "What does Priya cook?")[0] == "p3"
    assert refs(vault, "What does Tom cook?")[0] == "t1"
    # Tom's short turn names her and the novel; she said what the novel is about
    assert refs(vault, "What novel is Priya reading?")[0] == "p5"


def test_the_name_is_no_word_so_short_turns_of_that_person_do_not_rise(vault: Vault) -> None:
    two_people(vault)
    found = refs(vault, "What does Priya do on weekends?", k=2)
    assert found == ["p6", "t6"]  # not "Priya: ok", which holds only her name


def test_the_speaker_part_is_shown_and_only_for_that_persons_turns(vault: Vault) -> None:
    two_people(vault)
    found = vault.episodes.recall("chat", "What does Priya cook?", now=ASKED, k=4)
    parts = {e.ref: e.parts.speaker for e in found}
    assert parts["p3"] == 1.0
    assert parts.get("t1", 0.0) == 0.0
    # a turn that only addresses her by name keeps the names part, not the speaker part
    addressed = vault.episodes.recall("chat", "did Priya finish it", now=ASKED, k=1)[0]
    assert addressed.ref == "t4"
    assert addressed.parts.speaker == 0.0 and addressed.parts.entity == 1.0


def test_without_speaker_metadata_a_name_is_matched_as_before(vault: Vault) -> None:
    two_people(vault, with_speakers=False)
    found = vault.episodes.recall("chat", "did Priya finish it", now=ASKED, k=1)
    assert found[0].ref == "t4"
    assert all(e.parts.speaker == 0.0 for e in found)


def test_a_name_the_messages_open_with_says_who_spoke_without_metadata(vault: Vault) -> None:
    vault.episodes.add(
        "chat",
        [
            {"text": text, "at": T0 + timedelta(days=n), "ref": ref}
            for n, (ref, text) in enumerate(
                [
                    ("t1", "Tom: Priya, your novel beats mine"),
                    ("p1", "Priya: my book club picked a novel about a lighthouse keeper up north"),
                    ("p2", "Priya: ok"),
                ]
            )
        ],
        now=ASKED,
    )
    found = vault.episodes.recall("chat", "What novel is Priya reading?", now=ASKED, k=2)
    assert [e.ref for e in found] == ["p1", "t1"]
    assert found[0].parts.speaker == 1.0 and found[1].parts.speaker == 0.0


def test_a_name_that_is_nobodys_speaker_stays_a_word(vault: Vault) -> None:
    two_people(vault)
    vault.episodes.add(
        "chat",
        [turn("Tom", "my cousin Aiko visited and we went climbing", "t5", 5 * 24 * 60, "s5")],
        now=ASKED,
    )
    found = vault.episodes.recall("chat", "What did Aiko do?", now=ASKED, k=1)
    assert found[0].ref == "t5"
    assert found[0].parts.speaker == 0.0 and found[0].parts.text > 0


def hobbies(vault: Vault) -> None:
    """Lena says once that pottery is her hobby; other evenings she talks about the pottery
    studio without the word, among talk of other things."""
    day = 24 * 60
    other = [
        turn("Lena", f"work was busy again, meetings all afternoon ({n})", f"w{n}", n * day, "s0")
        for n in range(1, 12)
    ]
    vault.episodes.add(
        "lena",
        [
            turn("Lena", "my new hobby is pottery, the studio downtown has a wheel", "h1", 0, "a"),
            turn(
                "Lena", "fired my first bowl in the kiln at the pottery studio", "h2", 3 * day, "b"
            ),
            turn("Omar", "the museum had a long queue", "o1", 5 * day, "c"),
            *other,
        ],
        now=ASKED,
    )


def test_the_best_matches_words_bring_in_what_shares_them_and_no_question_word(
    vault: Vault,
) -> None:
    from vault.services.recall import RecallOptions, RecallRequest, recall
    from vault.storage.repositories.episodes import EpisodeRepository

    hobbies(vault)
    question = "What hobbies does Lena have?"
    found = vault.episodes.recall("lena", question, now=ASKED, k=3)
    assert [e.ref for e in found][:2] == ["h1", "h2"]  # h2 holds no word of the question
    assert 0 < found[1].parts.text < found[0].parts.text
    with vault.engine.connect() as connection:
        request = RecallRequest("lena", question, ASKED, k=3, options=RecallOptions(feedback=0.0))
        without = recall(EpisodeRepository(connection), request)
    assert "h2" not in [e.ref for e in without]


def gifts(vault: Vault) -> None:
    """Each of two people says what they gave the other, in the same words."""
    vault.episodes.add(
        "gifts",
        [
            turn("Mia", "I gave a scarf to him for his birthday", "m1", 0, "s1"),
            turn("Leo", "I gave a scarf to her, knitted it myself", "l1", 24 * 60, "s2"),
            turn("Mia", "we both love scarves apparently", "m2", 2 * 24 * 60, "s3"),
        ],
        now=ASKED,
    )


def test_the_first_person_named_is_asked_about_and_a_later_one_is_talked_of(
    vault: Vault,
) -> None:
    gifts(vault)
    found = vault.episodes.recall("gifts", "What did Leo give Mia?", now=ASKED, k=2)
    assert found[0].ref == "l1" and found[0].parts.speaker == 1.0
    assert all(e.parts.speaker == 0.0 for e in found if e.ref != "l1")
    found = vault.episodes.recall("gifts", "What did Mia give Leo?", now=ASKED, k=1)
    assert found[0].ref == "m1"


def test_people_joined_by_and_are_asked_about_together(vault: Vault) -> None:
    gifts(vault)
    found = vault.episodes.recall("gifts", "Did Mia and Leo both give scarves?", now=ASKED, k=3)
    assert {e.ref for e in found if e.parts.speaker == 1.0} == {"m1", "l1", "m2"}
