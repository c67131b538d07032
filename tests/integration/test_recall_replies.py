"""Recall of the answer to a question asked in the conversation: the turn after a question,
said by someone else, answers it whatever its words, so the question's match lifts it at
`Weights.reply` (0.80) where any other session neighbour gets 0.40; on both backends."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from vault import Vault
from vault.services.recall import RecallOptions

ASKED = datetime(2024, 9, 1, 12, 0, tzinfo=timezone.utc)
T0 = datetime(2024, 8, 1, 19, 0, tzinfo=timezone.utc)
DAY = 86400


def said(speaker: str, text: str, ref: str, seconds: int, session: str) -> dict[str, object]:
    return {
        "text": f"{speaker}: {text}",
        "at": T0 + timedelta(seconds=seconds),
        "ref": ref,
        "meta": {"speaker": speaker, "session": session},
    }


def other_days() -> list[dict[str, object]]:
    """Eight later days, each its own session, that say "play" without saying which."""
    return [
        said(
            "Ana",
            f"the kids play outside all afternoon, day {n}",
            f"d{n}",
            DAY * (n + 2),
            f"s{n + 2}",
        )
        for n in range(8)
    ]


def talk(vault: Vault, *turns: dict[str, object]) -> None:
    """Ana's conversation: these turns, then the eight later days."""
    vault.episodes.add("ana", [*turns, *other_days()], now=ASKED)


def chat(vault: Vault, after_question: str, asker: str = "Bo") -> None:
    """Bo asks about instruments; the next turn is `after_question`; other days mention
    instruments and playing without saying which."""
    talk(
        vault,
        said("Ana", "long day at work, finally home", "s0", 0, "s1"),
        said(asker, "What instruments do you play these days?", "q", 600, "s1"),
        said("Ana", after_question, "a", 1200, "s1"),
        said("Bo", "cool, let's jam some time", "c", 1800, "s1"),
    )


def recalled(vault: Vault, question: str, k: int, **options: bool) -> dict[str, float]:
    """The refs recall returns in order, each with its neighbour part."""
    from vault.services.recall import RecallRequest, recall
    from vault.storage.repositories.episodes import EpisodeRepository

    with vault.engine.connect() as connection:
        request = RecallRequest("ana", question, ASKED, k=k, options=RecallOptions(**options))
        found = recall(EpisodeRepository(connection), request)
        return {e.ref or "": e.parts.neighbour for e in found}


def refs(vault: Vault, question: str, k: int = 5, **options: bool) -> list[str]:
    return list(recalled(vault, question, k, **options))


def test_the_reply_to_a_matching_question_is_found_without_the_questions_words(
    vault: Vault,
) -> None:
    chat(vault, "mostly violin, and a bit of clarinet lately")
    assert "a" in refs(vault, "What instruments does Ana play?", k=3)
    # without the reply rule the answer is one neighbour among the turns that repeat the words
    assert "a" not in refs(vault, "What instruments does Ana play?", k=3, replies=False)


def test_the_reply_carries_its_lift_in_the_neighbour_part(vault: Vault) -> None:
    chat(vault, "mostly violin, and a bit of clarinet lately")
    found = vault.episodes.recall("ana", "What instruments does Ana play?", now=ASKED, k=3)
    answer = next(e for e in found if e.ref == "a")
    # a plain neighbour's lift is the question's match (about 0.77 here); a reply's twice it
    assert answer.parts.text == 0.0 and answer.parts.neighbour > 1.0


def test_the_asker_going_on_is_not_a_reply(vault: Vault) -> None:
    # Ana asks herself and goes on ten minutes later: her own next turn answers nothing
    chat(vault, "mostly violin, and a bit of clarinet lately", asker="Ana")
    assert "a" not in refs(vault, "What instruments does Ana play?", k=3)


def test_a_turn_after_a_statement_gets_no_reply_lift(vault: Vault) -> None:
    talk(
        vault,
        said("Bo", "I play instruments in a band these days.", "q", 0, "s1"),
        said("Ana", "mostly violin, and a bit of clarinet lately", "a", 600, "s1"),
    )
    assert "a" not in refs(vault, "What instruments does Ana play?", k=3)


def test_a_question_ending_a_session_lifts_nothing_in_the_next(vault: Vault) -> None:
    talk(
        vault,
        said("Bo", "What instruments do you play these days?", "q", 0, "s1"),
        said("Ana", "mostly violin, and a bit of clarinet lately", "a", DAY, "s9"),
    )
    assert "a" not in refs(vault, "What instruments does Ana play?", k=3)


def test_a_reply_in_several_messages_is_one_burst_all_of_it_reachable(vault: Vault) -> None:
    talk(
        vault,
        said("Bo", "What instruments do you play these days?", "q", 0, "s1"),
        said("Ana", "oh good question!", "a1", 60, "s1"),
        said("Ana", "mostly violin, and a bit of clarinet lately", "a2", 70, "s1"),
    )
    found = refs(vault, "What instruments are played?", k=4)
    assert {"a1", "a2"} <= set(found)


def test_without_who_said_them_no_turn_is_taken_for_a_reply(vault: Vault) -> None:
    # a one-author log: a question to oneself, then a note; nobody replies
    vault.episodes.add(
        "ana",
        [
            {
                "text": "Should I switch to the 10k plan?",
                "at": T0,
                "ref": "q",
                "meta": {"session": "s1"},
            },
            {
                "text": "bought new shoes",
                "at": T0 + timedelta(minutes=10),
                "ref": "a",
                "meta": {"session": "s1"},
            },
            *[
                {
                    "text": f"the 10k plan, week {n}, switch days",
                    "at": T0 + timedelta(days=n + 2),
                    "ref": f"d{n}",
                    "meta": {"session": f"s{n + 2}"},
                }
                for n in range(8)
            ],
        ],
        now=ASKED,
    )
    found = vault.episodes.recall("ana", "Should I switch to the 10k plan?", now=ASKED, k=10)
    answer = next(e for e in found if e.ref == "a")
    assert answer.parts.neighbour <= 1.0


