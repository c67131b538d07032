"""Edge cases of input: tag case in retractions, times out of range, invisible athlete ids,
confidence given as True, and a frozen clock beside pytest's own timer."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from _pytest import timing
from freezegun import freeze_time

from tests.conftest import T0
from vault import FactIn, InvalidInput, Retraction, open_vault


def test_a_retraction_matches_tags_whatever_their_case(vault_file: Path) -> None:
    with open_vault(vault_file) as vault:
        vault.merge(
            "ana",
            [FactIn(text="sore knee after runs", category="injury", tags={"Body:Knee"})],
            now=T0,
        )
        assert [f.tags for f in vault.facts("ana", now=T0)] == [("body:knee",)]
        result = vault.merge(
            "ana", [Retraction(category="injury", tags={"Body:Knee"})], now=T0 + timedelta(days=1)
        )
        assert [a.original_text for a in result.archived] == ["sore knee after runs"]
        assert vault.facts("ana") == []
        vault.merge("ana", [FactIn(text="primary sport: running")], now=T0 + timedelta(days=2))
        vault.merge("ana", [Retraction(conflict_key="Primary Sport")], now=T0 + timedelta(days=3))
        assert vault.facts("ana") == []


@pytest.mark.parametrize(
    "moment",
    [
        datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1))),  # 0001-01-01T00:00:00+01:00
        datetime(9999, 12, 31, 23, 30, tzinfo=timezone(timedelta(hours=-1))),
    ],
)
def test_times_out_of_range_are_invalid_input_not_overflow(
    vault_file: Path, moment: datetime
) -> None:
    with open_vault(vault_file) as vault:
        with pytest.raises(InvalidInput, match="out of range"):
            vault.merge("ana", [FactIn(text="goal: 5k", observed_at=moment)])
        with pytest.raises(InvalidInput, match="out of range"):
            vault.merge("ana", [FactIn(text="goal: 5k")], now=moment)
        with pytest.raises(InvalidInput, match="out of range"):
            vault.decay(moment)
        with pytest.raises(InvalidInput):
            FactIn(text="goal: 5k", observed_at=moment)


@pytest.mark.parametrize("athlete", ["\u200b", "a\u2028b", "ana\ud800"])
def test_invisible_athlete_ids_are_refused_everywhere(vault_file: Path, athlete: str) -> None:
    with open_vault(vault_file) as vault:
        with pytest.raises(InvalidInput):
            vault.merge(athlete, [FactIn(text="goal: 5k")], now=T0)
        with pytest.raises(InvalidInput):
            vault.memory(athlete)


def test_confidence_true_is_refused(vault_file: Path) -> None:
    with open_vault(vault_file) as vault:
        with pytest.raises(InvalidInput):
            vault.merge("ana", [{"text": "goal: 5k", "confidence": True}], now=T0)
        with pytest.raises(InvalidInput):
            vault.remember("ana", "goal: 5k", confidence=True)


def test_a_frozen_clock_does_not_freeze_pytests_timer() -> None:
    """`pytest --durations` printed 1773650510.60s setups: freezegun froze _pytest.timing."""
    with freeze_time("2001-01-01"):
        assert time.time() < 1e9 + 1  # the code under test sees the frozen clock...
        assert timing.time() > 1.7e9  # ...pytest's own timer does not
