"""Episodes on a real SQLite file: recording, recall, filters, time, caps, retention, forget."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from freezegun import freeze_time
from sqlalchemy import event

from vault import Vault
from vault.domain.episodes import StorePolicy
from vault.domain.errors import InvalidInput

NOW = datetime(2026, 5, 20, 15, 0, tzinfo=timezone.utc)
DAY = timedelta(days=1)


def rows(path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as raw:
        return raw.execute(sql, params).fetchall()


def story(vault: Vault) -> None:
    vault.episodes.add(
        "ana",
        [
            {
                "text": "Hill repeats two days before the 10k, legs felt flat",
                "type": "session",
                "at": NOW - 40 * DAY,
                "ref": "s1",
                "meta": {"location": "Parliament Hill"},
            },
            {
                "text": "Pasta dinner, carb loading",
                "type": "meal",
                "at": NOW - 39 * DAY,
                "ref": "m1",
            },
            {
                "text": "Riverside 10k, felt flat and slow",
                "type": "race",
                "outcome": "negative",
                "at": NOW - 38 * DAY,
                "ref": "r1",
            },
            {
                "text": "Easy jog with Maria, my knee ached afterwards",
                "type": "session",
                "at": NOW - 3 * DAY,
                "ref": "s2",
                "meta": {"person": "Maria"},
            },
            {
                "text": "Tempo run on the track, felt strong",
                "type": "session",
                "at": NOW - DAY,
                "ref": "s3",
            },
        ],
        now=NOW,
    )


def indexed(db_path: Path, backend: str, word: str) -> int:
    """How many episodes the full-text index finds for `word` (FTS5 or the tsvector column)."""
    if backend == "sqlite":
        return int(
            rows(db_path, "SELECT count(*) FROM episodes_fts WHERE episodes_fts MATCH ?", word)[0][
                0
            ]
        )
    sql = "SELECT count(*) FROM episodes WHERE search @@ to_tsquery('english', %s)"
    return int(rows(db_path, sql, word)[0][0])


def refs(found: list) -> list[str]:  # type: ignore[type-arg]
    return [e.ref for e in found]


def test_episodes_are_rows_analysts_can_query(vault: Vault, db_path: Path) -> None:
    story(vault)
    assert rows(
        db_path, "SELECT ref, type, outcome, occurred_at FROM episodes WHERE ref = 'r1'"
    ) == [("r1", "race", "negative", "2026-04-12T15:00:00.000000Z")]
    assert rows(
        db_path,
        "SELECT ref, location, person FROM episode_list WHERE ref IN ('s1', 's2') ORDER BY ref",
    ) == [("s1", "Parliament Hill", None), ("s2", None, "Maria")]


def test_recall_ranks_by_text_with_stems_and_synonyms(vault: Vault) -> None:
    story(vault)
    found = vault.episodes.recall("ana", "when did my leg hurt after running", now=NOW)
    assert found[0].ref == "s2"
    assert found[0].parts.text == 1.0 and found[0].score > found[1].score


def test_names_and_types_in_the_query_count(vault: Vault) -> None:
    story(vault)
    assert vault.episodes.recall("ana", "Maria", now=NOW)[0].ref == "s2"
    best = vault.episodes.recall("ana", "how did the race go", now=NOW)[0]
    assert best.ref == "r1" and best.parts.type == 1.0


def test_time_expressions_use_now_and_occurred_at(vault: Vault) -> None:
    story(vault)
    assert refs(vault.episodes.recall("ana", "what did I do yesterday", now=NOW, k=1)) == ["s3"]
    assert vault.episodes.recall("ana", "what did I eat before the race", now=NOW)[0].ref == "m1"
    assert vault.episodes.recall("ana", "sessions in April", now=NOW, k=1)[0].ref in ("s1", "r1")


def test_filters_narrow_the_result(vault: Vault) -> None:
    story(vault)
    assert refs(vault.episodes.recall("ana", "felt", now=NOW, k=5, filters={"type": "race"})) == [
        "r1"
    ]
    since = vault.episodes.recall("ana", "felt", now=NOW, k=5, filters={"since": NOW - 10 * DAY})
    assert set(refs(since)) == {"s3"}
    with pytest.raises(InvalidInput, match="unknown recall filter"):
        vault.episodes.recall("ana", "felt", now=NOW, filters={"colour": "red"})


def test_recall_is_deterministic_and_owner_scoped(vault: Vault) -> None:
    story(vault)
    vault.episodes.add("ben", [{"text": "Easy jog with Maria", "at": NOW - DAY}], now=NOW)
    first = vault.episodes.recall("ana", "jog with Maria", now=NOW, k=5)
    assert first == vault.episodes.recall("ana", "jog with Maria", now=NOW, k=5)
    assert all(e.owner_id == "ana" for e in first) and "Easy jog with Maria" not in [
        e.text for e in first
    ]


def test_a_known_ref_is_rewritten_and_the_index_follows(
    vault: Vault, db_path: Path, backend: str
) -> None:
    story(vault)
    result = vault.episodes.add(
        "ana",
        [{"text": "Tempo run cancelled, thunderstorm", "ref": "s3", "at": NOW - DAY}],
        now=NOW,
    )
    assert result.updated and not result.added
    assert vault.episodes.recall("ana", "thunderstorm", now=NOW)[0].ref == "s3"
    assert (
        vault.episodes.recall("ana", "felt strong", now=NOW, filters={"type": "session"})[0].ref
        != "s3"
    )
    assert indexed(db_path, backend, "strong") == 0


def test_import_episodes_streams_in_batches_and_a_bad_item_writes_nothing(vault: Vault) -> None:
    sizes: list[int] = []
    items = ({"text": f"run {n}", "ref": f"r{n}", "at": NOW - n * DAY} for n in range(5))
    counts = vault.episodes.import_stream("ana", items, now=NOW, batch=2, progress=sizes.append)
    assert counts == {"episodes": 5, "added": 5, "updated": 0, "archived": 0}
    assert sizes == [2, 2, 1]
    again = vault.episodes.import_stream("ana", [{"text": "run 0 again", "ref": "r0"}], now=NOW)
    assert again["updated"] == 1
    with pytest.raises(InvalidInput):
        vault.episodes.import_stream(
            "ana", [{"text": "fine", "ref": "new"}, {"text": ""}], now=NOW, batch=1
        )
    assert "new" not in refs(vault.episodes.recall("ana", "fine", k=10, now=NOW))


def test_policy_skips_what_seed_003_would_not_remember(vault: Vault) -> None:
    result = vault.episodes.add(
        "rusty",
        [
            {"text": "Gave Shane a beer", "type": "npc_interaction"},
            {"text": "walked to the farm", "type": "task_result"},
            {"text": "door would not open", "type": "task_result", "outcome": "failed"},
        ],
        now=NOW,
        policy=StorePolicy(),
    )
    assert len(result.added) == 2 and result.skipped == ((1, "not_notable"),)


def test_caps_archive_the_oldest_and_retention_cleans_up(vault: Vault, db_path: Path) -> None:
    items = [
        {"text": f"session {i}", "at": NOW - (10 - i) * DAY, "ref": f"e{i}"} for i in range(10)
    ]
    result = vault.episodes.add("ana", items, now=NOW, cap=6)
    assert result.archived == 4
    assert rows(db_path, "SELECT ref, reason FROM episode_archive ORDER BY id") == [
        (f"e{i}", "capped") for i in range(4)
    ]
    assert vault.episodes.expire(max_age_days=4, now=NOW) == 2  # e4 and e5: 6 and 5 days old
    assert rows(db_path, "SELECT count(*) FROM episode_archive WHERE reason = 'expired'") == [(2,)]
    assert vault.episodes.cleanup_archive(now=NOW + 89 * DAY) == 0
    assert vault.episodes.cleanup_archive(now=NOW + 91 * DAY) == 6
    assert rows(db_path, "SELECT count(*) FROM episode_archive") == [(0,)]


def test_forget_erases_matching_episodes_archive_and_index(
    vault: Vault, db_path: Path, backend: str
) -> None:
    story(vault)
    vault.episodes.add(
        "ana", [{"text": "knee physio visit", "at": NOW - 300 * DAY}], now=NOW, cap=5
    )
    counts = vault.episodes.forget("ana", "knee")
    assert counts == {"episodes": 1, "episode_archive": 1}
    assert not [r for r in rows(db_path, "SELECT text FROM episodes") if "knee" in str(r[0])]
    assert indexed(db_path, backend, "knee") == 0
    assert all("knee" not in e.text for e in vault.episodes.recall("ana", "knee", now=NOW, k=10))


def test_delete_owner_covers_every_episode_table(vault: Vault, db_path: Path, backend: str) -> None:
    story(vault)
    with vault.unit_of_work() as uow:
        counts = uow.episodes.delete_owner("ana")
        uow.commit()
    assert counts["episodes"] == 5
    assert indexed(db_path, backend, "felt") == 0


def test_deleting_the_athlete_cascades_to_episodes_and_the_index(
    vault: Vault, db_path: Path, backend: str
) -> None:
    story(vault)
    vault.delete_athlete("ana")
    assert rows(db_path, "SELECT count(*) FROM episodes") == [(0,)]
    assert indexed(db_path, backend, "felt") == 0


def test_vectors_join_the_score_when_the_app_embeds(vault: Vault, db_path: Path) -> None:
    def embed(text: str) -> list[float]:
        return [1.0, 0.0] if "hill" in text.lower() or "climb" in text.lower() else [0.0, 1.0]

    vault.episodes.add(
        "ana",
        [{"text": "Hill repeats", "ref": "h"}, {"text": "Pool swim", "ref": "p"}],
        now=NOW,
        embed=embed,
        model="toy",
    )
    assert rows(db_path, "SELECT dim, length(vector) FROM episode_vectors") == [(2, 8), (2, 8)]
    found = vault.episodes.recall("ana", "steep climb", now=NOW, embed=embed, model="toy")
    assert found[0].ref == "h" and found[0].parts.vector == 1.0


def test_activities_become_episodes(vault: Vault) -> None:
    activity = {
        "id": "act_9",
        "started_at": "2026-05-10T07:00:00Z",
        "name": "Hill repeats",
        "private_note": "calf tight and sore after the hills",
        "rpe": 8,
        "duration_min": 50,
    }
    result = vault.episodes.from_activity("ana", activity, now=NOW)
    assert len(result.added) == 1  # a session that hurt is one event, not a session and an injury
    found = vault.episodes.recall("ana", "leg pain", now=NOW, k=2)
    assert [(e.type, e.ref, e.meta["kind"]) for e in found] == [
        ("injury", "activity:act_9", "session")
    ]
    assert "PAST EXPERIENCE" in vault.episodes.sections("ana", "calf pain", now=NOW).text
    assert vault.episodes.sections("ana", "calf pain", now=NOW).text.count("Hill repeats") == 1
    again = vault.episodes.from_activity("ana", activity, now=NOW)
    assert len(again.updated) == 1 and not again.added


def test_knowledge_loads_from_json_and_is_found_by_names_in_context(
    vault: Vault, tmp_path: Path
) -> None:
    source = tmp_path / "npcs.json"
    source.write_text(
        json.dumps(
            {
                "npc": [
                    {"name": "Shane", "loves": ["Beer", "Pizza"], "aliases": ["the grumpy guy"]},
                    {"name": "Abigail", "loves": ["Amethyst"]},
                ]
            }
        )
    )
    assert vault.knowledge.load(source, now=NOW) == (2, 0)
    assert vault.knowledge.load(source, now=NOW) == (0, 2)
    assert [k.name for k in vault.knowledge.for_context("Shane is at the Saloon")] == ["Shane"]
    assert [k.name for k in vault.knowledge.for_context("talk to the grumpy guy")] == ["Shane"]
    sections = vault.episodes.sections("rusty", "What does Abigail like?", now=NOW)
    assert sections.text == "KNOWLEDGE:\n- Abigail (npc): loves: Amethyst\n"


def test_recall_statements_do_not_grow_with_the_owners_episodes(vault: Vault) -> None:
    def statements(size: int, owner: str) -> int:
        items = [
            {"text": f"easy run number {i} with Maria", "at": NOW - i * DAY / 24}
            for i in range(size)
        ]
        vault.episodes.add(owner, items, now=NOW)
        seen: list[str] = []
        listener = lambda *args: seen.append(args[2])  # noqa: E731
        event.listen(vault.engine, "before_cursor_execute", listener)
        try:
            vault.episodes.recall(owner, "run with Maria yesterday", now=NOW)
        finally:
            event.remove(vault.engine, "before_cursor_execute", listener)
        return len(seen)

    assert statements(50, "small") == statements(800, "large")


@freeze_time(NOW)
def test_now_defaults_to_the_clock(vault: Vault) -> None:
    vault.episodes.add_one("ana", "Tempo run felt strong")
    assert vault.episodes.recall("ana", "what did I do today")[0].occurred_at == NOW
