"""Recall on structure and vectors, on both backends: calendar dates, session neighbours,
the first conversation, an app's embedder (same transaction, never mixed, re-embedding)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from tests.conftest import Db
from tests.recall_fakes import WordEmbedder
from vault import Vault
from vault.domain.errors import InvalidInput
from vault.storage.repositories.episodes import EpisodeRepository

ASKED = datetime(2023, 5, 10, 12, 0, tzinfo=timezone.utc)


def day(month: int, date: int, minute: int = 0) -> datetime:
    return datetime(2023, month, date, 20, minute, tzinfo=timezone.utc)


def chat(vault: Vault, **kwargs: Any) -> None:
    """Three sessions of a user with an assistant; the answers sit one turn after the words."""
    vault.episodes.add(
        "lu",
        [
            {"text": "Hi, I'm Lu. I love tea and badminton.", "at": day(4, 27), "ref": "a0"},
            {
                "text": "Badminton group every weekend with colleagues.",
                "at": day(4, 27, 1),
                "ref": "a1",
            },
            {
                "text": "I watched a movie called Dangal, want to hear about it?",
                "at": day(5, 2),
                "ref": "b0",
            },
            {
                "text": "A father trains his daughters to wrestle; it moved me.",
                "at": day(5, 2, 1),
                "ref": "b1",
            },
            {"text": "Raining all day, I feel a bit down.", "at": day(5, 4), "ref": "c0"},
            {"text": "Working on my novel, progress is slow.", "at": day(5, 4, 1), "ref": "c1"},
        ],
        now=ASKED,
        **kwargs,
    )


def refs(found: list[Any]) -> list[str]:
    return [e.ref for e in found]


def test_a_calendar_date_in_the_question_is_that_day(vault: Vault) -> None:
    chat(vault)
    found = vault.episodes.recall("lu", "How was I feeling on May 4th?", now=ASKED, k=2)
    assert set(refs(found)) == {"c0", "c1"}
    assert all(e.parts.time == 1.0 for e in found)
    # no such day in the question: the same words find nothing by time
    assert all(
        e.parts.time == 0.0
        for e in vault.episodes.recall("lu", "How was I feeling?", now=ASKED, k=2)
    )


def test_a_turn_is_lifted_by_its_session_neighbour(vault: Vault) -> None:
    chat(vault)
    found = vault.episodes.recall("lu", "what was Dangal about", now=ASKED, k=2)
    assert refs(found) == ["b0", "b1"]
    assert found[1].parts.text == 0.0 and found[1].parts.neighbour > 0.0


def test_no_lift_across_sessions(vault: Vault) -> None:
    vault.episodes.add(
        "lu",
        [
            {"text": "Dangal is a film about wrestling", "at": day(5, 2), "ref": "x"},
            {
                "text": "Completely unrelated later chat",
                "at": day(5, 2) + timedelta(hours=3),
                "ref": "y",
            },
        ],
        now=ASKED,
    )
    assert refs(vault.episodes.recall("lu", "Dangal", now=ASKED, k=3)) == ["x"]


def test_our_first_conversation_is_the_owners_earliest_day(vault: Vault) -> None:
    chat(vault)
    found = vault.episodes.recall(
        "lu", "What did we talk about in our first conversation?", now=ASKED, k=2
    )
    assert set(refs(found)) == {"a0", "a1"}


def test_vectors_are_written_with_the_episodes_tagged_with_model_and_dim(vault: Vault) -> None:
    embedder = WordEmbedder()
    chat(vault, embedder=embedder)
    assert embedder.calls == 1  # one batch for the six texts
    db = Db(vault)
    assert db.rows("SELECT model, dim, count(*) FROM episode_vectors GROUP BY model, dim") == [
        ("fake-words", 8, 6)
    ]
    found = vault.episodes.recall("lu", "wrestle daughters", now=ASKED, k=1, embedder=embedder)
    assert refs(found) == ["b1"] and found[0].parts.vector == 1.0


def test_a_failing_or_wrong_sized_embedder_writes_nothing(vault: Vault) -> None:
    class Broken(WordEmbedder):
        def embed(self, texts: Any) -> list[list[float]]:
            raise RuntimeError("model crashed")

    with pytest.raises(RuntimeError):
        chat(vault, embedder=Broken())
    with pytest.raises(InvalidInput, match="vector of 8 values, its dim is 5"):
        chat(vault, embedder=_lying())
    assert Db(vault).rows("SELECT count(*) FROM episodes") == [(0,)]
    assert Db(vault).rows("SELECT count(*) FROM episode_vectors") == [(0,)]


class _Lying(WordEmbedder):
    """Says 5 dimensions, gives 8."""

    def embed(self, texts: Any) -> list[list[float]]:
        return WordEmbedder(dim=8).embed(texts)


def _lying() -> WordEmbedder:
    return _Lying(dim=5)


def test_models_are_never_mixed_and_reembed_replaces_them(vault: Vault) -> None:
    chat(vault, embedder=WordEmbedder(model="old", dim=8))
    new = WordEmbedder(model="new", dim=16)
    found = vault.episodes.recall("lu", "wrestle daughters", now=ASKED, k=3, embedder=new)
    assert all(e.parts.vector == 0.0 for e in found)  # the old model's vectors are not read
    assert vault.episodes.reembed(new, "lu") == 6
    assert vault.episodes.vector_models() == {("new", 16): 6}
    found = vault.episodes.recall("lu", "wrestle daughters", now=ASKED, k=1, embedder=new)
    assert refs(found) == ["b1"] and found[0].parts.vector == 1.0


def test_reembed_refuses_what_is_not_an_embedder(vault: Vault) -> None:
    with pytest.raises(InvalidInput, match="vault.Embedder"):
        vault.episodes.reembed(object())  # type: ignore[arg-type]


def test_forget_and_caps_take_the_vectors_with_the_episodes(vault: Vault) -> None:
    chat(vault, embedder=WordEmbedder())
    assert vault.episodes.forget("lu", "Dangal") == {"episodes": 1, "episode_archive": 0}
    db = Db(vault)
    assert db.rows("SELECT count(*) FROM episode_vectors") == [(5,)]
    assert db.rows(
        "SELECT count(*) FROM episode_vectors v LEFT JOIN episodes e ON e.id = v.episode_id "
        "WHERE e.id IS NULL"
    ) == [(0,)]
    vault.episodes.add(
        "lu", [{"text": "one more", "at": day(5, 6)}], now=ASKED, cap=2, embedder=WordEmbedder()
    )
    assert db.rows("SELECT count(*) FROM episode_vectors") == [(2,)]


def test_the_turn_whose_session_says_the_other_words_comes_first(vault: Vault) -> None:
    def said(ref: str, text: str, session: str, at: datetime) -> dict[str, Any]:
        return {"text": text, "at": at, "ref": ref, "meta": {"session": session}}

    vault.episodes.add(
        "dave",
        [
            said("s1-1", "Dave: I got picked for the mod workshop next week!", "s1", day(4, 2)),
            said("s1-2", "Calvin: nice, send pics", "s1", day(4, 2, 1)),
            said("s1-3", "Dave: a classic muscle car, so fun", "s1", day(4, 2, 2)),
            said("s2-1", "Dave: a rusty old car, so sad", "s2", day(4, 9)),
        ],
        now=ASKED,
    )
    found = vault.episodes.recall(
        "dave", "what car did Dave work on during the workshop", now=ASKED, k=3
    )
    places = {e.ref: (place, e.parts.session) for place, e in enumerate(found)}
    assert places["s1-3"][0] < places["s2-1"][0]  # the workshop's car, not the newer one
    assert places["s1-3"][1] > 0 and places["s2-1"][1] == 0.0


def test_what_was_said_the_next_day_about_the_day_asked_about_is_found(vault: Vault) -> None:
    def at(date: int, hour: int) -> datetime:
        return datetime(2023, 10, date, hour, 0, tzinfo=timezone.utc)

    vault.episodes.add(
        "cal",
        [
            {"text": "Calvin: quiet evening with tea", "at": at(2, 20), "ref": "d2"},
            {
                "text": "Calvin: Yesterday I was in Boston with the band",
                "at": at(4, 9),
                "ref": "d4",
            },
            {"text": "Calvin: heading to Tokyo next month", "at": at(4, 10), "ref": "d4b"},
        ],
        now=at(20, 12),
    )
    found = vault.episodes.recall(
        "cal", "Which city was Calvin at on October 3, 2023?", now=at(20, 12), k=2
    )
    assert refs(found)[0] == "d4" and found[0].parts.time == 1.0


def _at(date: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2023, 10, date, hour, minute, tzinfo=timezone.utc)


def test_pointing_back_reads_the_first_of_a_span_for_words_that_point_back(vault: Vault) -> None:
    vault.episodes.add(
        "cal",
        [
            {"text": "YESTERDAY was long", "at": _at(4, 8), "ref": "in"},
            {"text": "plastic cups for the party", "at": _at(4, 9), "ref": "substring"},
            {"text": "see you at the gig", "at": _at(4, 10), "ref": "no-word"},
            {"text": "two days ago we hiked", "at": _at(5, 8), "ref": "later"},
            {"text": "last night was great", "at": _at(3, 23), "ref": "before-span"},
            {"text": "yesterday was fun", "at": _at(12, 8), "ref": "after-span"},
        ],
        now=_at(20, 12),
    )
    vault.episodes.add("bo", [{"text": "yesterday again", "at": _at(4, 9), "ref": "other"}])
    with vault.engine.connect() as connection:
        rows = EpisodeRepository(connection).pointing_back("cal", _at(4, 0), _at(12, 0), 10)
        assert [r.ref for r in rows] == ["in", "substring", "later"]
        first_two = EpisodeRepository(connection).pointing_back("cal", _at(4, 0), _at(12, 0), 2)
        assert [r.ref for r in first_two] == ["in", "substring"]  # of the first two read


def test_an_episode_found_only_by_the_day_its_words_point_back_at(vault: Vault) -> None:
    morning = [
        {"text": f"at last, plastic cup number {i}", "at": _at(4, 7, i % 60), "ref": f"m{i}"}
        for i in range(70)  # a busy morning of words holding "last" and "past" as substrings
    ]
    vault.episodes.add(
        "cal",
        [
            *morning,
            {"text": "Yesterday I was in Boston with the band", "at": _at(4, 15), "ref": "said"},
            {"text": "quiet evening with tea", "at": _at(2, 20), "ref": "d2"},
        ],
        now=_at(20, 12),
    )
    found = vault.episodes.recall("cal", "Which city was I in on October 3, 2023?", now=_at(20, 12))
    assert refs(found)[:1] == ["said"] and found[0].parts.time == 1.0


def test_a_span_at_the_end_of_the_calendar_has_no_days_after_it(vault: Vault) -> None:
    vault.episodes.add("cal", [{"text": "the cert expires", "at": _at(4, 8), "ref": "c"}])
    found = vault.episodes.recall("cal", "what expires on 9999-12-30?", now=_at(20, 12))
    assert refs(found) == ["c"]
