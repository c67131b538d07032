"""An engine row is input like any other: item by item, bounded, never able to stop a write.

Rows are written through the engine's own INSERT OR REPLACE (tests/engine/engine_statements.py),
as a buggy or hostile engine build could write them.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event

from tests.engine.engine_statements import WRITE_MEMORY, read_memory, write_memory
from tests.engine.test_engine_table import fact, memory, rows
from vault import EpisodeIn, open_vault
from vault.cli import main
from vault.domain.limits import MAX_FACTS
from vault.facade import store
from vault.services.engine_sync import LEFT_OUT_LISTED, ROWS_PER_TRANSACTION
from vault.storage.repositories.engine_skips import KEPT_PER_ATHLETE


def _engine_writes(path: Path, athlete: object, memory_json: object) -> None:
    """The engine's statement with whatever parameters a build might bind."""
    with closing(sqlite3.connect(path, timeout=5)) as connection:
        connection.execute(WRITE_MEMORY, (athlete, memory_json))
        connection.commit()


def _every_write_works(path: Path, tag: str) -> None:
    with open_vault(path) as vault:
        vault.remember(f"other-{tag}", "primary sport: rowing")
        vault.episodes.add(f"other-{tag}", [EpisodeIn(text=f"rowed 10k {tag}", type="activity")])
        assert "primary sport: rowing" in {f.text for f in vault.facts(f"other-{tag}")}
        vault.delete_athlete(f"other-{tag}")


