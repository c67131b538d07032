"""Recall of what a question asks for: a time or a number asked for prefers the episode that
says one, and a burst's message that matched brings the messages next to it (what answers is
often beside what repeats the question's words), never its filler; on both backends."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from vault import Vault

ASKED = datetime(2024, 9, 1, 12, 0, tzinfo=timezone.utc)
T0 = datetime(2024, 8, 1, 19, 0, tzinfo=timezone.utc)


def said(speaker: str, text: str, ref: str, seconds: int) -> dict[str, object]:
    return {
        "text": f"{speaker}: {text}",
        "at": T0 + timedelta(seconds=seconds),
        "ref": ref,
        "meta": {"speaker": speaker},
    }


def recall_refs(vault: Vault, question: str, k: int, **weights: float) -> list[str]:
    from vault.services.recall import DEFAULT_WEIGHTS, RecallRequest, recall
    from vault.storage.repositories.episodes import EpisodeRepository

    with vault.engine.connect() as connection:
        request = RecallRequest(
            "ana", question, ASKED, k=k, weights=replace(DEFAULT_WEIGHTS, **weights)
        )
        return [e.ref or "" for e in recall(EpisodeRepository(connection), request)]


def test_a_question_asking_when_prefers_the_episode_that_says_when(vault: Vault) -> None:
    day = 86400
    vault.episodes.add(
        "ana",
        [
            said("Ana", "we finally moved into the flat in Porto in June", "m1", 0),
            said(
                "Ana", "the move to Porto, the boxes, the move itself: what a move", "m2", 9 * day
            ),
            said("Ana", "I started pottery classes on Tuesdays", "p1", 2 * day),
            said("Ana", "pottery is messy but I love it", "p2", 10 * day),
        ],
        now=ASKED,
    )
    # the newer turn repeats the words more often; the one that says when answers
    assert recall_refs(vault, "When did Ana move to Porto?", 2, answer=0.0) == ["m2", "m1"]
    found = vault.episodes.recall("ana", "When did Ana move to Porto?", now=ASKED, k=2)
    assert [e.ref for e in found] == ["m1", "m2"]
    assert found[0].parts.answer == 1.0 and found[1].parts.answer == 0.0
    # a question that asks for no time leaves the part at zero
    other = vault.episodes.recall("ana", "What does Ana think of pottery?", now=ASKED, k=2)
    assert all(e.parts.answer == 0.0 for e in other)


def burst_about_a_boat(vault: Vault) -> None:
    day = 86400
    vault.episodes.add(
        "ana",
        [
            said("Bo", "how was your week?", "q", 0),
            said("Ana", "guess what", "b0", 60),
            said("Ana", "I bought a kayak from a neighbour", "b1", 70),
            said("Ana", "a bright orange two-seater", "b2", 80),
            said("Ana", "ok", "b3", 90),
            said("Ana", "so cool!", "b4", 100),
            said("Bo", "nice, see you Sunday", "r", 900),
            *[
                said("Ana", f"the garden shed needs paint, note {n}", f"n{n}", day * (n + 1))
                for n in range(6)
            ],
        ],
        now=ASKED,
    )


def test_the_message_next_to_what_matched_comes_after_it(vault: Vault) -> None:
    burst_about_a_boat(vault)
    found = vault.episodes.recall("ana", "What was the two-seater Ana got?", now=ASKED, k=10)
    refs = [e.ref for e in found]
    # the message that matched, then the one beside it (the answer: a kayak) at a lower score
    assert refs[:2] == ["b2", "b1"]
    assert found[1].score < found[0].score
    assert found[1].parts == found[0].parts  # ranked as one unit
    # messages that say nothing never take a place, however many are left
    assert not {"b0", "b3", "b4"} & set(refs)


def test_with_a_single_place_only_the_message_that_matched(vault: Vault) -> None:
    burst_about_a_boat(vault)
    found = vault.episodes.recall("ana", "What was the two-seater Ana got?", now=ASKED, k=1)
    assert [e.ref for e in found] == ["b2"]


def ana_burst(vault: Vault, *texts: str) -> None:
    """Ana's messages ten seconds apart (one burst), refs a1, a2, ...; Bo answers later."""
    messages = [said("Ana", text, f"a{n}", 10 * n) for n, text in enumerate(texts, start=1)]
    vault.episodes.add("ana", [*messages, said("Bo", "cool, see you", "r", 600)], now=ASKED)


def when_moved(vault: Vault, k: int) -> list[str]:
    found = vault.episodes.recall("ana", "When did Ana move to Porto?", now=ASKED, k=k)
    return [e.ref or "" for e in found]


def test_a_short_reply_saying_the_kind_asked_for_takes_its_place(vault: Vault) -> None:
    # "in 2019" has no topic (a number and a stopword): it still answers "when"
    ana_burst(vault, "we finally moved to Porto", "in 2019")
    assert when_moved(vault, 5)[:2] == ["a1", "a2"]


def test_of_a_burst_the_message_saying_the_kind_asked_for_comes_next(vault: Vault) -> None:
    ana_burst(
        vault,
        "we finally moved to Porto",
        "the flat has big windows",
        "the neighbours are lovely people",
        "that was in 2019",
    )
    assert when_moved(vault, 2) == ["a1", "a4"]  # not the windows, nearer but no answer


def test_a_question_asking_where_prefers_the_episode_that_names_a_place(vault: Vault) -> None:
    day = 86400
    vault.episodes.add(
        "ana",
        [
            said("Ana", "kayaking again! I go kayaking whenever I can", "k1", 9 * day),
            said("Ana", "we went kayaking at the lake near Porto, the water was cold", "k2", 0),
        ],
        now=ASKED,
    )
    assert recall_refs(vault, "Where did Ana go kayaking?", 1, answer=0.0) == ["k1"]
    assert recall_refs(vault, "Where did Ana go kayaking?", 1) == ["k2"]


def test_a_speaker_named_like_a_month_says_no_time(vault: Vault) -> None:
    day = 86400
    vault.episodes.add(
        "ana",
        [
            said("June", "did Ana adopt a dog? what a cute dog", "j1", 5 * day),
            said("Ana", "we adopted him last spring", "a1", 0),
        ],
        now=ASKED,
    )
    found = vault.episodes.recall("ana", "When did Ana adopt the dog?", now=ASKED, k=2)
    assert {e.ref: e.parts.answer for e in found} == {"a1": 1.0, "j1": 0.0}
