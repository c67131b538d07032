"""Bursts (one speaker's consecutive messages ranked as one unit, each keeping its ref) and
conversation topics (kept with the episodes, counted by the view, erased with them), on both
backends."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.conftest import Db
from vault import Vault

ASKED = datetime(2023, 6, 10, 12, 0, tzinfo=timezone.utc)
T0 = datetime(2023, 6, 1, 20, 0, tzinfo=timezone.utc)


def message(speaker: str, text: str, ref: str, seconds: int) -> dict[str, object]:
    return {
        "text": f"{speaker}: {text}",
        "at": T0 + timedelta(seconds=seconds),
        "ref": ref,
        "meta": {"speaker": speaker},
    }


def bursty_chat(vault: Vault) -> None:
    filler = [
        message("Ana", f"the museum cafe was closed again, day {n}", f"f{n}", 86400 * (n + 1))
        for n in range(12)
    ]
    vault.episodes.add(
        "ana",
        [
            message("Bo", "how was your trip?", "m0", 0),
            message("Ana", "so good", "m1", 20),
            message("Ana", "we finally saw the Louvre museum", "m2", 30),
            message("Ana", "my sister Eva came along", "m3", 40),
            message("Bo", "nice! Eva must have loved it", "m4", 600),
            *filler,
        ],
        now=ASKED,
    )


def test_a_burst_is_ranked_as_one_unit_and_each_message_keeps_its_ref(vault: Vault) -> None:
    bursty_chat(vault)
    found = vault.episodes.recall(
        "ana", "which museum did Ana visit with her sister", now=ASKED, k=3
    )
    refs = [e.ref for e in found]
    # the words are spread over two messages of Ana's burst: both come back, one place each,
    # with the burst's score; the message of the burst holding no word asked about stays out
    assert refs[:2] == ["m2", "m3"]
    assert found[0].score == found[1].score
    assert "m1" not in refs


def test_without_bursts_the_messages_rank_alone(vault: Vault) -> None:
    from vault.services.recall import RecallOptions, RecallRequest, recall
    from vault.storage.repositories.episodes import EpisodeRepository

    bursty_chat(vault)
    with vault.engine.connect() as connection:
        request = RecallRequest(
            "ana",
            "which museum did Ana visit with her sister",
            ASKED,
            k=3,
            options=RecallOptions(bursts=False),
        )
        found = recall(EpisodeRepository(connection), request)
    assert len({e.score for e in found}) == len(found)  # no shared unit score


def test_a_message_inside_a_burst_is_never_returned_twice(vault: Vault) -> None:
    # the vectors (and the feedback words) bring candidates after the bursts are gathered:
    # a message already inside a burst does not come back a second time on its own
    from tests.recall_fakes import WordEmbedder

    embedder = WordEmbedder()
    messages = [
        message("Ana", "the museum was huge", "b0", 0),
        message("Ana", "we saw old maps and a museum cat", "b1", 10),
        message("Ana", "then lunch by the river", "b2", 20),
        message("Bo", "sounds like a great museum day", "b3", 600),
    ]
    vault.episodes.add("ana", messages, now=ASKED, embedder=embedder)
    for question in ("what was at the museum", "museum maps cat lunch river"):
        found = vault.episodes.recall("ana", question, now=ASKED, k=10, embedder=embedder)
        refs = [e.ref for e in found]
        assert len(refs) == len(set(refs)), refs


def test_an_exchange_written_as_one_episode_joins_no_burst(vault: Vault) -> None:
    # a coach app writes each exchange (the athlete's message and the coach's reply) as one
    # episode, a minute apart: long, and no burst of short messages; the reply that answers
    # sits one exchange after the words asked about and comes back as its session neighbour
    reply = " ".join(["Coach: that sounds like a solid week of training, keep it up"] * 2)
    exchanges = [
        "Sam: my left calf got tight during the tempo run on the canal path today",
        "Sam: it eased off after I stretched and I switched to an easy jog for the rest",
        "Sam: tomorrow I will probably rest and see how it feels in the morning",
    ]
    vault.episodes.add(
        "sam",
        [
            {
                "text": f"{said} {reply}",
                "at": T0 + timedelta(minutes=n),
                "ref": f"x{n}",
                "meta": {"speaker": "Sam"},
            }
            for n, said in enumerate(exchanges)
        ],
        now=ASKED,
    )
    found = vault.episodes.recall("sam", "what happened with my calf", now=ASKED, k=2)
    assert [e.ref for e in found] == ["x0", "x1"]
    assert found[0].score != found[1].score  # ranked alone, the second lifted as a neighbour
    assert found[1].parts.neighbour > 0


def test_topics_are_counted_per_owner_and_erased_with_their_episodes(vault: Vault, db: Db) -> None:
    bursty_chat(vault)
    vault.episodes.add("bo", [{"text": "museum day", "at": T0}], now=ASKED)
    rows = db.rows(
        "SELECT topic, mention_count, first_mentioned, last_mentioned FROM conversation_topics "
        "WHERE athlete_id = ? AND topic = ?",
        "ana",
        "museum",
    )
    assert rows == [("museum", 13, "2023-06-01T20:00:30.000000Z", "2023-06-13T20:00:00.000000Z")]
    [top] = vault.episodes.topics("ana", limit=1)
    assert (top.topic, top.mention_count) == ("museum", 13)
    assert [t.topic for t in vault.episodes.topics("ana", about="which museum?")] == ["museum"]
    # a rewritten episode's topics are replaced; forget takes the topics of what it erased
    vault.episodes.add("ana", [message("Ana", "my sister Eva came to Lyon", "m3", 40)], now=ASKED)
    assert "lyon" in {t.topic for t in vault.episodes.topics("ana", limit=100)}
    vault.episodes.forget("ana", "louvre")
    assert "louvre" not in {t.topic for t in vault.episodes.topics("ana", limit=100)}
    assert db.rows("SELECT count(*) FROM episode_topics WHERE topic = 'louvre'") == [(0,)]
    vault.delete_athlete("ana")
    assert db.rows("SELECT count(*) FROM episode_topics WHERE athlete_id = 'ana'") == [(0,)]
    assert db.rows("SELECT count(*) FROM episode_topics WHERE athlete_id = 'bo'") == [(1,)]