def _cli(path: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--db", str(path), *args])
    return result.exit_code, result.output


@pytest.fixture
def ana(tmp_path: Path) -> Path:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    return path


def test_a_401_digit_confidence_leaves_out_that_fact_only(ana: Path) -> None:
    huge = "9" * 401
    document = memory(fact("prefers morning sessions"), fact("has a dog"))
    text = json.dumps(document).replace('"confidence": 0.8,', f'"confidence": {huge},', 1)
    assert huge in text
    _engine_writes(ana, "ana", text)
    _every_write_works(ana, "a")
    with open_vault(ana) as vault:
        assert {f.text for f in vault.facts("ana")} == {"primary sport: running", "has a dog"}
    code, output = _cli(ana, "upgrade")
    assert code == 0
    assert rows(ana, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]  # applied, never retried
    # applied by another command's write, reported later by upgrade and doctor, from the record
    assert "earlier engine row for ana: key_facts[0] left out at " in output
    assert "confidence out of range" in output
    code, output = _cli(ana, "doctor")
    assert code == 0, output  # reported; the file is healthy
    assert "engine items left out: 1 item(s)" in output and "ana: key_facts[0]" in output


def test_a_20000_fact_row_becomes_at_most_15_facts(ana: Path) -> None:
    facts = [fact(f"fact number {i} of a flood", 0.5 + (i % 400) / 1000) for i in range(20_000)]
    write_memory(ana, "ana", memory(*facts))
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        stored = vault.facts("ana")
    assert len(stored) == MAX_FACTS
    assert min(f.confidence for f in stored) >= 0.85  # the best, as a merge keeps them
    # a thousand are read, eight caps' worth examined, the rest archived as a merge caps them
    assert any("19000 item(s) after the first 1000 read not read" in line for line in report.lines)
    assert any("880 fact(s) beyond 120 examined left out" in line for line in report.lines)
    capped = rows(ana, "SELECT COUNT(*) FROM archive WHERE reason = 'capped'")
    assert capped == [(120 + 1 - MAX_FACTS,)]  # ana's own fact too: it ranks below them


def test_a_million_items_are_read_as_a_thousand(ana: Path) -> None:
    write_memory(ana, "ana", memory(patterns=[f"p{i}" for i in range(1_000_000)]))
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        assert len(vault.patterns("ana")) == 5
    assert any("999000 item(s) after the first 1000 read not read" in x for x in report.lines)


@pytest.mark.parametrize("erase", ["forget", "delete"])
def test_items_a_row_brought_past_the_caps_stay_out_after_an_erasure(ana: Path, erase: str) -> None:
    row = memory(
        *(fact(f"knee zqxjv note {i}", 0.9 - i / 100) for i in range(MAX_FACTS + 2)),
        patterns=[f"rests the knee zqxjv on day {i}" for i in range(7)],
    )
    write_memory(ana, "ana", row)
    stale = read_memory(ana, "ana")  # the engine reads what it wrote before vault applies it
    with open_vault(ana) as vault:
        vault.admin.sync_engine()
        if erase == "forget":
            vault.forget("ana", "zqxjv")
        else:
            vault.delete_athlete("ana")
    assert stale is not None
    write_memory(ana, "ana", stale)  # and writes it back after the erasure
    with open_vault(ana) as vault:
        vault.admin.sync_engine()
        if erase == "delete":
            assert vault.summary("ana") is None
        else:
            assert {f.text for f in vault.facts("ana")} == {"primary sport: running"}
            assert vault.patterns("ana") == []


def test_items_vault_cannot_take_are_skipped_with_their_reason(ana: Path) -> None:
    write_memory(
        ana,
        "ana",
        memory(
            fact("x" * 5000),
            fact("write to me at ana.lopez@example.com"),
            fact("has two kids"),
        ),
    )
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        texts = {f.text for f in vault.facts("ana")}
    assert texts == {"primary sport: running", "has two kids"}
    joined = "\n".join(report.lines)
    assert "key_facts[0] left out: text: text is 5000 characters; the limit is 200" in joined
    assert "key_facts[1] left out: withheld by the privacy filter" in joined
    assert "example.com" not in joined and "xxxx" not in joined  # no refused text repeated
    document = read_memory(ana, "ana")
    assert document is not None and "example.com" not in json.dumps(document)
    recorded = rows(ana, "SELECT athlete_id, item, position, reason FROM engine_skipped_items")
    assert [r[:3] for r in recorded] == [("ana", "key_facts", 0), ("ana", "key_facts", 1)]
    assert "example.com" not in json.dumps(recorded) and "xxxx" not in json.dumps(recorded)
    code, output = _cli(ana, "doctor")
    assert code == 0 and "2 item(s) of the engine's rows vault could not take" in output
    assert "example.com" not in output


def test_items_left_out_are_recorded_under_the_athletes_id_and_erased_with_it(ana: Path) -> None:
    write_memory(ana, " ana\n", memory(fact("mail ana.lopez@example.com"), patterns=["", "ok"]))
    with open_vault(ana) as vault:
        vault.admin.sync_engine()
        total, latest = vault.admin.engine_items_left_out()
    assert total == 2
    assert {(i.athlete_id, i.item, i.position) for i in latest} == {
        ("ana", "key_facts", 0),
        ("ana", "patterns", 0),
    }
    code, output = _cli(ana, "delete", "ana")
    assert code == 0, output
    assert rows(ana, "SELECT COUNT(*) FROM engine_skipped_items") == [(0,)]


def test_the_record_keeps_each_athletes_latest_items_only(ana: Path) -> None:
    for round_ in range(3):
        bad = [fact(f"round {round_} mail me at a{i}@example.com") for i in range(10)]
        write_memory(ana, "ana", memory(*bad))
        with open_vault(ana) as vault:
            vault.admin.sync_engine()
    assert rows(ana, "SELECT COUNT(*) FROM engine_skipped_items") == [(KEPT_PER_ATHLETE,)]


@pytest.mark.parametrize(
    "memory_json",
    ["not json", "[1, 2]", '"a string"', "x" * 10_000_001, 42, b"\xff\xfe"],
    ids=["text", "list", "string", "oversized", "number", "bytes"],
)
def test_a_row_that_is_not_a_memory_document_is_kept_unread_and_doctor_says_so(
    ana: Path, memory_json: object
) -> None:
    _engine_writes(ana, "ana", memory_json)
    _every_write_works(ana, "b")
    ((reason,),) = rows(ana, "SELECT refused FROM engine_inbox")
    assert reason
    code, output = _cli(ana, "doctor")
    assert code != 0 and "kept unread" in output
    code, output = _cli(ana, "delete", "ana")
    assert code == 0
    assert rows(ana, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]


def test_a_row_kept_unread_keeps_no_copy_of_the_row_it_replaced(ana: Path) -> None:
    _engine_writes(ana, "ana", "not json, and vault's row is what it replaced")
    with open_vault(ana) as vault:
        vault.admin.sync_engine()
    assert rows(ana, "SELECT previous_json IS NULL FROM engine_inbox") == [(1,)]


def test_a_flood_of_waiting_rows_is_applied_a_batch_per_transaction(ana: Path) -> None:
    waiting = ROWS_PER_TRANSACTION * 2 + 10
    with closing(sqlite3.connect(ana)) as engine:
        for i in range(waiting):
            engine.execute(WRITE_MEMORY, (f"runner {i}", json.dumps(memory(fact(f"runs {i}k")))))
        engine.commit()
    with open_vault(ana) as vault:
        vault.remember("ana", "has two kids")  # its write applies one batch, then its own work
        assert vault.admin.engine_writes_waiting() == waiting - ROWS_PER_TRANSACTION
        begins: list[object] = []
        count = begins.append
        event.listen(vault.engine, "begin", count)
        report = vault.admin.sync_engine()  # the rest, a batch per transaction
        event.remove(vault.engine, "begin", count)
        assert vault.admin.engine_writes_waiting() == 0
    assert report.applied == waiting - ROWS_PER_TRANSACTION and not report.more
    assert len(begins) == 3  # what waits is counted, then 50 rows, then the last 10
    assert read_memory(ana, f"runner {waiting - 1}") is not None


def _flood(path: Path, rows: int, first: int = 0) -> None:
    with closing(sqlite3.connect(path)) as engine:
        for i in range(first, first + rows):
            engine.execute(WRITE_MEMORY, (f"runner {i}", json.dumps(memory(fact(f"runs {i}k")))))
        engine.commit()


def test_a_forget_acts_on_what_the_engine_wrote_behind_a_flood(ana: Path) -> None:
    _flood(ana, ROWS_PER_TRANSACTION + 10)
    document = read_memory(ana, "ana")
    assert document is not None
    document["key_facts"].append(fact("prefers evening swims"))
    write_memory(ana, "ana", document)  # waits behind the flood
    with open_vault(ana) as vault:
        assert vault.forget("ana", "evening swims").facts == 1
        assert [f.text for f in vault.facts("ana")] == ["primary sport: running"]


def test_a_sync_ends_with_the_rows_that_waited_when_it_began(
    ana: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _flood(ana, ROWS_PER_TRANSACTION + 10)
    written = iter(range(1_000, 100_000, ROWS_PER_TRANSACTION))

    def an_engine_that_never_pauses(seconds: float) -> None:
        _flood(ana, ROWS_PER_TRANSACTION, next(written))  # a full batch in every pause

    monkeypatch.setattr(store.time, "sleep", an_engine_that_never_pauses)
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        assert (
            report.applied == ROWS_PER_TRANSACTION * 2
        )  # two batches: the 60 that waited began it
        assert vault.admin.engine_writes_waiting() == 10  # written meanwhile: the next write


# ---- property: whatever the engine writes, every other write still works ----------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**500), max_value=10**500)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=300)
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_FACT = st.fixed_dictionaries(
    {},
    optional={
        "fact": st.text(max_size=400) | _JSON,
        "source": st.text(max_size=30) | _JSON,
        "confidence": _SCALARS,
        "learned_at": st.sampled_from(
            ["2026-03-02T08:00:00Z", "9999-99-99", "", "2026-13-45T00:00:00+25:00"]
        )
        | _JSON,
    },
)
_DOCUMENT = st.fixed_dictionaries(
    {},
    optional={
        "key_facts": st.lists(_FACT, max_size=30) | _JSON,
        "patterns": st.lists(st.text(max_size=400) | _JSON, max_size=8) | _JSON,
        "coaching_notes": st.lists(st.text(max_size=400) | _JSON, max_size=8) | _JSON,
        "updated_at": _JSON,
    },
)
_KEYS = st.sampled_from(["ana", " ana", "ana\n", "ana\u0301", "", None, 7, "x" * 500]) | st.text(
    max_size=20
)


@pytest.fixture(scope="module")
def shared_vault() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="vault-hostile-engine-"))
    path = folder / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.remember("ana", "primary sport: running")
    yield path
    shutil.rmtree(folder, ignore_errors=True)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(key=_KEYS, document=_DOCUMENT | _JSON, raw=st.booleans())
