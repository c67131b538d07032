"""Erasure wins over the engine's stale write-backs, through the engine's own statements.

The engine reads its row when it builds a prompt and writes the row back after the model
answers; in between the athlete may say "forget my knee" or be deleted. docs/engine.md, "What
was erased stays erased", is the rule checked here.
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import Any, Literal

import pytest
from freezegun import freeze_time

from tests.conftest import T0
from tests.engine.engine_statements import read_memory, write_memory
from tests.engine.test_engine_table import cli, fact, rows
from vault import AthleteNotFound, Category, FactIn, NoteIn, PatternIn, Retraction, open_vault

ERASED_AT = T0 + timedelta(days=1)
AFTER = "2026-03-04T08:00:00Z"  # a learned_at after the erasure


def _ana(path: Path) -> dict[str, Any]:
    with open_vault(path, upgrade=True) as vault:
        vault.merge(
            "ana",
            [
                FactIn(text="has a sore knee zqxjv", category="injury", confidence=0.9),
                FactIn(text="primary sport: running"),
                PatternIn(text="skips Mondays after knee flare-ups"),
                NoteIn(text="ask about the knee zqxjv first"),
            ],
            now=T0,
        )
    stale = read_memory(path, "ana")  # what the engine read to build its prompt
    assert stale is not None and len(stale["key_facts"]) == 2
    return stale


def _state(path: Path, athlete: str = "ana") -> tuple[set[str], list[str], list[str]]:
    with open_vault(path) as vault:  # opening for a write applies what the engine wrote
        vault.admin.sync_engine()
        if vault.summary(athlete) is None:
            return set(), [], []
        return (
            {f.text for f in vault.facts(athlete)},
            [p.text for p in vault.patterns(athlete)],
            [n.text for n in vault.notes(athlete)],
        )


def _on_disk(path: Path, marker: bytes) -> bool:
    with closing(sqlite3.connect(path)) as raw:
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return any(marker in p.read_bytes() for p in path.parent.glob(path.name + "*"))


def test_a_stale_write_back_after_forget_brings_nothing_back(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    stale = _ana(path)
    with open_vault(path) as vault:
        vault.forget("ana", "knee", now=ERASED_AT)
    write_memory(path, "ana", stale)  # the engine writes back what it read before the forget
    facts, patterns, notes = _state(path)
    assert facts == {"primary sport: running"}
    assert patterns == [] and notes == []
    document = read_memory(path, "ana")
    assert document is not None and "knee" not in json.dumps(document)
    assert not _on_disk(path, b"zqxjv")


def test_a_genuinely_new_statement_after_the_forget_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    stale = _ana(path)
    with open_vault(path) as vault:
        vault.forget("ana", "knee", now=ERASED_AT)
    stale["key_facts"] = [
        {**f, "learned_at": AFTER} if "knee" in f["fact"] else f for f in stale["key_facts"]
    ]  # the athlete said it again, after the forget: the engine learned it anew
    stale["patterns"].append("runs with a club on Thursdays")
    write_memory(path, "ana", stale)
    facts, patterns, notes = _state(path)
    assert facts == {"primary sport: running", "has a sore knee zqxjv"}
    assert patterns == ["runs with a club on Thursdays"]  # new text: kept
    assert notes == []  # equal to an erased note: stays erased


def test_a_second_write_raising_an_erased_facts_confidence_does_not_bring_it_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vault.db"
    stale = _ana(path)
    with open_vault(path) as vault:
        vault.forget("ana", "knee", now=ERASED_AT)
    write_memory(path, "ana", stale)
    raised = json.loads(json.dumps(stale))
    raised["key_facts"][0]["confidence"] = 0.95  # compared with the first write: a reinforcement
    write_memory(path, "ana", raised)
    facts, _patterns, _notes = _state(path)
    assert facts == {"primary sport: running"}


def test_a_stale_write_back_after_delete_does_not_bring_the_athlete_back(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    stale = _ana(path)
    cli(path, "delete", "ana")
    write_memory(path, "ana", stale)
    assert _state(path) == (set(), [], [])
    assert read_memory(path, "ana") is None
    assert rows(path, "SELECT COUNT(*) FROM athletes WHERE id = 'ana'") == [(0,)]
    assert rows(path, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]
    assert not _on_disk(path, b"zqxjv")


def test_after_delete_a_new_statement_starts_the_athlete_again(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    stale = _ana(path)
    with open_vault(path) as vault:
        vault.delete_athlete("ana", now=ERASED_AT)
    stale["key_facts"].append(fact("goal: first triathlon", learned_at=AFTER))
    write_memory(path, "ana", stale)
    facts, patterns, notes = _state(path)
    assert facts == {"goal: first triathlon"}
    assert patterns == [] and notes == []


def test_a_fact_learned_in_the_second_of_the_erasure_but_after_it_is_new(tmp_path: Path) -> None:
    """CURRENT_TIMESTAMP keeps whole seconds: a row stamped 08:00:00 was written before
    08:00:01, so a fact learned at 08:00:00.9 is not dated back to 08:00:00, before a forget
    at 08:00:00.5 (the compiled engine stamps `Utc::now()` and writes within that second)."""
    path = tmp_path / "vault.db"
    stale = _ana(path)
    erased_at = ERASED_AT + timedelta(milliseconds=500)
    with open_vault(path) as vault:
        vault.forget("ana", "knee", now=erased_at)
    stale["key_facts"].append(fact("has a sore knee zqxjv", learned_at="2026-03-03T08:00:00.9Z"))
    with closing(sqlite3.connect(path)) as raw:  # the engine's write, its clock at that second
        raw.execute(
            "INSERT OR REPLACE INTO athlete_memory (athlete_id, memory_json, updated_at) "
            "VALUES (?1, ?2, ?3)",
            ("ana", json.dumps(stale), "2026-03-03 08:00:00"),
        )
        raw.commit()
    with open_vault(path) as vault:
        later = erased_at + timedelta(seconds=2)
        vault.admin.sync_engine(now=later)
        facts = {f.text: f for f in vault.facts("ana", now=later)}
    assert set(facts) == {"primary sport: running", "has a sore knee zqxjv"}
    assert facts["has a sore knee zqxjv"].learned_at > erased_at


def test_a_stale_write_back_after_the_athlete_resolved_a_fact_brings_nothing_back(
    tmp_path: Path,
) -> None:
    """Removed without an erasure record (the knee healed): its archive row says when."""
    path = tmp_path / "vault.db"
    stale = _ana(path)
    with open_vault(path) as vault:
        retraction = Retraction(category=Category.INJURY, tags=frozenset({"body:knee"}))
        archived = vault.merge("ana", [retraction], now=ERASED_AT).archived
    assert [a.original_text for a in archived] == ["has a sore knee zqxjv"]
    write_memory(path, "ana", stale)
    facts, _patterns, _notes = _state(path)
    assert facts == {"primary sport: running"}


def test_a_stale_write_back_after_decay_archived_a_fact_brings_nothing_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge(
            "ana",
            [FactIn(text="prefers evening sessions", confidence=0.55), FactIn(text="runs 5k")],
            now=T0,
        )
    stale = read_memory(path, "ana")
    with freeze_time(T0 + timedelta(weeks=13)):  # 0.55 x 0.95^13 is under 0.3; 0.8 is not
        with open_vault(path) as vault:
            assert vault.decay().archived == 1
            assert {f.text for f in vault.facts("ana")} == {"runs 5k"}
        write_memory(path, "ana", stale)
        facts, _patterns, _notes = _state(path)
    assert facts == {"runs 5k"}


def test_a_learned_at_later_than_the_row_itself_is_no_new_statement(tmp_path: Path) -> None:
    """A clock running ahead (or a time given by hand) dates a fact after the erasure; the
    row that carries it was written before that time, so it says nothing new."""
    path = tmp_path / "vault.db"
    stale = _ana(path)
    with open_vault(path) as vault:
        vault.forget("ana", "knee", now=ERASED_AT)
    stale["key_facts"] = [
        {**f, "learned_at": "2099-01-01T00:00:00Z"} if "knee" in f["fact"] else f
        for f in stale["key_facts"]
    ]
    write_memory(path, "ana", stale)
    facts, _patterns, _notes = _state(path)
    assert facts == {"primary sport: running"}


def test_delete_erases_what_the_engine_left_of_an_athlete_vault_never_held(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    write_memory(path, "mo", {"key_facts": "has crestmarrow syndrome"})  # no list: unreadable
    write_memory(path, " nell", [{"fact": "has crestmarrow syndrome"}])  # a variant key, a list
    withheld = {"key_facts": [fact("call me on pia.k@example.org crestmarrow")]}
    write_memory(path, "pia", withheld)  # every item withheld: the athlete is never made
    with open_vault(path) as vault:
        vault.admin.sync_engine()
        assert vault.summary("pia") is None
        for athlete in ("mo", "nell", "pia"):
            assert vault.delete_athlete(athlete)  # counts of what was erased
        with pytest.raises(AthleteNotFound):
            vault.delete_athlete("zed")  # nothing of theirs anywhere
        assert {f.text for f in vault.facts("ana")} == {"primary sport: running"}
    assert rows(path, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]
    assert rows(path, "SELECT COUNT(*) FROM engine_skipped_items") == [(0,)]
    assert rows(path, "SELECT athlete_id FROM athlete_memory") == [("ana",)]
    assert not _on_disk(path, b"crestmarrow")


def test_after_deleting_what_the_engine_left_its_older_facts_do_not_make_the_athlete(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vault.db"
    before = "2026-03-01T11:00:00Z"  # learned an hour before the delete
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running", now=T0)
    write_memory(path, "mo", {"key_facts": "has crestmarrow syndrome"})  # unreadable
    write_memory(
        path, "pia", {"key_facts": [fact("mail pia.k@example.org", learned_at=before)]}
    )  # withheld
    with freeze_time(T0), open_vault(path) as vault:
        vault.admin.sync_engine()
        for athlete in ("mo", "pia"):
            vault.delete_athlete(athlete, now=T0)
    for athlete in ("mo", "pia"):  # the engine writes what it held of them again
        write_memory(path, athlete, {"key_facts": [fact("has a sore knee", learned_at=before)]})
    with freeze_time(T0 + timedelta(hours=1)):
        assert _state(path, "mo") == _state(path, "pia") == (set(), [], [])
    write_memory(
        path, "mo", {"key_facts": [fact("has a sore knee", learned_at=AFTER)]}
    )  # said since
    with freeze_time(T0 + timedelta(days=3)):
        assert _state(path, "mo")[0] == {"has a sore knee"}


# texts the row shows otherwise than they were written: a C1 control character (a cp1252
# apostrophe read as latin-1), combining accents, a bar the block shows as "/"
SHOWN_OTHERWISE = [
    "has a sore knee\x90ankle zqxjv",
    "doesn\x92t rest the knee zqxjv",
    "knee|ankle zqxjv",
    "rests the kne\u0301e zqxjv",
]


@pytest.mark.parametrize("text", SHOWN_OTHERWISE)
def test_an_item_the_row_shows_otherwise_stays_erased(tmp_path: Path, text: str) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge(
            "ana",
            [
                FactIn(text=text, confidence=0.9),
                FactIn(text="primary sport: running"),
                PatternIn(text=f"skips {text}"),
                NoteIn(text=f"ask about {text} first"),
            ],
            now=T0,
        )
    stale = read_memory(path, "ana")
    assert stale is not None and len(stale["key_facts"]) == 2
    with open_vault(path) as vault:
        vault.forget("ana", "zqxjv", now=ERASED_AT)
    write_memory(path, "ana", stale)
    assert _state(path) == ({"primary sport: running"}, [], [])


@pytest.mark.parametrize("form", ["NFC", "NFD"])
@pytest.mark.parametrize("text", [*SHOWN_OTHERWISE, "drinks caf\u00e9 au lait daily"])
def test_a_write_back_of_the_shown_form_is_the_same_fact(
    tmp_path: Path, text: str, form: Literal["NFC", "NFD"]
) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text=text, confidence=0.9)], now=T0)
    stale = read_memory(path, "ana")
    assert stale is not None
    for item in stale["key_facts"]:  # the engine's copy, in the form its keyboard typed
        item["fact"] = unicodedata.normalize(form, item["fact"])
    write_memory(path, "ana", stale)
    with freeze_time(T0 + timedelta(hours=1)), open_vault(path) as vault:
        vault.admin.sync_engine()
        facts = vault.facts("ana")
    assert len(facts) == 1 and facts[0].occurrences == 1