def test_speakers_told_apart_without_case_and_a_blank_one_is_nobody(vault: Vault) -> None:
    vault.episodes.add(
        "ana",
        [
            {
                "text": "What instruments do you play these days?",
                "at": T0,
                "ref": "q",
                "meta": {"speaker": "Ana", "session": "s1"},
            },
            {
                "text": "mostly violin, and a bit of clarinet lately",
                "at": T0 + timedelta(minutes=10),
                "ref": "a",
                "meta": {"speaker": "ana", "session": "s1"},
            },
            {
                "text": "What instruments do you collect?",
                "at": T0 + timedelta(days=1),
                "ref": "q2",
                "meta": {"speaker": "Bo", "session": "s2"},
            },
            {
                "text": "old clarinets mostly",
                "at": T0 + timedelta(days=1, minutes=10),
                "ref": "a2",
                "meta": {"speaker": " ", "session": "s2"},
            },
        ],
        now=ASKED,
    )
    found = vault.episodes.recall("ana", "which instruments?", now=ASKED, k=4)
    lifts = {e.ref: e.parts.neighbour for e in found}
    assert lifts["a"] <= 1.0  # "ana" is Ana going on after her own question
    assert lifts["a2"] <= 1.0  # a blank speaker is nobody known


def test_a_reply_found_as_a_best_match_is_lifted_by_the_question_before_it(vault: Vault) -> None:
    # k=1 fetches the neighbours of the two best matches: the reply and another day's turn;
    # the question, a weaker match, is reached only as the reply's neighbour before it
    vault.episodes.add(
        "ana",
        [
            said("Bo", "What instruments do you play?", "q", 0, "s1"),
            said("Ana", "violin at the folk club, mostly", "a", 600, "s1"),
            said("Ana", "violin, folk club, instruments night", "d", DAY, "s2"),
        ],
        now=ASKED,
    )
    question = "violin folk club instruments"
    on = recalled(vault, question, 1)  # the reply and "d" are the two seeds
    off = recalled(vault, question, 2, replies=False)  # a plain neighbour's lift
    assert on["a"] == pytest.approx(2 * off["a"], abs=1e-5) and off["a"] > 0


@pytest.mark.parametrize(("between", "bursts"), [(3, True), (6, True), (1, False), (6, False)])
def test_another_chats_messages_in_between_do_not_part_a_question_from_its_reply(
    vault: Vault, between: int, bursts: bool
) -> None:
    """One owner, two chats written at once: the group's messages sent between Bo's question
    and Ana's answer in their own chat are passed over, not taken for the end of that chat."""
    group = [
        ("Mia" if n % 2 else "Jo", f"who is up for a game later, round {n}") for n in range(between)
    ]
    talk(
        vault,
        said("Bo", "What instruments do you play these days?", "q", 0, "dm"),
        *(said(who, text, f"g{n}", 20 + 10 * n, "group") for n, (who, text) in enumerate(group)),
        said("Ana", "mostly violin, and a bit of clarinet lately", "a", 600, "dm"),
    )
    assert "a" in refs(vault, "What instruments does Ana play?", k=3, bursts=bursts)


def test_a_question_written_without_its_mark_is_answered_by_the_reply(vault: Vault) -> None:
    """Chat leaves the "?" out: "what instruments do u play these days" still asks."""
    talk(
        vault,
        said("Bo", "what instruments do u play these days", "q", 0, "s1"),
        said("Ana", "mostly violin, and a bit of clarinet lately", "a", 60, "s1"),
    )
    assert "a" in refs(vault, "What instruments does Ana play?", k=3)
    assert "a" not in refs(vault, "What instruments does Ana play?", k=3, replies=False)


def test_of_a_reply_sent_in_bits_the_message_that_says_most_comes_first(vault: Vault) -> None:
    """ "wait" and "sorry my mom called" come before the answer in the reply's burst; the
    answer is what the burst says most, so it is the one placed at the burst's score."""
    talk(
        vault,
        said("Ana", "what instrument are you learning these days?", "q", 0, "s1"),
        said("Bo", "wait", "w", 20, "s1"),
        said("Bo", "sorry my mom called", "m", 40, "s1"),
        said("Bo", "bass guitar, been practicing every night at the studio", "a", 60, "s1"),
    )
    found = refs(vault, "What instrument is Bo learning?", k=5)
    filler = [found.index(ref) for ref in ("w", "m") if ref in found]
    assert "a" in found and all(found.index("a") < at for at in filler), found


def test_of_a_reply_in_bits_the_message_saying_the_kind_asked_for_comes_first(
    vault: Vault,
) -> None:
    talk(
        vault,
        said("Ana", "have you ever been to a big outdoor concert?", "q", 0, "s1"),
        said("Bo", "hmm let me think", "h", 20, "s1"),
        said("Bo", "it was last summer", "t", 40, "s1"),
        said(
            "Bo",
            "amazing night with old friends, we danced until late and ate pizza",
            "w",
            60,
            "s1",
        ),
    )
    found = refs(vault, "When did Bo go to a concert?", k=5)
    assert "t" in found and ("w" not in found or found.index("t") < found.index("w")), found
