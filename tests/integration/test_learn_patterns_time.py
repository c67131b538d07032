"""`learn_patterns` works as of the `now` it is given: the stored facts it weighs are read as
of that time too, so a past-dated history gives the patterns it showed then."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from vault import open_vault

THEN = datetime(2024, 5, 20, 12, 0, tzinfo=timezone.utc)


def test_past_dated_injury_facts_count_as_of_their_time(tmp_path: Path) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        for days in (20, 10, 1):
            v.ingest_message("ana", "my left knee hurts again", now=THEN - timedelta(days=days))
        assert v.facts("ana") == []  # decayed away by today's clock
        result = v.learn_patterns("ana", [], now=THEN)
        assert [p.text for p in result.added] == ["recurring knee issues"]


def test_the_same_facts_read_today_give_no_pattern(tmp_path: Path) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        for days in (20, 10, 1):
            v.ingest_message("ana", "my left knee hurts again", now=THEN - timedelta(days=days))
        assert v.learn_patterns("ana", []).added == ()
