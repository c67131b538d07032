"""`vault ingest` and `vault relevant` as a user runs them (issue 3's "done when")."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from vault.cli import main


def invoke(db_path: Path, *args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["--db", str(db_path), *args], input=input)


def test_a_message_stores_what_a_coach_would_write_down_and_a_later_one_updates_it(
    db_path: Path,
) -> None:
    first = invoke(
        db_path,
        "ingest",
        "ana",
        "--at",
        "2026-03-02T07:00:00Z",
        "--json",
        "--text",
        "I run most mornings before work, usually 45 minutes, but my left knee has "
        "been sore since the half marathon",
    )
    assert first.exit_code == 0, first.output
    added = json.loads(first.output)["added"]
    assert sorted(f["text"] for f in added) == [
        "has left knee issue",
        "prefers morning sessions",
        "primary sport: running",
        "typical duration: 45 min",
    ]
    assert {f["source"] for f in added} == {"user_message"}
    assert all(
        f["source_ref"] == "2026-03-02T07:00:00.000000Z" and f["extractor"].startswith("rules:")
        for f in added
    )
    second = invoke(
        db_path,
        "ingest",
        "ana",
        "-",
        "--at",
        "2026-03-09T07:00:00Z",
        input="I've switched to cycling, the knee is fine now",
    )
    assert "archived fact: primary sport: running (superseded by" in second.output
    assert "archived fact: has left knee issue (resolved)" in second.output
    with sqlite3.connect(db_path) as raw:
        texts = {r[0] for r in raw.execute("SELECT text FROM facts")}
    assert texts == {
        "primary sport: cycling",
        "prefers morning sessions",
        "typical duration: 45 min",
    }


def test_activities_and_conversations_are_ingested_from_files(
    db_path: Path, tmp_path: Path
) -> None:
    activity = tmp_path / "activity.json"
    activity.write_text(
        json.dumps(
            {
                "id": "act_7",
                "started_at": "2026-03-04T06:45:00+01:00",
                "name": "Hill repeats",
                "private_note": "calf tight after the hills",
            }
        )
    )
    result = json.loads(
        invoke(
            db_path, "ingest", "ana", "--kind", "activity", "--file", str(activity), "--json"
        ).output
    )
    [fact] = result["added"]
    assert (fact["source"], fact["source_ref"], fact["tags"]) == (
        "activity_note",
        "act_7",
        ["body:calf"],
    )
    turns = tmp_path / "chat.json"
    turns.write_text(
        json.dumps(
            [
                {"role": "assistant", "text": "You prefer evenings, right?"},
                {"role": "user", "text": "I have two kids", "at": "2026-03-05T20:00:00Z"},
            ]
        )
    )
    out = json.loads(
        invoke(
            db_path, "ingest", "ana", "--kind", "conversation", "--file", str(turns), "--json"
        ).output
    )
    assert [f["text"] for f in out["added"]] == ["has kids"]  # the coach's turn is not evidence


def test_ingest_mistakes_are_clear_and_write_nothing(db_path: Path) -> None:
    invoke(db_path, "upgrade")
    assert invoke(db_path, "ingest", "ana").exit_code == 2
    assert invoke(db_path, "ingest", "ana", "--text", "x", "-").exit_code == 2
    bad = invoke(db_path, "ingest", "ana", "--kind", "activity", "--text", '{"id": "x"}')
    assert bad.exit_code == 1 and "needs started_at or date" in bad.output
    broken = invoke(db_path, "ingest", "ana", "--kind", "conversation", "--text", "[not json")
    assert broken.exit_code == 1 and "expected a JSON list of turns" in broken.output
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("SELECT COUNT(*) FROM athletes").fetchone() == (0,)


def test_relevant_ranks_by_seed_002_scoring(db_path: Path) -> None:
    invoke(
        db_path,
        "ingest",
        "ana",
        "--at",
        "2026-03-02T07:00:00Z",
        "--text",
        "I run most mornings before work, usually 45 minutes, but my left knee has been sore",
    )
    items = json.loads(
        invoke(
            db_path,
            "relevant",
            "ana",
            "is my knee ok for hills?",
            "--json",
            "--at",
            "2026-03-03T07:00:00Z",
        ).output
    )
    assert items[0]["text"] == "has left knee issue"
    assert all("knee" in i["text"] or "hill" in i["text"] for i in items)
    assert invoke(db_path, "relevant", "ana", "x", "--limit", "0").exit_code == 2


def test_facts_why_shows_each_observation_and_consolidate_is_safe_to_repeat(db_path: Path) -> None:
    ingest = invoke(
        db_path,
        "ingest",
        "ana",
        "--at",
        "2026-03-02T07:00:00Z",
        "--text",
        "I'm training for a marathon in May",
    )
    assert ingest.exit_code == 0, ingest.output
    for day in (3, 5, 7):
        activity = json.dumps(
            {
                "id": f"r{day}",
                "started_at": f"2026-03-0{day}T07:00:00Z",
                "sport": "Run",
                "description": "long run with the club",
            }
        )
        done = invoke(db_path, "ingest", "ana", "--kind", "activity", "--text", activity)
        assert done.exit_code == 0, done.output
    why = invoke(db_path, "facts", "ana", "--why", "--at", "2026-03-08T00:00:00Z")
    assert why.exit_code == 0, why.output
    assert (
        'user_message 2026-03-02T07:00:00.000000Z  "I\'m training for a marathon in May"'
        in why.output
    )
    assert "likes group runs" in why.output and "pattern_analysis r7" in why.output
    data = json.loads(invoke(db_path, "facts", "ana", "--why", "--json").output)
    goal = next(f for f in data["facts"] if f["text"] == "goal: marathon")
    assert [e["words"] for e in goal["evidence"]] == ["I'm training for a marathon in May"]
    again = invoke(db_path, "consolidate", "ana", "--json", "--at", "2026-03-08T00:00:00Z")
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["added"] == [] and json.loads(again.output)["updated"] == []
