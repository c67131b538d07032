"""The pure merge rules, without a database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import T0
from vault.domain.models import FactIn, NoteIn, PatternIn
from vault.domain.rules import CAPS, FLOOR, FactState, ItemState, boosted, decayed, plan_merge
from vault.domain.text import conflict_key_of, normalize_text
from vault.domain.vocabulary import Kind, Level, level_of


@pytest.mark.parametrize(
    ("elapsed", "expected"),
    [
        (timedelta(days=6, hours=23), 0.8),
        (timedelta(days=7), 0.76),
        (timedelta(days=20), 0.722),
        (timedelta(days=70), 0.8 * 0.95**10),
    ],
)
def test_decay_counts_full_weeks_only(elapsed: timedelta, expected: float) -> None:
    assert decayed(0.8, T0, T0 + elapsed) == pytest.approx(expected)


def test_boost_is_capped_and_three_occurrences_are_high() -> None:
    assert boosted(0.95, 2) == 1.0
    assert boosted(0.4, 2) == pytest.approx(0.5)
    assert boosted(0.4, 3) == 0.8


@pytest.mark.parametrize(
    ("confidence", "level"),
    [(0.8, Level.HIGH), (0.79, Level.MEDIUM), (0.5, Level.MEDIUM), (0.49, Level.LOW)],
)
def test_levels_derive_from_confidence(confidence: float, level: Level) -> None:
    assert level_of(confidence) is level


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("primary sport: running", "primary sport"),
        ("Goal: half marathon", "goal"),
        ("typical duration: 45 min", "typical duration"),
        ("prefers evening sessions", "time preference"),
        ("level: advanced", "level"),
        ("weekly hours: 6", "weekly hours"),
        ("has recurring knee issue", None),
        ("prefers long runs", None),
    ],
)
def test_conflict_keys_come_from_the_text(text: str, key: str | None) -> None:
    assert conflict_key_of(text) == key


def test_normalization_ignores_case_punctuation_and_spacing() -> None:
    assert normalize_text("  Knee pain,  after LONG runs! ") == normalize_text(
        "knee pain after long runs"
    )


texts = st.sampled_from(
    [
        "primary sport: running",
        "primary sport: cycling",
        "goal: 10k",
        "goal: marathon",
        "has recurring knee issue",
        "knee pain after hills",
        "prefers morning sessions",
        "prefers evening sessions",
        "works night shifts",
        "has kids",
        "likes intervals",
        "level: beginner",
        "level: advanced",
        "typical duration: 45 min",
    ]
    + [f"misc fact {i}" for i in range(20)]
)
candidates = st.one_of(
    st.builds(
        lambda t, c, d: FactIn(text=t, confidence=c, observed_at=T0 + timedelta(days=d)),
        texts,
        st.floats(0, 1),
        st.integers(0, 60),
    ),
    st.builds(
        lambda i, c: PatternIn(text=f"pattern {i}", confidence=c),
        st.integers(0, 8),
        st.floats(0, 1),
    ),
    st.builds(lambda i: NoteIn(text=f"note {i}"), st.integers(0, 8)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(candidates, max_size=12), max_size=6))
def test_any_sequence_of_merges_keeps_the_invariants(batches: list[list[FactIn]]) -> None:
    active: list[FactState | ItemState] = []
    next_id = 1
    for day, batch in enumerate(batches):
        now = T0 + timedelta(days=7 * day)
        plan = plan_merge(active, batch, now)
        survivors = plan.survivors()
        for state in survivors:  # what the repository would do: assign ids to new rows
            if state.id is None:
                state.id, next_id = next_id, next_id + 1
                state.key = (state.kind.value, state.id)
            state.dirty = state.touched = False
        active = survivors
        facts = [s for s in survivors if isinstance(s, FactState)]
        assert len({f.normalized_text for f in facts}) == len(facts)
        keys = [f.conflict_key for f in facts if f.conflict_key]
        assert len(set(keys)) == len(keys)
        for kind, cap in CAPS.items():
            assert sum(1 for s in survivors if s.kind is kind) <= cap
        assert all(FLOOR <= f.confidence <= 1 for f in facts)
        assert all(s.occurrences >= 1 for s in survivors)
        removed = {id(r.item) for r in plan.removals}
        assert not removed & {id(s) for s in survivors}


def test_an_item_of_each_kind_can_share_an_id() -> None:
    fact = plan_merge([], [FactIn(text="goal: 5k")], T0).survivors()[0]
    note = plan_merge([], [NoteIn(text="goal: 5k")], T0).survivors()[0]
    fact.id = note.id = 1
    fact.key, note.key = (Kind.FACT.value, 1), (Kind.NOTE.value, 1)
    plan = plan_merge([fact, note], [NoteIn(text="goal 5k")], T0)
    assert {s.kind for s in plan.survivors()} == {Kind.FACT, Kind.NOTE}
    assert [s.occurrences for s in plan.survivors() if s.kind is Kind.NOTE] == [2]


def _stored(fact: FactIn) -> list[FactState | ItemState]:
    """`fact` as one stored row (id 1), the way the repository hands it to the planner."""
    [state] = plan_merge([], [fact], T0).survivors()
    state.id, state.key = 1, (Kind.FACT.value, 1)
    return [state]


@pytest.mark.parametrize(
    ("believed", "passing"),
    [
        ("works at the bank", "works as a babysitter"),
        ("has recurring knee issue", "has knee issue"),
    ],
)
def test_a_passing_reading_does_not_take_a_believed_facts_place(
    believed: str, passing: str
) -> None:
    # one reading below the block (0.45) shares the believed fact's topic: it would inherit a
    # belief and cite evidence that never said it
    tags = frozenset({"context:job"}) if believed.startswith("works") else None
    held = _stored(FactIn(text=believed, confidence=0.7, tags=tags))
    plan = plan_merge(
        held,
        [FactIn(text=passing, confidence=0.45, tags=tags, observed_at=T0 + timedelta(days=2))],
        T0 + timedelta(days=2),
    )
    # it waits beside the believed fact, below the prompt floor, for another day's reading
    held_texts = {s.text: s.confidence for s in plan.survivors()}  # type: ignore[union-attr]
    assert held_texts[believed] == 0.7
    assert held_texts[passing] < 0.5


@pytest.mark.parametrize(
    ("believed", "passing"),
    [
        ("works at the bank", "works as a teacher"),
        ("works as a nurse", "works at a bakery"),
        ("owns a candy shop", "works as a plumber"),
    ],
)
def test_a_passing_reading_read_again_on_another_day_takes_the_believed_facts_place(
    believed: str, passing: str
) -> None:
    tags = frozenset({"context:job"})
    held = _stored(FactIn(text=believed, confidence=0.7, tags=tags))
    states: list[FactState | ItemState] = held
    for day in (1, 2):
        at = T0 + timedelta(days=day)
        plan = plan_merge(states, [FactIn(text=passing, confidence=0.45, tags=tags)], at)
        states = plan.survivors()
    texts = {s.text: s.confidence for s in states}  # type: ignore[union-attr]
    assert believed not in texts
    assert texts[passing] >= 0.5


def test_a_passing_reading_read_again_the_same_day_does_not_take_the_place() -> None:
    tags = frozenset({"context:job"})
    states: list[FactState | ItemState] = _stored(
        FactIn(text="works at the bank", confidence=0.7, tags=tags)
    )
    for hours in (1, 3):
        at = T0 + timedelta(days=1, hours=hours)
        plan = plan_merge(
            states, [FactIn(text="works as a babysitter", confidence=0.45, tags=tags)], at
        )
        states = plan.survivors()
    texts = {s.text: s.confidence for s in states}  # type: ignore[union-attr]
    assert texts["works at the bank"] == 0.7
    assert texts["works as a babysitter"] < 0.5


def test_a_passing_reading_still_replaces_a_passing_reading() -> None:
    tags = frozenset({"context:job"})
    held = _stored(FactIn(text="works at the bank", confidence=0.45, tags=tags))
    plan = plan_merge(
        held,
        [FactIn(text="works as a teller", confidence=0.45, tags=tags, observed_at=T0)],
        T0 + timedelta(days=2),
    )
    assert [s.text for s in plan.survivors()] == ["works as a teller"]  # type: ignore[union-attr]


def test_a_believed_reading_is_not_swallowed_by_a_passing_one_of_the_same_day() -> None:
    # "Been running longer" (no subject: 0.45), then "I've been running farther" (0.8), same day
    held = _stored(FactIn(text="primary sport: running", confidence=0.45))
    plan = plan_merge(
        held,
        [
            FactIn(
                text="primary sport: running", confidence=0.8, observed_at=T0 + timedelta(hours=1)
            )
        ],
        T0 + timedelta(hours=1),
    )
    [fact] = plan.survivors()
    assert fact.confidence == 0.8 and fact.occurrences == 2  # type: ignore[union-attr]


def test_a_believed_fact_is_reinforced_by_one_step_whatever_the_reading() -> None:
    # seed 004's upsert: +0.1, even when the new reading alone would be higher
    held = _stored(FactIn(text="primary sport: running", confidence=0.55))
    later = T0 + timedelta(days=2)
    plan = plan_merge(
        held, [FactIn(text="primary sport: running", confidence=0.9, observed_at=later)], later
    )
    [fact] = plan.survivors()
    assert fact.confidence == pytest.approx(0.65)  # type: ignore[union-attr]


def test_a_passing_reading_the_same_day_still_lifts_nothing() -> None:
    held = _stored(FactIn(text="has kids", confidence=0.45))
    plan = plan_merge(
        held,
        [FactIn(text="has kids", confidence=0.45, observed_at=T0 + timedelta(hours=1))],
        T0 + timedelta(hours=1),
    )
    [fact] = plan.survivors()
    assert fact.confidence == 0.45  # type: ignore[union-attr]


def _loaded(text: str, fact_id: int) -> FactState:
    [state] = _stored(FactIn(text=text, confidence=0.8))
    state.id, state.key = fact_id, (Kind.FACT.value, fact_id)
    state.dirty = state.touched = False  # as loaded
    return state  # learned and last reinforced at T0


def test_a_fact_stored_within_the_week_now_falls_in_keeps_its_confidence() -> None:
    """Stored within the unreinforced week of `now` (here by a stricter policy than the
    merge's): its confidence is today's, so the merge leaves it; a fact due a step is decayed."""
    held, due = _loaded("likes trail runs", 1), _loaded("has a bad knee", 2)
    held.confidence = 0.5
    held.decay_due_at = T0 + timedelta(days=21)  # computed in week 2, [T0+14d, T0+21d)
    now = T0 + timedelta(days=15)
    plan = plan_merge([held, due], [FactIn(text="primary sport: running")], now)
    by_text = {s.text: s for s in plan.survivors()}
    assert by_text["likes trail runs"].confidence == 0.5 and not by_text["likes trail runs"].dirty
    assert by_text["has a bad knee"].confidence == decayed(0.8, T0, now)
    assert by_text["has a bad knee"].decay_due_at == T0 + timedelta(days=21)


@pytest.mark.parametrize(
    ("stored_at", "merged_at"),
    [
        (timedelta(days=15), timedelta(days=3)),  # a late activity: dated before the last merge
        (timedelta(days=50), timedelta(days=2)),  # after a planned session merged in the future
    ],
)
def test_a_merge_dated_outside_the_stored_week_recomputes_from_the_base(
    stored_at: timedelta, merged_at: timedelta
) -> None:
    [fact] = plan_merge([_loaded("likes trail runs", 1)], [], T0 + stored_at).survivors()
    fact.dirty = False
    assert fact.confidence == decayed(0.8, T0, T0 + stored_at) < 0.8
    [again] = plan_merge([fact], [], T0 + merged_at).survivors()
    assert again.confidence == 0.8 and again.decay_due_at == T0 + timedelta(days=7)
