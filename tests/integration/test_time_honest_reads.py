"""Reads are honest about time (issue 12): confidence is shown as of `now`, computed the way
decay would, so running `decay` is housekeeping; and durable facts decay slower than passing ones."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from freezegun import freeze_time

from tests.integration.test_merge import rows
from vault import Category, FactIn, InvalidInput, Vault, open_vault
from vault.domain.rules import DecayPolicy

T0 = datetime(2026, 3, 2, 8, tzinfo=timezone.utc)


def test_a_fact_leaves_the_memory_block_when_its_time_comes_without_any_decay_run(
    vault: Vault, db_path: Path
) -> None:
    vault.merge("ana", [FactIn(text="prefers morning sessions", confidence=0.55)], now=T0)
    assert "prefers morning sessions" in vault.memory_block("ana", now=T0).text
    later = T0 + timedelta(days=30)  # four unreinforced weeks: 0.55 x 0.95^4 = 0.448
    assert vault.memory_block("ana", now=later).text == ""
    [fact] = vault.facts("ana", now=later)
    assert fact.confidence == pytest.approx(0.55 * 0.95**4, abs=1e-6)
    assert rows(db_path, "SELECT confidence FROM facts") == [(0.55,)]  # nothing was written
    with freeze_time(later):  # the default `now` is the clock
        assert vault.memory_block("ana").text == ""
        assert vault.facts("ana", min_confidence=0.5) == []


def test_after_a_ten_week_break_who_the_athlete_is_stays_and_passing_things_fade(
    vault: Vault,
) -> None:
    vault.merge(
        "ana",
        [
            FactIn(text="has kids", confidence=0.7),
            FactIn(text="goal: marathon", confidence=0.8),
            FactIn(text="prefers morning sessions", confidence=0.7),
        ],
        now=T0,
    )
    block = vault.memory_block("ana", now=T0 + timedelta(weeks=10)).text
    assert "has kids" in block and "goal: marathon" in block
    assert "prefers morning sessions" not in block  # 0.7 x 0.95^10 = 0.42


def test_the_decay_policy_is_configurable_and_checked(tmp_path: Path) -> None:
    never = DecayPolicy(by_category={Category.TIME_PREFERENCE: 1.0})
    with open_vault(tmp_path / "v.db", upgrade=True, decay_policy=never) as v:
        v.merge("ana", [FactIn(text="prefers morning sessions", confidence=0.7)], now=T0)
        assert v.facts("ana", now=T0 + timedelta(weeks=52))[0].confidence == 0.7
        assert v.decay(now=T0 + timedelta(weeks=52)).archived == 0
    for bad in (0.0, 1.5, True, "0.9"):
        with pytest.raises(InvalidInput):
            DecayPolicy(default=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="unknown category"):
        DecayPolicy(by_category={"bogus": 0.9})  # type: ignore[dict-item]
    with pytest.raises(InvalidInput, match="DecayPolicy"):
        open_vault(tmp_path / "new.db", upgrade=True, decay_policy="fast")  # type: ignore[arg-type]
    assert not (tmp_path / "new.db").exists()  # refused before anything was created


def test_reads_and_decay_agree(vault: Vault) -> None:
    vault.merge(
        "ana",
        [FactIn(text="has kids", confidence=0.7), FactIn(text="likes hills", confidence=0.9)],
        now=T0,
    )
    later = T0 + timedelta(weeks=9, days=3)
    before = [(f.text, f.confidence) for f in vault.facts("ana", now=later)]
    vault.decay(now=later)
    assert [(f.text, f.confidence) for f in vault.facts("ana", now=later)] == before
