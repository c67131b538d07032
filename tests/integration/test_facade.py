"""The facade split by resource: `Vault` keeps memory and learning, the rest hangs off it, and
every old method name still works for one release with a DeprecationWarning."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.conftest import T0
from vault import FactIn, open_vault
from vault.api import Vault
from vault.facade.renamed import Renamed


def test_each_resource_is_its_own_small_object(tmp_path: Path) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        v.merge("ana", [FactIn(text="primary sport: running")], T0)
        assert v.transfer.export("ana")["facts"][0]["text"] == "primary sport: running"
        assert v.admin.athlete_count() == 1
        assert v.episodes.add_one("ana", "ran a 10k race in 50 minutes", now=T0).added
        assert v.knowledge.for_context("nothing known") == []


def test_an_old_name_warns_and_does_what_the_new_one_does(tmp_path: Path) -> None:
    with open_vault(tmp_path / "v.db", upgrade=True) as v:
        v.merge("ana", [FactIn(text="primary sport: running")], T0)
        with pytest.warns(DeprecationWarning, match=r"Vault.export is deprecated.*transfer.export"):
            old = v.export("ana")
        assert old == v.transfer.export("ana")
        with pytest.warns(DeprecationWarning, match=r"Vault.active_facts .*use .facts"):
            assert v.active_facts("ana", T0) == v.facts("ana", T0)
        with pytest.warns(DeprecationWarning, match="Vault.facts_by_category"):
            assert v.facts_by_category("ana", "sport", T0) == v.facts("ana", T0, category="sport")
        with pytest.warns(DeprecationWarning, match="Vault.prompt_facts"):
            assert v.prompt_facts("ana", T0) == v.facts("ana", T0, min_confidence=0.5)


def test_an_old_static_name_works_on_the_class(tmp_path: Path) -> None:
    with pytest.warns(DeprecationWarning, match="knowledge.read_files"):
        assert Vault.read_knowledge([]) == []


def test_every_old_name_points_at_a_method_that_exists(tmp_path: Path) -> None:
    renamed = {n: a for n, a in vars(Vault).items() if isinstance(a, Renamed)}
    assert len(renamed) > 20
    with open_vault(tmp_path / "v.db", upgrade=True) as v, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for name in renamed:
            assert callable(getattr(v, name)), name


def test_the_vault_itself_stays_small() -> None:
    public = [
        n for n, a in vars(Vault).items() if not n.startswith("_") and not isinstance(a, Renamed)
    ]
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
