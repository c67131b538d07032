"""The `athlete_memory` view computes, in SQL, exactly the row vault's MEMORY block implies.

Generated memories (texts with bars and runs of spaces, long texts that overflow the token
budget, confidences around the 0.5 floor and tied, sources of every kind) are merged through
the library; the engine's own read must give the block vault prints, byte for byte, and each
shown fact's source, confidence and learned_at as `vault export --contract` writes them.
"""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import T0
from tests.engine.engine_statements import WRITE_MEMORY, engine_block, read_memory
from vault import FactIn, NoteIn, PatternIn, open_vault
from vault.cli import main
from vault.domain.vocabulary import CONTRACT_SOURCE, Source
from vault.prompt.items import utc_text
from vault.prompt.tokens import count_each
from vault.storage import engine_view

WORDS = ["run", "swim", "knee", "trail", "hill", "tempo", "sleep", "coach", "race", "pace"]
_word = st.sampled_from(WORDS)
_text = st.lists(
    st.one_of(_word, _word, _word, st.just("|"), st.just("\uff5c"), st.just("fast!")),
    min_size=1,
    max_size=30,
).map(" ".join)
_confidence = st.sampled_from([0.3, 0.45, 0.5, 0.5, 0.55, 0.7, 0.7, 0.8, 0.95, 1.0])
_seconds = st.integers(min_value=0, max_value=3 * 86400)
_micro = st.sampled_from([0, 0, 250_000])


@st.composite
def memories(draw: st.DrawFn) -> list[tuple[int, object]]:
    """(seconds after T0, candidate): each merged at its own time; a fact may be said again
    (a +0.1 boost)."""
    items: list[tuple[int, object]] = []
    said = [f"fact {n} {draw(_text)}" for n in range(draw(st.integers(1, 20)))]
    for _ in range(draw(st.integers(0, 24))):
        text = draw(st.sampled_from(said))
        source = draw(st.sampled_from(list(Source)))
        fact = FactIn(text=text, confidence=draw(_confidence), source=source)
        items.append((draw(_seconds), fact))
    for n in range(draw(st.integers(0, 7))):
        items.append((draw(_seconds), PatternIn(text=f"pattern {n} {draw(_text)}")))
    for n in range(draw(st.integers(0, 7))):
        items.append((draw(_seconds), NoteIn(text=f"note {n} {draw(_text)}")))
    return items


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "vault.db"
    open_vault(path, upgrade=True).close()
    return path


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(items=memories(), micro=_micro, weeks=st.sampled_from([0, 0, 3, 9]))
def test_the_view_gives_the_block_vault_prints(
    migrated: Path,
    tmp_path_factory: pytest.TempPathFactory,
    items: list[tuple[int, object]],
    micro: int,
    weeks: int,
) -> None:
    """`weeks` of decay run by `vault decay` (stored confidences such as 0.7737809375)."""
    path = tmp_path_factory.mktemp("view") / "vault.db"
    shutil.copy(migrated, path)
    with open_vault(path) as vault:
        for seconds, candidate in sorted(items, key=lambda pair: pair[0]):
            when = T0 + timedelta(seconds=seconds, microseconds=micro)
            vault.merge("ana", [candidate], now=when)  # type: ignore[list-item]
        at = T0 + timedelta(days=4, weeks=weeks)
        if weeks:
            vault.decay(now=at)
        block = vault.memory_block("ana", now=at)
        facts = {f.id: f for f in vault.facts("ana", now=at)}
    document = read_memory(path, "ana")
    assert engine_block(document) == ("\n" + block.text if block.text else "")
    if document is None:
        return
    shown = [facts[i] for i in block.included.facts]
    assert document["key_facts"] == [
        {
            "fact": fact["fact"],
            "source": CONTRACT_SOURCE[f.source],
            "confidence": f.confidence,  # 6 decimals at most: SQLite's 15 digits are exact
            "learned_at": utc_text(f.learned_at),
        }
        for fact, f in zip(document["key_facts"], shown, strict=True)
    ]
    last_merge = T0 + timedelta(seconds=max(s for s, _ in items), microseconds=micro)
    if not weeks:  # (a decay that archives a fact touches the athlete too)
        assert document["updated_at"] == utc_text(last_merge)


def test_the_view_counts_the_fixed_pieces_as_cl100k_does() -> None:
    header, facts, patterns, notes, separator = count_each(
        ["MEMORY:\n", "- Facts:", "- Patterns:", "- Notes:", " |"]
    )
    assert header == engine_view.HEADER_TOKENS
    assert {"f": facts, "p": patterns, "n": notes} == engine_view.LABEL_TOKENS
    assert separator == engine_view.SEPARATOR_TOKENS


def test_the_migrated_view_and_trigger_are_the_ones_vault_spells(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    open_vault(path, upgrade=True).close()
    with closing(sqlite3.connect(path)) as raw:
        stored = dict(
            raw.execute(
                "SELECT name, sql FROM sqlite_master WHERE tbl_name IN ('athlete_memory', 'engine_inbox') AND type <> 'table'"
            )
        )
    assert stored[engine_view.VIEW_NAME] == engine_view.CREATE_VIEW
    assert stored[engine_view.TRIGGER_NAME] == engine_view.CREATE_TRIGGER
    assert stored["ix_engine_inbox_athlete_id"] == engine_view.CREATE_INBOX_INDEX


def test_an_item_stored_without_its_counts_is_counted_by_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="primary sport: running"), PatternIn(text="skips mondays")])
        expected = vault.memory_block("ana").text
    with closing(sqlite3.connect(path)) as raw:  # as an earlier vault or another program left it
        for table in ("facts", "patterns"):
            raw.execute(f"UPDATE {table} SET inline_tokens = NULL, inline_tokens_last = NULL")
        raw.commit()
    assert read_memory(path, "ana") is None  # nothing counted: nothing the budget can vouch for
    doctor = CliRunner().invoke(main, ["--db", str(path), "doctor"])
    assert doctor.exit_code == 1 and "2 item(s) stored without their token counts" in doctor.output
    open_vault(path, upgrade=True).close()
    assert engine_block(read_memory(path, "ana")) == "\n" + expected
    assert CliRunner().invoke(main, ["--db", str(path), "doctor"]).exit_code == 0


def test_the_engine_writing_no_document_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "vault.db"
    with open_vault(path, upgrade=True) as vault:
        vault.merge("ana", [FactIn(text="primary sport: running")])
    before = read_memory(path, "ana")
    with closing(sqlite3.connect(path)) as raw:  # the engine's own statement, NULL document
        with pytest.raises(sqlite3.IntegrityError, match="NOT NULL constraint failed"):
            raw.execute(WRITE_MEMORY, ("ana", None))
        raw.commit()
        assert raw.execute("SELECT COUNT(*) FROM engine_inbox").fetchone() == (0,)
    assert read_memory(path, "ana") == before