def test_no_row_the_engine_writes_stops_another_write(
    shared_vault: Path, key: Any, document: Any, raw: bool
) -> None:
    text = json.dumps(document, allow_nan=True) if not raw else json.dumps(document)[:-1]
    _engine_writes(shared_vault, key, text)
    _every_write_works(shared_vault, "p")
    with open_vault(shared_vault) as vault:
        assert rows(shared_vault, "SELECT COUNT(*) FROM engine_inbox WHERE refused IS NULL") == [
            (0,)
        ]
        vault.remember("ana", "has a dog", trusted=True)
        vault.delete_athlete("ana")
        vault.remember("ana", "primary sport: running")


def test_a_row_of_thousands_of_unreadable_items_is_reported_in_a_few_lines(ana: Path) -> None:
    unreadable = [{"confidence": 0.9, "source": "conversation"} for _ in range(5_000)]  # no text
    write_memory(ana, "ana", memory(*unreadable, fact("has two kids")))
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        texts = {f.text for f in vault.facts("ana")}
    assert texts == {"primary sport: running", "has two kids"}
    left_out = [line for line in report.lines if "left out" in line]
    assert len(left_out) == LEFT_OUT_LISTED + 1
    assert left_out[-1].endswith("key_facts left out: 4990 more item(s), not listed one by one")
    assert rows(ana, "SELECT COUNT(*) FROM engine_skipped_items") == [(LEFT_OUT_LISTED + 1,)]


