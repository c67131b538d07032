"""How recall's k places are filled (vault.domain.episode_rank.place): each ranked item offers
its episodes, a burst its messages around what matched at a lower score per step."""

from __future__ import annotations

from datetime import datetime, timezone

from vault.domain.episode_rank import Candidate, Ranked, place
from vault.domain.episodes import ScoreParts

AT = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def ranked(score: float, *ids: int, session: str = "s1") -> Ranked:
    messages = tuple(
        Candidate(i, f"message {i}", "conversation", AT, {"session": session}) for i in ids
    )
    unit = Candidate(
        ids[0],
        "",
        "conversation",
        AT,
        {"session": session},
        members=messages if len(ids) > 1 else (),
    )
    return Ranked(unit if len(ids) > 1 else messages[0], score, ScoreParts())


def offered_in_order(item: Ranked) -> tuple[tuple[Candidate, ...], int]:
    return (item.candidate.members or (item.candidate,)), 1


def test_a_bursts_further_messages_compete_with_the_next_items_at_a_lower_score() -> None:
    items = [ranked(1.0, 1, 2, 3), ranked(0.9, 4), ranked(0.5, 5)]
    placed = place(items, 4, 0.0, offered_in_order, 0.8)
    assert [(c.id, score) for _, c, score in placed] == [(1, 1.0), (4, 0.9), (2, 0.8), (3, 0.64)]


def test_without_context_a_burst_shows_only_what_it_holds() -> None:
    items = [ranked(1.0, 1, 2, 3), ranked(0.9, 4), ranked(0.5, 5)]
    placed = place(items, 4, 0.0, offered_in_order, 0.0)
    assert [c.id for _, c, _ in placed] == [1, 4, 5]  # places left empty, not filled with 2, 3


def test_the_messages_held_all_take_the_bursts_score() -> None:
    items = [ranked(1.0, 1, 2, 3), ranked(0.9, 4)]
    placed = place(
        items, 3, 0.0, lambda item: (item.candidate.members or (item.candidate,), 2), 0.5
    )
    assert [(c.id, score) for _, c, score in placed] == [(1, 1.0), (2, 1.0), (4, 0.9)]


def test_a_session_already_placed_lowers_the_next_item_from_it() -> None:
    items = [ranked(1.0, 1), ranked(0.95, 2), ranked(0.9, 3, session="s2")]
    assert [c.id for _, c, _ in place(items, 2, 0.0)] == [1, 2]
    assert [c.id for _, c, _ in place(items, 2, 0.1)] == [1, 3]


def test_fewer_episodes_than_places() -> None:
    assert [c.id for _, c, _ in place([ranked(1.0, 1)], 10)] == [1]
