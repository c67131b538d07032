"""The facade split by resource: `Vault` keeps memory and learning, the rest hangs off it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import T0
from vault import FactIn, open_vault
from vault.api import Vault


def test_each_resource_is_its_own_small_object(tmp_path: Path) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        v.merge("ana", [FactIn(text="primary sport: running")], T0)
        assert v.transfer.export("ana")["facts"][0]["text"] == "primary sport: running"
        assert v.admin.athlete_count() == 1
        assert v.episodes.add_one("ana", "ran a 10k race in 50 minutes", now=T0).added
        assert v.knowledge.for_context("nothing known") == []


@pytest.mark.parametrize(
    "old", ["export", "recall", "doctor", "active_facts", "prompt_facts", "read_knowledge"]
)
def test_the_names_of_earlier_drafts_are_gone(tmp_path: Path, old: str) -> None:
    """0.1.0 ships without the aliases of its drafts (CHANGELOG.md says where each went)."""
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        assert not hasattr(v, old)
    assert "Vault." + old in (Path(__file__).parents[2] / "CHANGELOG.md").read_text()


def test_the_vault_itself_stays_small() -> None:
    resources = {"episodes", "knowledge", "transfer", "admin"}
    public = [n for n in vars(Vault) if not n.startswith("_") and n not in resources]
    assert len(public) <= 34, (
        public
    )  # memory and learning: merge, reads, ingest, consolidate, why, ...


@pytest.mark.sqlite_only
def test_the_kept_read_connection_pins_no_snapshot(tmp_path: Path) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        v.remember("ana", "has a secret zebra", T0)
        assert v.memory_block("ana", now=T0).text  # the kept connection has read
        assert v.facts("ana", T0)
        result = v.forget("ana", "zebra")  # a TRUNCATE checkpoint must not wait for it
        assert result.erased_from_disk is True
        assert v.admin.erasure_pending() is False


def test_reads_from_several_threads_at_once_each_see_the_data(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        v.remember("ana", "primary sport: running", T0)
        with ThreadPoolExecutor(max_workers=6) as pool:
            texts = list(pool.map(lambda _: [f.text for f in v.facts("ana", T0)], range(60)))
        assert texts == [["primary sport: running"]] * 60
        v.remember("ana", "has kids", T0)
        assert sorted(f.text for f in v.facts("ana", T0)) == ["has kids", "primary sport: running"]
