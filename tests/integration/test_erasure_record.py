"""The erasure record: keyed hashes of what forget and delete removed, when and why (issue 25)."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from tests.conftest import T0, Db
from vault import FactIn, NoteIn, PatternIn, Vault, open_vault
from vault.domain.erasure import ErasureReason, erasure_text
from vault.domain.errors import InvalidInput
from vault.services.erasure import (
    athlete_erased_at,
    erased_items,
    erased_since,
    record_erasure,
)

LATER = T0 + timedelta(days=3)


def _remember(vault: Vault) -> None:
    vault.merge(
        "ana",
        [
            FactIn(text="Has a sore knee.", category="injury"),
            FactIn(text="goal: sub-50 10k"),
            PatternIn(text="skips Mondays after long weekends"),
            NoteIn(text="likes blunt feedback"),
        ],
        now=T0,
    )
    vault.merge("bob", [FactIn(text="has a sore knee")], now=T0)


def _only_digests(db: Db) -> bool:
    """Every athlete and item is named by a 64-hex-digit keyed hash: no text, no plain id."""
    keys = [k for row in db.rows("SELECT athlete_key, item_key FROM erasures") for k in row]
    return bool(keys) and all(k is None or re.fullmatch("[0-9a-f]{64}", k) for k in keys)


def test_forget_records_each_erased_item_as_a_keyed_hash_with_when_and_why(
    vault: Vault, db: Db
) -> None:
    _remember(vault)
    vault.forget("ana", "knee", now=LATER)
    with vault.unit_of_work() as uow:
        assert erased_since(uow, "ana", "has a sore knee") == LATER  # normalised text matches
        assert erased_since(uow, "ana", "HAS  a sore knee!") == LATER
        assert erased_since(uow, "ana", "goal: sub-50 10k") is None  # not erased
        assert erased_since(uow, "bob", "has a sore knee") is None  # another athlete's
    [(athlete_key, item_key, reason)] = db.rows(
        "SELECT athlete_key, item_key, reason FROM erasures"
    )
    assert reason == "forget"
    assert item_key != athlete_key and _only_digests(db)


def test_delete_records_the_athlete_and_every_item_and_never_the_plain_id(
    vault: Vault, db: Db
) -> None:
    _remember(vault)
    vault.delete_athlete("ana", now=LATER)
    with vault.unit_of_work() as uow:
        assert athlete_erased_at(uow, "ana") == LATER
        assert athlete_erased_at(uow, "bob") is None
        found = erased_items(
            uow, "ana", ["skips Mondays after long weekends", "likes blunt feedback", "new text"]
        )
    assert found == dict.fromkeys(
        ["skips Mondays after long weekends", "likes blunt feedback"], LATER
    )
    with vault.unit_of_work() as uow:  # the athlete's delete covers any text, as of the delete
        assert erased_since(uow, "ana", "a text ana never had") == LATER
    reasons = db.rows("SELECT reason, COUNT(*), COUNT(item_key) FROM erasures GROUP BY reason")
    assert reasons == [("delete", 5, 4)]  # four items and the athlete
    assert _only_digests(db)


def test_an_unknown_reason_is_refused_and_nothing_is_written(vault: Vault, db: Db) -> None:
    _remember(vault)
    with vault.unit_of_work() as uow:
        with pytest.raises(InvalidInput, match="unknown erasure reason 'oops'"):
            record_erasure(uow, "ana", ["has a sore knee"], "oops", LATER)
        assert (
            record_erasure(uow, "ana", ["has a sore knee", "Has a sore knee"], "wrong", LATER) == 1
        )
        assert record_erasure(uow, "ana", ["...", ""], ErasureReason.EDITED, LATER) == 0
        uow.commit()
    assert db.rows("SELECT reason FROM erasures") == [("wrong",)]


def test_the_latest_erasure_of_an_item_counts(vault: Vault) -> None:
    _remember(vault)
    with vault.unit_of_work() as uow:
        record_erasure(uow, "ana", ["likes blunt feedback"], ErasureReason.WRONG, T0)
        record_erasure(uow, "ana", ["likes blunt feedback"], ErasureReason.EDITED, LATER)
        assert erased_since(uow, "ana", "Likes blunt feedback.") == LATER
        uow.commit()


def test_erasure_text_is_the_items_dedup_key_after_nfc() -> None:
    assert erasure_text("Caf\u0065\u0301 runs.") == erasure_text("café RUNS")
    assert erasure_text("runs | swims") == erasure_text("runs / swims")  # the row's '|' -> '/'


def test_each_vault_has_its_own_secret_so_hashes_differ(tmp_path: Path) -> None:
    keys = []
    for name in ("one.db", "two.db"):
        path = tmp_path / name
        with open_vault(path, upgrade=True) as vault:
            _remember(vault)
            vault.forget("ana", "knee", now=LATER)
        with closing(sqlite3.connect(path)) as raw:
            [(secret,)] = raw.execute("SELECT secret FROM vault_secrets").fetchall()
            assert len(secret) == 64 and int(secret, 16)
            keys.append(raw.execute("SELECT athlete_key, item_key FROM erasures").fetchall())
    assert keys[0] != keys[1]


def test_a_vault_without_its_secret_makes_one_on_first_erasure(vault: Vault, db: Db) -> None:
    db.execute("DELETE FROM vault_secrets")
    _remember(vault)
    with vault.unit_of_work() as uow:
        assert erased_since(uow, "ana", "has a sore knee") is None  # reading makes nothing
    assert db.rows("SELECT COUNT(*) FROM vault_secrets") == [(0,)]
    vault.forget("ana", "knee", now=LATER)
    assert db.rows("SELECT COUNT(*) FROM vault_secrets") == [(1,)]
    with vault.unit_of_work() as uow:
        assert erased_since(uow, "ana", "has a sore knee") == LATER
