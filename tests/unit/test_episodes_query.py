"""Recall query analysis and the ranking formula, without a database."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from vault.domain.episode_query import analyze, stem, stems
from vault.domain.episode_rank import Candidate, rank
from vault.domain.episodes import EpisodeIn, StorePolicy
from vault.domain.stemming import WORD_CACHE, snowball

NOW = datetime(2026, 5, 20, 15, 0, tzinfo=timezone.utc)  # a Wednesday


def test_inflections_share_a_stem() -> None:
    for group in (
        ["run", "running", "ran", "runs"],
        ["knee", "knees"],
        ["ache", "aching", "aches"],
        ["jog", "jogged", "jogging"],
        ["race", "races", "racing"],
        ["buy", "bought"],
    ):
        assert len({stem(w) for w in group}) == 1, group


def test_stemming_keeps_a_small_bounded_cache() -> None:
    made_up = " ".join(f"zq{n}runs" for n in range(WORD_CACHE + 1000))
    assert stems(made_up)[:2] == ["zq0run", "zq1run"]
    assert stem.cache_info().currsize <= WORD_CACHE <= 8192
    assert snowball.cache_info().currsize <= WORD_CACHE


def test_synonyms_join_a_word_group() -> None:
    query = analyze("my knee after a jog", NOW)
    groups = {g.stem: g for g in query.groups}
    assert stem("leg") in groups[stem("knee")].related
    assert stem("run") in groups[stem("jog")].related
    assert "run" in groups[stem("jog")].surface


def test_time_expressions_resolve_against_now() -> None:
    day = timedelta(days=1)
    today = NOW.replace(hour=0)
    assert analyze("what did I do yesterday", NOW).window.start == today - day  # type: ignore[union-attr]
    last_week = analyze("how was last week", NOW).window
    assert last_week is not None and (last_week.start, last_week.end) == (
        datetime(2026, 5, 11, tzinfo=timezone.utc),
        datetime(2026, 5, 18, tzinfo=timezone.utc),
    )
    may = analyze("the run in May", NOW).window
    assert may is not None and may.start == datetime(2026, 5, 1, tzinfo=timezone.utc)
    december = analyze("runs in December", NOW).window
    assert december is not None and december.start.year == 2025  # the last December before now
    monday = analyze("on Monday", NOW).window
    assert monday is not None and monday.start == datetime(2026, 5, 18, tzinfo=timezone.utc)
    ago = analyze("three days ago", NOW).window
    assert ago is not None and ago.start <= today - 3 * day < ago.end
    assert analyze("hill repeats", NOW).window is None


def test_before_the_race_is_an_anchor_and_names_are_found() -> None:
    query = analyze("What did Maria eat before the race?", NOW)
    assert query.anchor is not None and query.anchor.direction == "before"
    assert query.anchor.event == ("race",)
    assert query.names == ("maria",)


def _candidate(i: int, text: str, days_ago: float, type_: str = "note", **meta: str) -> Candidate:
    return Candidate(i, text, type_, NOW - timedelta(days=days_ago), dict(meta))


def test_ranking_prefers_relevance_then_names_time_and_type() -> None:
    pool = [
        _candidate(1, "Easy run along the canal", 1),
        _candidate(2, "Jogged with Priya along the canal, knee sore after", 30, person="Priya"),
        _candidate(3, "Bought new shoes", 2),
    ]
    best = rank(analyze("when did my leg hurt running with Priya", NOW), pool, NOW, k=3)
    assert [r.candidate.id for r in best][:2] == [2, 1]
    assert best[0].parts.entity == 1.0 and best[0].parts.text == 1.0
    assert 3 not in [r.candidate.id for r in best]  # shares nothing with the query


def test_equal_scores_break_ties_by_time_then_id() -> None:
    moment = NOW - timedelta(days=3)
    pool = [Candidate(i, f"tempo run number {i}", "note", moment, {}) for i in (5, 9, 7)]
    pool = [Candidate(c.id, "tempo run", "note", moment, {}) for c in pool]
    # identical texts collapse to one; distinct texts with equal scores keep a stable order
    assert [r.candidate.id for r in rank(analyze("tempo", NOW), pool, NOW, k=3)] == [9]
    pool = [
        Candidate(i, f"tempo run {'x' * 0} {name}", "note", moment, {})
        for i, name in ((5, "alpha"), (9, "bravo"), (7, "delta"))
    ]
    assert [r.candidate.id for r in rank(analyze("tempo", NOW), pool, NOW, k=3)] == [9, 7, 5]


def test_duplicates_beyond_the_partial_selection_still_give_k_distinct_texts() -> None:
    # 30 newer copies of one text outrank everything: the first k x 4 picks are all copies,
    # so ranking falls back to the full order and still finds k different texts
    moment = NOW - timedelta(days=1)
    copies = [Candidate(i, "tempo run tempo", "note", moment, {}) for i in range(100, 130)]
    others = [
        Candidate(i, f"tempo {name}", "note", moment - timedelta(days=i), {})
        for i, name in ((1, "alpha"), (2, "bravo"), (3, "delta"))
    ]
    found = rank(analyze("tempo run", NOW), copies + others, NOW, k=3)
    assert [r.candidate.id for r in found] == [129, 1, 2]


def test_metadata_as_stored_text_ranks_like_the_dict() -> None:
    # recall hands the stored JSON text (parsed only when read); tests and apps may pass a dict
    meta = {"location": "Victoria Park", "person": "Priya"}
    as_dict = [_candidate(1, "Long run", 2, **meta), _candidate(2, "Long run with Sam", 1)]
    as_text = [Candidate(c.id, c.text, c.type, c.occurred_at, c.meta_json) for c in as_dict]
    query = analyze("Who did I run with at Victoria Park?", NOW)
    left, right = rank(query, as_dict, NOW, k=2), rank(query, as_text, NOW, k=2)
    assert [(r.candidate.id, r.score, r.parts) for r in left] == [
        (r.candidate.id, r.score, r.parts) for r in right
    ]
    assert left[0].candidate.id == 1 and left[0].parts.entity == 1.0
    assert right[0].candidate.meta == meta


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_query_analyzes_and_ranks_without_error(text: str) -> None:
    pool = [_candidate(i, t, i) for i, t in enumerate(["run", "knee pain", "race day"], start=1)]
    first = rank(analyze(text, NOW), pool, NOW, k=3)
    assert first == rank(analyze(text, NOW), list(reversed(pool)), NOW, k=3)
    assert all(isinstance(s, str) for s in stems(text))


def test_store_policy_follows_seed_003_triggers() -> None:
    policy = StorePolicy()
    assert policy.decide(EpisodeIn(text="Died in the mines", type="death")) == "always"
    assert policy.decide(EpisodeIn(text="walked around", type="task_result")) is None
    assert (
        policy.decide(EpisodeIn(text="Remember this: the bridge is out", type="task_result"))
        == "notable"
    )
    assert (
        policy.decide(EpisodeIn(text="tried the door", type="task_result", outcome="failed"))
        == "failed"
    )
    assert (
        policy.decide(EpisodeIn(text="explored", type="task_result", meta={"minutes": 90}))
        == "long_stay"
    )
    strict = StorePolicy(
        always=frozenset({"death"}), notable_words=(), store_failures=False, long_stay_minutes=None
    )
    assert strict.decide(EpisodeIn(text="Remember this", type="note")) is None


def test_whom_a_question_asks_about_among_those_who_spoke() -> None:
    from vault.domain.episode_rank import asked_about

    def about(question: str, speakers: tuple[str, ...]) -> set[str]:
        return set(asked_about(analyze(question, NOW), speakers))

    assert about("What did Leo give Mia?", ("leo", "mia")) == {"leo"}
    assert about("Did Leo and Mia both run the race?", ("leo", "mia")) == {"leo", "mia"}
    assert about("What do Leo & Mia have in common?", ("leo", "mia")) == {"leo", "mia"}
    assert about("What is Leo's and Mia's plan?", ("leo", "mia")) == {"leo", "mia"}
    assert about("What does Mia like?", ("mia",)) == {"mia"}
    assert about("What does Mia like?", ()) == set()


@settings(max_examples=80, deadline=None)
@given(
    day=st.integers(1, 28),
    month=st.integers(1, 12),
    year=st.integers(2000, 2024),
    form=st.sampled_from(
        ["{y}-{m:02d}-{d:02d}", "{d} {M} {y}", "{M} {d}, {y}", "the {d}th of {M}"]
    ),
)
def test_a_calendar_date_is_the_time_span_and_none_of_its_numbers_a_word(
    day: int, month: int, year: int, form: str
) -> None:
    months = "January February March April May June July August September October November December"
    written = form.format(y=year, m=month, d=day, M=months.split()[month - 1])
    query = analyze(f"what did Ana buy on {written}?", datetime(2025, 1, 1, tzinfo=timezone.utc))
    assert query.window is not None and query.window.start.day == day
    assert [g.stem for g in query.groups] == ["ana", "buy"]
