"""Feedback words: the best matches' most distinctive words, chosen without a database."""

from __future__ import annotations

from datetime import datetime, timezone

from vault.domain.episode_feedback import FEEDBACK_WEIGHT, feedback_groups
from vault.domain.episode_query import analyze, stem
from vault.domain.episode_rank import Candidate

NOW = datetime(2025, 2, 1, 12, 0, tzinfo=timezone.utc)


def pool(*texts: str) -> list[Candidate]:
    return [Candidate(n + 1, text, "conversation", NOW) for n, text in enumerate(texts)]


def test_the_best_matches_most_distinctive_words_join_at_a_low_weight() -> None:
    query = analyze("what hobbies does Lena have", NOW)
    candidates = pool(
        "Lena: my favourite hobby is pottery, I glazed a pottery bowl",
        "Lena: the weather was grey all week",
        "Lena: the weather in the park was grey again",
        "Omar: grey skies all week here too",
    )
    added = feedback_groups(query, candidates[:1], candidates, ["lena"])
    assert [g.stem for g in added][0] == stem("pottery")  # twice in the best, nowhere else
    assert all(g.weight == FEEDBACK_WEIGHT for g in added)
    assert all(g.surface and not g.related for g in added)
    chosen = {g.stem for g in added}
    assert stem("hobby") not in chosen  # asked already
    assert stem("lena") not in chosen  # the person asked about
    assert stem("favourite") in chosen


def test_filler_stopwords_numbers_and_short_words_are_never_fed_back() -> None:
    query = analyze("which trail did we hike", NOW)
    candidates = pool("wow cool, yeah the 12 km trail was so awesome lol ok", "we hike often")
    added = feedback_groups(query, candidates[:1], candidates)
    assert added == ()  # "trail" is asked about; everything else is filler, a number or short


def test_at_most_the_limit_and_the_same_words_every_time() -> None:
    query = analyze("what did Noor cook", NOW)
    best = pool("Noor: cooked lentil soup, saffron rice, roasted carrots, mint yoghurt, flatbread")
    first = feedback_groups(query, best, best, limit=3)
    assert len(first) == 3
    assert first == feedback_groups(query, best, best, limit=3)
    assert feedback_groups(query, [], best) == ()
