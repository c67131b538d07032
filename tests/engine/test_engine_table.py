"""The engine's unchanged statements against vault files: reads, writes, block, erasure."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import T0
from tests.engine.engine_statements import (
    engine_block,
    ensure_tables,
    read_memory,
    write_memory,
)
from vault import FactIn, NoteIn, PatternIn, open_vault
from vault.cli import main
from vault.prompt.contract import validate_contract

ENGINE_SQL = Path(__file__).resolve().parents[1] / "data" / "legacy_engine.sql"


def fact(
    text: str,
    confidence: float = 0.8,
    source: str = "conversation",
    learned_at: str = "2026-02-16T08:00:00Z",
) -> dict[str, Any]:
    return {"fact": text, "source": source, "confidence": confidence, "learned_at": learned_at}


def memory(
    *facts: dict[str, Any], patterns: list[str] | None = None, notes: list[str] | None = None
) -> dict[str, Any]:
    return {
        "key_facts": list(facts),
        "patterns": patterns or [],
        "coaching_notes": notes or [],
        "updated_at": "2026-02-16T08:00:00Z",
    }


def rows(path: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(path)) as raw:
        return raw.execute(sql, params).fetchall()


def legacy_device(path: Path, documents: dict[str, dict[str, Any]]) -> Path:
    """A device file as the engine leaves it: its tables, then memory written by write_memory."""
    with closing(sqlite3.connect(path)) as raw:
        raw.executescript(ENGINE_SQL.read_text(encoding="utf-8"))
    ensure_tables(path)
    for athlete, document in documents.items():
        write_memory(path, athlete, document)
    return path


def cli(path: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--db", str(path), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def vault_block(path: Path, athlete: str) -> str:
    with open_vault(path, read_only=True) as vault:
        return vault.memory_block(athlete).text


def assert_same_block(path: Path, athlete: str) -> None:
    vault_text = vault_block(path, athlete)
    # the engine's builder puts the block after a newline inside its CONTEXT section
    assert engine_block(read_memory(path, athlete)) == ("\n" + vault_text if vault_text else "")


# ---- a legacy device file, upgraded ----------------------------------------------------------


def test_the_engine_reads_every_athlete_after_vault_upgrade(tmp_path: Path) -> None:
    path = legacy_device(
        tmp_path / "vault.db",
        {
            "ana": memory(
                fact("primary sport: running"),
                fact("has recurring knee issue", 0.9),
                patterns=["tends to skip after rest days"],
            ),
            "ben": memory(fact("prefers evening sessions", 0.7), notes=["likes data | charts"]),
        },
    )
    cli(path, "upgrade")
    ensure_tables(path)  # the engine's next start: a harmless no-op
    for athlete in ("ana", "ben"):
        assert read_memory(path, athlete) is not None
        assert_same_block(path, athlete)
    assert "has recurring knee issue" in engine_block(read_memory(path, "ana"))
    assert "likes data / charts" in engine_block(read_memory(path, "ben"))  # "|" made safe
    assert read_memory(path, "nobody") is None


def test_adoption_takes_what_the_engines_types_allow_and_says_what_it_changed(
    tmp_path: Path,
) -> None:
    long_text = "felt " + "very " * 50 + "tired"
    path = legacy_device(
        tmp_path / "vault.db",
        {
            "ana": memory(
                fact("works night shifts", 1.1, source="josi_chat"),
                fact(long_text),
                fact("email me at ana@example.com"),
            ),
        },
    )
    output = cli(path, "upgrade")
    assert "1 engine row applied" in output
    with open_vault(path, read_only=True) as vault:
        facts = {f.text: f for f in vault.facts("ana")}
        remembered = FactIn(text="works night shifts")
    assert set(facts) == {"works night shifts"}
    assert facts["works night shifts"].confidence == 1.0
    assert facts["works night shifts"].category == remembered.category  # as `remember` files it
    ((status, reason),) = rows(path, "SELECT status, reason FROM legacy_adoption")
    assert status == "adopted"
    for expected in (
        "key_facts[0]: confidence 1.1 clamped",
        "source outside",
        "key_facts[1] left out",
        "privacy",
    ):
        assert expected in reason
    for text in ("very very", "ana@example.com", "works night shifts", "josi_chat"):
        assert text not in reason  # never what the row says, only where
    assert long_text in json.dumps(rows(path, "SELECT memory_json FROM legacy_athlete_memory"))
    assert "ana@example.com" not in json.dumps(read_memory(path, "ana"))


def test_a_row_that_is_not_json_is_kept_unread_and_the_upgrade_goes_on(tmp_path: Path) -> None:
    path = legacy_device(tmp_path / "vault.db", {"ana": memory(fact("primary sport: running"))})
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("INSERT INTO athlete_memory (athlete_id, memory_json) VALUES ('bob', '{oops')")
        raw.commit()
    cli(path, "upgrade")
    assert read_memory(path, "ana") is not None
    assert rows(path, "SELECT status FROM legacy_adoption WHERE athlete_id = 'bob'") == [
        ("skipped",)
    ]


# ---- a fresh file ------------------------------------------------------------------------------


def test_on_a_fresh_file_the_engine_sees_what_vault_learns_without_an_export(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge(
            "ana", [FactIn(text="primary sport: cycling"), PatternIn(text="rides on weekends")]
        )
    ensure_tables(path)
    assert_same_block(path, "ana")
    with open_vault(path) as vault:
        vault.remember("ana", "has recurring knee issue", confidence=0.9)
    assert "has recurring knee issue" in engine_block(read_memory(path, "ana"))
    assert_same_block(path, "ana")


def test_what_the_engine_writes_becomes_vault_memory(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="primary sport: running")], now=T0)
    document = read_memory(path, "ana")
    assert document is not None
    document["key_facts"].append(
        fact("prefers morning sessions", 0.7, learned_at="2026-03-02T09:00:00Z")
    )
    document["coaching_notes"].append("responds well to encouragement")
    write_memory(path, "ana", document)
    assert read_memory(path, "ana") == document  # the engine reads its own write back
    with open_vault(path) as vault:
        vault.remember("ana", "primary sport: cycling", now=T0 + timedelta(hours=2))  # newer wins
        texts = {f.text for f in vault.facts("ana", now=T0 + timedelta(hours=2))}
        notes = [n.text for n in vault.notes("ana")]
    assert texts == {"primary sport: cycling", "prefers morning sessions"}
    assert notes == ["responds well to encouragement"]
    assert "primary sport: cycling" in engine_block(read_memory(path, "ana"))


def test_writing_back_what_it_read_is_not_an_observation(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="primary sport: running", confidence=0.6)], now=T0)
    write_memory(path, "ana", read_memory(path, "ana") or {})
    with open_vault(path) as vault:
        vault.admin.sync_engine(now=T0 + timedelta(hours=1))
        (only,) = vault.facts("ana", now=T0 + timedelta(hours=1))
    assert (only.occurrences, only.confidence) == (1, 0.6)


@pytest.mark.parametrize("crowded_out", ["pattern", "note"])
def test_an_item_the_budget_left_out_since_the_read_is_not_reinforced_by_its_echo(
    tmp_path: Path, crowded_out: str
) -> None:
    path = tmp_path / "vault.db"
    item = {"pattern": PatternIn, "note": NoteIn}[crowded_out]
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [item(text="rests on sundays with family")], now=T0)
    stale = read_memory(path, "ana")  # the engine reads its row: the item is in it
    assert stale is not None and len(stale["patterns"] + stale["coaching_notes"]) == 1
    words = " ".join(f"zq{n}x" for n in range(60))[:236]  # about 165 tokens
    with open_vault(path) as vault:  # a long pattern now takes the budget: the item leaves the row
        vault.merge("ana", [PatternIn(text=words)], now=T0 + timedelta(hours=1))
        dropped = [(d.kind.value, d.reason.value) for d in vault.memory_block("ana").dropped]
        assert (crowded_out, "budget") in dropped
    write_memory(path, "ana", stale)  # and writes back what it read
    with open_vault(path) as vault:
        vault.admin.sync_engine(now=T0 + timedelta(hours=2))
        held = vault.memory("ana", now=T0 + timedelta(hours=2))
    (kept,) = [i for i in held.patterns + held.notes if i.text == "rests on sundays with family"]
    assert kept.occurrences == 1 and kept.last_reinforced_at == T0


def test_a_held_pattern_the_engines_own_row_left_out_is_reinforced_when_it_comes_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [PatternIn(text="trains late after long office days")], now=T0)
    shown = read_memory(path, "ana")
    assert shown is not None and shown["patterns"] == ["trains late after long office days"]
    write_memory(path, "ana", {**shown, "patterns": []})  # the engine's own cap left it out
    write_memory(path, "ana", shown)  # and its analysis finds it again: a new observation
    with open_vault(path) as vault:
        vault.admin.sync_engine(now=T0 + timedelta(hours=1))
        (pattern,) = vault.memory("ana", now=T0 + timedelta(hours=1)).patterns
    assert pattern.occurrences == 2


@pytest.mark.parametrize("weeks", [1, 3, 12])
def test_a_read_written_back_after_vault_lowered_it_is_no_reinforcement(
    tmp_path: Path, weeks: int
) -> None:
    path = tmp_path / "vault.db"
    later = T0 + timedelta(weeks=weeks, hours=1)
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="prefers trail running", confidence=0.9)], now=T0)
    stale = read_memory(path, "ana")  # the engine reads its row for a prompt
    with open_vault(path) as vault:  # weeks later vault writes: the row shows the decayed value
        vault.remember("ana", "weekly hours: 6", now=later)
        (before,) = [f for f in vault.facts("ana", now=later) if f.text.startswith("prefers")]
    lowered = read_memory(path, "ana")  # (after 12 weeks: under the row's 0.5 floor, not in it)
    assert stale is not None and lowered is not None
    write_memory(path, "ana", stale)  # the engine writes back what it read before
    with open_vault(path) as vault:
        vault.admin.sync_engine(now=later + timedelta(minutes=5))
        facts = {f.text: f for f in vault.facts("ana", now=later + timedelta(minutes=5))}
    trail = facts["prefers trail running"]
    assert (trail.occurrences, trail.confidence) == (1, before.confidence)
    if weeks == 12:
        return
    # the engine's own boost of what it read then is still a reinforcement
    for item in lowered["key_facts"]:
        item["confidence"] = round(item["confidence"] + 0.1, 6)
    write_memory(path, "ana", lowered)
    with open_vault(path) as vault:
        vault.admin.sync_engine(now=later + timedelta(minutes=10))
        facts = {f.text: f for f in vault.facts("ana", now=later + timedelta(minutes=10))}
    assert facts["prefers trail running"].occurrences == 2


def _trail(path: Path) -> tuple[float, float, int]:
    ((row),) = rows(
        path,
        "SELECT confidence, base_confidence, occurrences FROM facts WHERE text = ?",
        "prefers morning runs",
    )
    return row


@pytest.mark.parametrize("said", [0.8, 0.8123456789012345])  # the row shows 15 digits
def test_an_echo_of_a_row_read_between_two_decay_runs_is_no_reinforcement(
    tmp_path: Path, said: float
) -> None:
    path = tmp_path / "vault.db"
    week = timedelta(weeks=1, hours=1)
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="prefers morning runs", confidence=said)], now=T0)
        stale = read_memory(path, "ana")  # the engine reads the stored confidence
        vault.decay(now=T0 + week)  # vault lowers it a step
        vault.decay(now=T0 + 2 * week)  # and another
        write_memory(path, "ana", stale or {})  # the engine writes back its first read
        vault.admin.sync_engine(now=T0 + 2 * week)
    assert _trail(path)[1:] == (said, 1)


def test_a_fact_stated_anew_at_its_old_confidence_is_reinforced(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    later = T0 + timedelta(weeks=8, hours=1)
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="prefers morning runs", confidence=0.7)], now=T0)
        vault.merge("ana", [FactIn(text="prefers long intervals", confidence=0.9)], now=later)
        document = read_memory(path, "ana") or {}
        stated = (later + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
        document["key_facts"].append(fact("prefers morning runs", 0.7, learned_at=stated))
        write_memory(path, "ana", document)
        vault.admin.sync_engine(now=later + timedelta(hours=2))
    assert _trail(path)[2] == 2


def test_a_dropped_fact_is_not_a_retraction_and_a_raised_one_is_reinforced(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge(
            "ana",
            [
                FactIn(text="primary sport: running", confidence=0.6),
                FactIn(text="has recurring knee issue", confidence=0.9),
            ],
            now=T0,
        )
    document = read_memory(path, "ana") or {}
    kept = [f for f in document["key_facts"] if f["fact"] == "primary sport: running"]
    kept[0]["confidence"] = 0.7  # the engine's own boost
    write_memory(path, "ana", {**document, "key_facts": kept})
    with open_vault(path) as vault:
        vault.admin.sync_engine(now=T0 + timedelta(hours=1))
        facts = {f.text: f for f in vault.facts("ana", now=T0 + timedelta(hours=1))}
    assert set(facts) == {"primary sport: running", "has recurring knee issue"}
    assert facts["primary sport: running"].occurrences == 2


def test_two_engine_writes_before_vault_runs_are_both_applied(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="primary sport: running")], now=T0)
    first = read_memory(path, "ana") or {}
    first["key_facts"].append(fact("prefers morning sessions", learned_at="2026-03-02T09:00:00Z"))
    write_memory(path, "ana", first)
    second = json.loads(json.dumps(first))
    second["patterns"].append("skips Mondays")
    write_memory(path, "ana", second)
    with open_vault(path) as vault:
        report = vault.admin.sync_engine(now=T0 + timedelta(hours=1))
        texts = {f.text for f in vault.facts("ana", now=T0 + timedelta(hours=1))}
        patterns = [p.text for p in vault.patterns("ana")]
    assert report.applied == 2
    assert texts == {"primary sport: running", "prefers morning sessions"}
    assert patterns == ["skips Mondays"]


def test_the_block_is_the_same_when_the_budget_drops_items(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    facts = [
        FactIn(text=f"fact number {i} about a long and winding training history") for i in range(15)
    ]
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [*facts, NoteIn(text="keep it short")])
        assert vault.memory_block("ana").dropped  # the budget leaves some out
    assert_same_block(path, "ana")


# ---- erasure, doctor, downgrade -----------------------------------------------------------------


def test_delete_leaves_no_engine_copy(tmp_path: Path) -> None:
    path = legacy_device(tmp_path / "vault.db", {"ana": memory(fact("primary sport: running"))})
    cli(path, "upgrade")
    write_memory(path, "ana", memory(fact("a marker zqxjv only the engine wrote")))
    cli(path, "delete", "ana")
    assert read_memory(path, "ana") is None
    assert rows(path, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]
    assert rows(path, "SELECT COUNT(*) FROM legacy_athlete_memory") == [(0,)]
    assert b"zqxjv" not in path.read_bytes()


@pytest.mark.parametrize("key", ["jose\u0301", " jos\u00e9", "jos\u00e9\n"])
@pytest.mark.parametrize("how", [("delete", "jos\u00e9"), ("forget", "jos\u00e9", "zqxjv")])
def test_erasing_reaches_the_legacy_copy_under_a_variant_key(
    tmp_path: Path, key: str, how: tuple[str, ...]
) -> None:
    path = legacy_device(tmp_path / "vault.db", {key: memory(fact("has a sore knee zqxjv"))})
    cli(path, "upgrade")
    with open_vault(path) as vault:
        assert [f.text for f in vault.facts("jos\u00e9")] == ["has a sore knee zqxjv"]
    cli(path, *how)
    assert rows(path, "SELECT COUNT(*) FROM legacy_athlete_memory") == [(0,)]
    assert rows(path, "SELECT COUNT(*) FROM legacy_adoption") == [(0,)]
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert b"zqxjv" not in path.read_bytes()


def test_a_plain_table_the_engine_made_is_reported_and_adopted_by_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    schema = rows(
        path, "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'athlete_memory'"
    )
    with closing(sqlite3.connect(path)) as raw:  # an old engine build replaced vault's view
        raw.execute("DROP VIEW athlete_memory")
    ensure_tables(path)
    write_memory(path, "ben", memory(fact("prefers evening sessions")))
    doctor = CliRunner().invoke(main, ["--db", str(path), "doctor"])
    assert doctor.exit_code == 1 and "shadows" in doctor.output
    cli(path, "upgrade")
    assert "prefers evening sessions" in engine_block(read_memory(path, "ben"))
    assert_same_block(path, "ana")
    # the repair spells revision 0016's view and trigger exactly
    assert (
        rows(path, "SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'athlete_memory'")
        == schema
    )
    assert CliRunner().invoke(main, ["--db", str(path), "doctor"]).exit_code == 0


def test_downgrade_restores_the_engines_table(tmp_path: Path) -> None:
    path = legacy_device(tmp_path / "vault.db", {"ana": memory(fact("primary sport: running"))})
    cli(path, "upgrade")
    from vault.storage.engine import create_vault_engine, sqlite_url
    from vault.storage.migrations import downgrade

    engine = create_vault_engine(sqlite_url(path))
    try:
        downgrade(engine, "0001")
    finally:
        engine.dispose()
    assert (
        json.loads(rows(path, "SELECT memory_json FROM athlete_memory")[0][0])["key_facts"][0][
            "fact"
        ]
        == "primary sport: running"
    )


def test_a_downgrade_below_the_view_keeps_what_the_engine_reads(tmp_path: Path) -> None:
    from vault.storage.engine import create_vault_engine, sqlite_url
    from vault.storage.migrations import downgrade

    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="swims | lifts on tuesdays"), NoteIn(text="likes data")])
        vault.remember("ben", "prefers evening sessions")
    before = {athlete: read_memory(path, athlete) for athlete in ("ana", "ben")}
    engine = create_vault_engine(sqlite_url(path))
    try:
        downgrade(engine, "0015")
    finally:
        engine.dispose()
    assert rows(path, "SELECT type FROM sqlite_master WHERE name = 'athlete_memory'") == [
        ("table",)
    ]
    assert {athlete: read_memory(path, athlete) for athlete in ("ana", "ben")} == before


def test_vault_export_contract_has_what_the_engine_structs_require(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    document = json.loads(cli(path, "export", "ana", "--contract"))
    validate_contract(document)  # the JSON-Schema contract
    from tests.engine.engine_statements import check_structs

    check_structs(document)  # and the engine's structs


def test_a_vault_file_from_before_the_engine_table_shows_every_athlete_after_upgrade(
    tmp_path: Path,
) -> None:
    from vault.storage.engine import create_vault_engine, sqlite_url
    from vault.storage.migrations import downgrade

    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
        vault.remember("ben", "prefers evening sessions")
    engine = create_vault_engine(sqlite_url(path))
    try:
        downgrade(engine, "0006")  # a device that ran an earlier vault
    finally:
        engine.dispose()
    assert "athlete_memory" not in {
        name for (name,) in rows(path, "SELECT name FROM sqlite_master")
    }
    cli(path, "upgrade")
    for athlete in ("ana", "ben"):
        assert read_memory(path, athlete) is not None
        assert_same_block(path, athlete)


def test_a_row_vault_cannot_apply_is_kept_unread_and_blocks_no_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vault.domain.errors import InvalidInput
    from vault.services import engine_sync

    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    write_memory(path, "ana", memory(fact("a fact the merge refuses")))

    def refusing_merge(*args: object, **kwargs: object) -> None:
        raise InvalidInput("refused for the test")

    monkeypatch.setattr(engine_sync, "merge", refusing_merge)
    with open_vault(path) as vault:
        vault.remember("ana", "has kids", trusted=True)  # the write itself goes through
        assert {f.text for f in vault.facts("ana")} == {"primary sport: running", "has kids"}
    ((reason,),) = rows(path, "SELECT refused FROM engine_inbox")
    assert "refused for the test" in reason
    assert "has kids" in engine_block(read_memory(path, "ana"))  # shown as vault's


def test_what_the_engine_wrote_shows_in_vault_at_once(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    document = read_memory(path, "ana") or {}
    document["key_facts"].append(
        fact("prefers morning sessions", learned_at="2026-03-02T09:00:00Z")
    )
    write_memory(path, "ana", document)
    shown = json.loads(cli(path, "facts", "ana", "--json"))  # a reading command
    assert "prefers morning sessions" in [f["text"] for f in shown["facts"]]
    assert rows(path, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]
    write_memory(path, "ana", {**document, "patterns": ["skips Mondays"]})
    with open_vault(path, upgrade=True) as vault:  # an app opening its file applies what waits
        assert [p.text for p in vault.patterns("ana")] == ["skips Mondays"]