def test_items_left_out_of_every_list_are_counted_per_list_and_the_rest_applied(
    ana: Path,
) -> None:
    unreadable = [None] * LEFT_OUT_LISTED  # the first ten, listed one by one
    row = memory(*unreadable, fact("has two kids"), patterns=[7, "naps after lunch"], notes=[{}])
    write_memory(ana, "ana", row)
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        assert {f.text for f in vault.facts("ana")} == {"primary sport: running", "has two kids"}
        assert [p.text for p in vault.patterns("ana")] == ["naps after lunch"]
    assert report.refused == 0
    left_out = [line for line in report.lines if "left out" in line]
    assert left_out[LEFT_OUT_LISTED:] == [
        "ana: patterns left out: 1 more item(s), not listed one by one",
        "ana: coaching_notes left out: 1 more item(s), not listed one by one",
    ]
    recorded = rows(ana, "SELECT item FROM engine_skipped_items WHERE position IS NULL")
    assert sorted(recorded) == [("coaching_notes",), ("patterns",)]


def test_only_the_latest_unreadable_row_of_a_key_is_kept(ana: Path) -> None:
    for n in range(30):
        _engine_writes(ana, "ana", "{oops" + str(n))
    _engine_writes(ana, "bob", "[1, 2]")
    _every_write_works(ana, "q")
    kept = rows(ana, "SELECT athlete_id, memory_json FROM engine_inbox ORDER BY id")
    assert kept == [("ana", "{oops29"), ("bob", "[1, 2]")]


def test_an_athletes_rows_under_many_keys_are_erased_a_bounded_number_of_ids_at_a_time(
    ana: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many rows name the athlete, no statement binds more ids than SQLite allows
    (here a limit of 4 bound values, and 2 ids a statement)."""
    from sqlalchemy import create_engine, event

    from vault.storage.repositories import engine_table

    monkeypatch.setattr(engine_table, "_IDS_PER_STATEMENT", 2)
    for key in (" ana", "ana ", "\tana", "ana\n", " ana "):
        _engine_writes(ana, key, "{oops")
    engine = create_engine(f"sqlite:///{ana}")
    event.listen(
        engine,
        "connect",
        lambda raw, _record: raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 4),
    )
    with engine.begin() as connection:
        # the five rows the engine wrote, waiting in its inbox (the view computes the rest)
        assert engine_table.EngineTableRepository(connection).purge("ana") == 5
    engine.dispose()
    assert rows(ana, "SELECT COUNT(*) FROM engine_inbox") == [(0,)]
    # the view shows vault's row of ana, and nothing under a variant key
    assert rows(ana, "SELECT athlete_id FROM athlete_memory") == [("ana",)]


def test_a_text_over_the_input_limit_is_left_out_before_any_work_on_it(
    ana: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2 MB text is refused by its length alone: nothing normalizes it (that costs seconds
    on texts of megabytes, under the write lock)."""
    from vault.domain import engine_document
    from vault.domain.limits import TEXT_INPUT_MAX
    from vault.services import engine_sync

    def short_only(text: str) -> str:
        assert len(text) <= TEXT_INPUT_MAX, "a text over the input limit was worked on"
        return normalize(text)

    normalize = engine_document.normalize_text
    monkeypatch.setattr(engine_document, "normalize_text", short_only)
    monkeypatch.setattr(engine_sync, "normalize_text", short_only)
    huge = "a.!" * 700_000
    write_memory(ana, "ana", memory(fact(huge), fact("has two kids"), patterns=[huge]))
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        assert {f.text for f in vault.facts("ana")} == {"primary sport: running", "has two kids"}
    assert report.refused == 0
    reasons = {r for (r,) in rows(ana, "SELECT reason FROM engine_skipped_items")}
    assert reasons == {
        "text: text is 2100000 characters; the limit is 200",
        "text: text is 2100000 characters; the limit is 300",
    }


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_the_non_finite_tokens_are_left_out_like_1e999(ana: Path, value: float) -> None:
    write_memory(ana, "ana", memory(fact("likes hills", value), fact("has two kids")))
    with open_vault(ana) as vault:
        report = vault.admin.sync_engine()
        assert {f.text for f in vault.facts("ana")} == {"primary sport: running", "has two kids"}
    assert any("key_facts[0] left out: confidence out of range" in x for x in report.lines)
    assert rows(ana, "SELECT item, position FROM engine_skipped_items") == [("key_facts", 0)]
